/**
 * The parameter list: one typed value per parameter, in order (the first
 * for `?1`; a plain `?` takes the next) — text, number,
 * boolean or null — sent as the `sql` command's `params` (CONTRACT §4).
 *
 * Each value is typed explicitly rather than guessed from what was typed, so
 * the text `"42"` and the number `42` stay different values, as the
 * server's strict typing (§5) requires. Every control has its own label
 * naming its parameter's number; a number that JSON cannot carry is
 * refused here, next to its field, before anything is sent.
 */

import { h } from "./dom.js";

/** @typedef {"text" | "number" | "boolean" | "null"} ParamType */

/** @type {readonly ParamType[]} */
const TYPES = ["text", "number", "boolean", "null"];

export class ParamError extends Error {
  /** @param {string} message @param {HTMLElement} field */
  constructor(message, field) {
    super(message);
    this.name = "ParamError";
    this.field = field;
  }
}

export class ParamList {
  /**
   * @param {HTMLOListElement} list
   * @param {HTMLElement} emptyNote shown while there are no parameters
   */
  constructor(list, emptyNote) {
    this.list = list;
    this.emptyNote = emptyNote;
    this.renumber();
  }

  /** Adds a parameter row and focuses its value (or its type, for null). */
  add(/** @type {ParamType} */ type = "text") {
    const item = h("li", { class: "param" });
    item.dataset.type = type;
    this.list.append(item);
    this.renumber();
    this.focusValue(item);
  }

  /** @returns {import("./api.js").Value[]} the values in order; throws ParamError on a bad one */
  values() {
    return [...this.list.children].map((item, index) => {
      const type = /** @type {ParamType} */ ((/** @type {HTMLElement} */ (item)).dataset.type);
      const field = item.querySelector(".param-value");
      switch (type) {
        case "null":
          return null;
        case "boolean":
          return /** @type {HTMLSelectElement} */ (field).value === "true";
        case "number": {
          const input = /** @type {HTMLInputElement} */ (field);
          const number = Number(input.value.trim());
          if (input.value.trim() === "" || !Number.isFinite(number)) {
            throw new ParamError(`Parameter ${index + 1} is not a finite number.`, input);
          }
          return number;
        }
        default:
          return /** @type {HTMLInputElement} */ (field).value;
      }
    });
  }

  /** Rebuilds every row's controls and labels after a change of count or type, keeping values. */
  renumber() {
    const items = /** @type {HTMLElement[]} */ ([...this.list.children]);
    items.forEach((item, index) => this.build(item, index + 1));
    this.emptyNote.hidden = items.length > 0;
  }

  /** @param {HTMLElement} item @param {number} n */
  build(item, n) {
    const type = /** @type {ParamType} */ (item.dataset.type);
    const previous = item.querySelector(".param-value");
    const previousValue = previous instanceof HTMLInputElement || previous instanceof HTMLSelectElement ? previous.value : "";
    const typeId = `param-${n}-type`;
    const valueId = `param-${n}-value`;

    const typeSelect = h("select", { id: typeId, class: "param-type" }, ...TYPES.map((t) => h("option", { value: t, selected: t === type }, t)));
    typeSelect.addEventListener("change", () => {
      item.dataset.type = typeSelect.value;
      this.build(item, n);
      this.focusValue(item);
    });

    /** @type {Node[]} */
    let value;
    if (type === "null") {
      value = [h("span", { class: "param-null muted" }, "NULL")];
    } else if (type === "boolean") {
      const select = h("select", { id: valueId, class: "param-value" }, h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
      if (previousValue === "false") select.value = "false";
      value = [h("label", { for: valueId, class: "visually-hidden" }, `Value of parameter ${n}`), select];
    } else {
      const input = h("input", {
        id: valueId,
        class: "param-value",
        autocomplete: "off",
        spellcheck: "false",
        inputmode: type === "number" ? "decimal" : undefined,
      });
      input.value = previousValue === "true" || previousValue === "false" ? "" : previousValue;
      value = [h("label", { for: valueId, class: "visually-hidden" }, `Value of parameter ${n}`), input];
    }

    const remove = h("button", { type: "button", class: "small", "aria-label": `Remove parameter ${n}` }, "Remove");
    remove.addEventListener("click", () => {
      const next = item.nextElementSibling ?? item.previousElementSibling;
      item.remove();
      this.renumber();
      const focusTarget = next?.querySelector("button") ?? document.getElementById("add-param");
      if (focusTarget instanceof HTMLElement) focusTarget.focus();
    });

    item.replaceChildren(
      h("span", { class: "param-number", "aria-hidden": "true" }, `${n}`),
      h("label", { for: typeId, class: "visually-hidden" }, `Type of parameter ${n}`),
      typeSelect,
      ...value,
      remove,
    );
  }

  focusValue(/** @type {Element} */ item) {
    const target = item.querySelector(".param-value") ?? item.querySelector(".param-type");
    if (target instanceof HTMLElement) target.focus();
  }
}
