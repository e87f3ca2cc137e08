/**
 * A database's tables as `describe` returns them (CONTRACT §3 schema
 * objects): one disclosure per table with its columns, their types and
 * what constrains them, and the keys, indexes and checks that span columns.
 * Each table has a button that puts a select of it into the editor.
 */

import { h, plural } from "./dom.js";

/**
 * @typedef {{columns: string[]}} Key
 * @typedef {{columns: string[], references: {table: string, columns: string[]}, on_delete?: string}} ForeignKey
 * @typedef {{name: string, columns: Record<string, string>, required?: string[], primary_key?: Key,
 *   unique?: Key[], foreign_keys?: ForeignKey[], checks?: {name?: string}[], indexes?: {name: string, columns: string[], unique?: boolean}[],
 *   defaults?: Record<string, unknown>, computed?: Record<string, unknown>, comment?: string, comments?: Record<string, string>}} TableSchema
 */

const list = (/** @type {string[]} */ names) => names.join(", ");

/** What constrains `column`, in words: "primary key, required, references users(id)". */
function notes(/** @type {TableSchema} */ table, /** @type {string} */ column) {
  const out = [];
  const single = (/** @type {Key | undefined} */ key) => key !== undefined && key.columns.length === 1 && key.columns[0] === column;
  if (single(table.primary_key)) out.push("primary key");
  if (table.required?.includes(column) && !single(table.primary_key)) out.push("required");
  if (table.unique?.some(single)) out.push("unique");
  for (const fk of table.foreign_keys ?? []) {
    if (single(fk)) out.push(`references ${fk.references.table}(${list(fk.references.columns)})${fk.on_delete === "cascade" ? " on delete cascade" : ""}`);
  }
  if (table.defaults !== undefined && column in table.defaults) out.push(`default ${JSON.stringify(table.defaults[column])}`);
  if (table.comments?.[column] !== undefined) out.push(table.comments[column]);
  return out.join("; ");
}

/** Keys, indexes and checks over several columns (single-column ones are notes on their column). */
function spanning(/** @type {TableSchema} */ table) {
  const out = [];
  const wide = (/** @type {Key} */ key) => key.columns.length > 1;
  if (table.primary_key !== undefined && wide(table.primary_key)) out.push(`primary key (${list(table.primary_key.columns)})`);
  for (const key of (table.unique ?? []).filter(wide)) out.push(`unique (${list(key.columns)})`);
  for (const fk of (table.foreign_keys ?? []).filter(wide)) out.push(`(${list(fk.columns)}) references ${fk.references.table}(${list(fk.references.columns)})`);
  for (const index of table.indexes ?? []) out.push(`${index.unique === true ? "unique index" : "index"} ${index.name} (${list(index.columns)})`);
  for (const check of table.checks ?? []) out.push(check.name === undefined ? "check" : `check ${check.name}`);
  return out;
}

/**
 * @param {TableSchema} table
 * @param {(sql: string) => void} useQuery puts a statement into the editor
 */
function tableView(table, useQuery) {
  const columns = Object.entries(table.columns);
  const computed = Object.keys(table.computed ?? {});
  const rows = [
    ...columns.map(([name, type]) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, type), h("td", {}, notes(table, name)))),
    ...computed.map((name) => h("tr", {}, h("th", { scope: "row" }, name), h("td", {}, "computed"), h("td", {}, notes(table, name)))),
  ];
  const select = h("button", { type: "button", class: "small", "aria-label": `Select rows of ${table.name}` }, "Select rows");
  select.addEventListener("click", () => useQuery(`SELECT * FROM "${table.name}" LIMIT 1000`));
  const extra = spanning(table);
  return h(
    "details",
    { class: "table-schema" },
    h("summary", {}, h("span", { class: "table-name" }, table.name), " ", h("span", { class: "muted" }, plural(columns.length + computed.length, "column"))),
    ...(table.comment === undefined ? [] : [h("p", { class: "muted" }, table.comment)]),
    h(
      "table",
      { class: "columns" },
      h("caption", { class: "visually-hidden" }, `Columns of ${table.name}`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Column"), h("th", { scope: "col" }, "Type"), h("th", { scope: "col" }, "Notes"))),
      h("tbody", {}, ...rows),
    ),
    ...(extra.length === 0 ? [] : [h("ul", { class: "constraints" }, ...extra.map((text) => h("li", {}, text)))]),
    select,
  );
}

/**
 * @param {TableSchema[]} tables
 * @param {(sql: string) => void} useQuery
 */
export function tablesView(tables, useQuery) {
  return h("div", { class: "table-list" }, ...tables.map((table) => tableView(table, useQuery)));
}
