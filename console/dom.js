/**
 * A small element builder and number formatting for the console's views.
 *
 * Everything the server sends is put into the page as text nodes, never as
 * markup, so a value like `<img onerror=…>` in a row is shown, not run.
 */

/**
 * `h("td", {class: "num"}, "42")`: an element with attributes (false and
 * undefined leave one out, true sets it empty) and children (strings become
 * text nodes).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | undefined>} [attributes]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children);
  return element;
}

/** The element of `id`, which the page must have. */
export function byId(/** @type {string} */ id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the console page has no #${id}`);
  return element;
}

const integers = new Intl.NumberFormat("en");

export function count(/** @type {number} */ n) {
  return integers.format(n);
}

/** `n` things, with the noun made plural unless n is 1: `plural(2, "row")` is "2 rows". */
export function plural(/** @type {number} */ n, /** @type {string} */ noun) {
  return `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
}

export function bytes(/** @type {number} */ n) {
  if (n < 1024) return plural(n, "byte");
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function milliseconds(/** @type {number} */ ms) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${count(Math.round(ms))} ms`;
}
