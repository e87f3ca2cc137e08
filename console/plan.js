/**
 * `explain`'s plan (CONTRACT §4) as a tree, built from the JSON alone.
 *
 * Nothing here knows the planner's node kinds: any object is a node, named
 * by its `kind` (or `type`) with its scalar members shown beside the name,
 * and every member holding an object or a list of objects is a child
 * subtree labelled with the member's name. So a plan node the planner grows
 * tomorrow (an aggregate, a subquery, an operator with `children`) shows up
 * as itself without a change here. Empty lists are left out (a select with
 * no joins shows no `joins`). Nodes with children are `<details>`
 * disclosures — open, collapsible by keyboard — in nested lists, so the
 * tree's shape reaches a screen reader as list nesting.
 */

import { h } from "./dom.js";

/**
 * @typedef {null | string | number | boolean | JsonObject | JsonArray} Json
 * @typedef {{[key: string]: Json}} JsonObject
 * @typedef {Json[]} JsonArray
 */

const TAG_KEYS = ["kind", "type"];

function isScalar(/** @type {Json} */ value) {
  return value === null || typeof value !== "object";
}

function scalarText(/** @type {Json} */ value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** A list of scalars reads as one value: `columns: ["id", "name"]`. */
function isScalarList(/** @type {Json} */ value) {
  return Array.isArray(value) && value.every(isScalar);
}

/**
 * The name and inline attributes of a node, and its children.
 * @param {JsonObject} node
 */
function split(node) {
  /** @type {string | undefined} */
  let tag;
  /** @type {[string, string][]} */
  const attributes = [];
  /** @type {[string, Json][]} */
  const children = [];
  for (const [key, value] of Object.entries(node)) {
    if (tag === undefined && TAG_KEYS.includes(key) && typeof value === "string") tag = value;
    else if (isScalar(value)) attributes.push([key, scalarText(value)]);
    else if (isScalarList(value)) {
      if (/** @type {Json[]} */ (value).length > 0) attributes.push([key, `[${/** @type {Json[]} */ (value).map(scalarText).join(", ")}]`]);
    } else if (!Array.isArray(value) || value.length > 0) children.push([key, value]);
  }
  return { tag, attributes, children };
}

/** @param {string | undefined} label @param {string | undefined} tag @param {[string, string][]} attributes */
function heading(label, tag, attributes) {
  /** @type {HTMLElement[]} */
  const pieces = [];
  if (label !== undefined) pieces.push(h("span", { class: "plan-label" }, `${label}:`));
  if (tag !== undefined) pieces.push(h("span", { class: "plan-kind" }, tag));
  for (const [key, value] of attributes) pieces.push(h("span", { class: "plan-attr" }, h("span", { class: "plan-key" }, key), "=", value));
  return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [" ", piece]));
}

/**
 * One list item for `value` under `label` (undefined for list entries, which the list numbers).
 * @param {string | undefined} label
 * @param {Json} value
 * @returns {HTMLLIElement}
 */
function item(label, value) {
  if (isScalar(value) || isScalarList(value)) {
    const text = Array.isArray(value) ? `[${value.map(scalarText).join(", ")}]` : scalarText(value);
    return h("li", { class: "plan-leaf" }, ...heading(label, undefined, []), label === undefined ? "" : " ", text);
  }
  if (Array.isArray(value)) {
    return branch(heading(label, undefined, [["items", String(value.length)]]), h("ol", { class: "plan-list" }, ...value.map((entry) => item(undefined, entry))));
  }
  const { tag, attributes, children } = split(value);
  if (children.length === 0) return h("li", { class: "plan-leaf" }, ...heading(label, tag, attributes));
  return branch(heading(label, tag, attributes), h("ul", { class: "plan-list" }, ...children.map(([key, child]) => item(key, child))));
}

/** @param {(Node | string)[]} summary @param {HTMLElement} list */
function branch(summary, list) {
  return h("li", { class: "plan-node" }, h("details", { open: true }, h("summary", {}, ...summary), list));
}

/** The plan of an `explain` result as a tree, with its JSON behind a disclosure. */
export function planView(/** @type {Json} */ plan) {
  return h(
    "div",
    { class: "plan" },
    h("ul", { class: "plan-tree", "aria-label": "Query plan" }, item("plan", plan)),
    h("details", { class: "plan-json" }, h("summary", {}, "Plan as JSON"), h("pre", {}, JSON.stringify(plan, null, 2))),
  );
}
