/**
 * A problem (CONTRACT §7) as the console shows it: title, code and detail;
 * for an error with a SQL `position`, a button that takes the keyboard to
 * the marked token in the editor; the tokens the parser `expected`; and the
 * row-level `errors` of a validation or constraint failure.
 */

import { h } from "./dom.js";
import { entriesList } from "./results.js";

/**
 * @param {import("./api.js").Problem} problem
 * @param {(() => void) | undefined} reveal focuses the editor on the marked position, when there is one
 */
export function problemView(problem, reveal) {
  /** @type {HTMLElement[]} */
  const parts = [
    h("h3", { class: "problem-title" }, problem.title, " ", h("code", { class: "problem-code" }, problem.code)),
  ];
  if (problem.detail !== undefined) parts.push(h("p", { class: "problem-detail" }, problem.detail));
  if (problem.position !== undefined && reveal !== undefined) {
    const { line, column } = problem.position;
    const go = h("button", { type: "button", class: "small" }, `Show line ${line}, column ${column} in the editor`);
    go.addEventListener("click", reveal);
    parts.push(h("p", {}, go));
  }
  if (problem.expected !== undefined && problem.expected.length > 0) {
    parts.push(h("p", {}, "Expected one of: ", ...problem.expected.flatMap((token, i) => [i === 0 ? "" : ", ", h("code", {}, token)])));
  }
  if (problem.step !== undefined) parts.push(h("p", {}, `In step ${problem.step + 1} of the transaction.`));
  if (problem.errors !== undefined && problem.errors.length > 0) parts.push(entriesList(problem.errors));
  return h("div", { class: "problem" }, ...parts);
}
