/**
 * A command's result (CONTRACT §6) as a view, and a one-line summary of it.
 *
 * Rows are paged on the client: the console keeps the one answer the server
 * gave and puts one page of it (100 rows unless the user picks another
 * size) into the DOM at a time, so 100,000 rows cost one array in memory,
 * not 100,000 table rows in the page. Paging one answer rather than
 * re-sending the query with LIMIT/OFFSET keeps every page from one snapshot,
 * works for any statement as the user wrote it (their own LIMIT, joins,
 * aggregates) without rewriting their SQL, and knows the total row count up
 * front. Any result carrying `columns` and `rows` is shown as a table (a
 * select, a mutation with `returning`); plans go to `plan.js`; anything else
 * is shown as its JSON.
 */

import { count, h, plural } from "./dom.js";
import { planView } from "./plan.js";

export const PAGE_SIZES = [50, 100, 250, 500];
const DEFAULT_PAGE_SIZE = 100;
/** Numbers the pager's control ids, so a label always names its own control. */
let views = 0;

/** @typedef {import("./api.js").Result} Result */
/** @typedef {import("./api.js").Value} Value */

/** @param {unknown} value */
function cell(value) {
  if (value === null || value === undefined) return h("td", { class: "null" }, "NULL");
  if (typeof value === "number") return h("td", { class: "num" }, String(value));
  if (typeof value === "boolean") return h("td", { class: "bool" }, String(value));
  if (typeof value === "string") return h("td", {}, value);
  return h("td", {}, JSON.stringify(value));
}

/** A table of rows, one page in the DOM at a time. */
class RowsView {
  /**
   * @param {string[]} columns
   * @param {(Record<string, Value> | Value[])[]} rows
   */
  constructor(columns, rows) {
    this.columns = columns;
    this.rows = rows;
    this.pageSize = DEFAULT_PAGE_SIZE;
    this.page = 0;
    this.body = h("tbody");
    this.range = h("p", { class: "page-range", "aria-live": "polite" });
    this.table = h(
      "table",
      { class: "rows" },
      h("caption", { class: "visually-hidden" }, `Result: ${plural(rows.length, "row")}`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "row-number" }, "#"), ...columns.map((name) => h("th", { scope: "col" }, name)))),
      this.body,
    );
    views += 1;
    const pageId = `page-number-${views}`;
    const sizeId = `page-size-${views}`;
    /** @param {string} text @param {() => number} target */
    const button = (text, target) => {
      const b = h("button", { type: "button", class: "small" }, text);
      b.addEventListener("click", () => this.show(target()));
      return b;
    };
    this.first = button("First", () => 0);
    this.previous = button("Previous", () => this.page - 1);
    this.next = button("Next", () => this.page + 1);
    this.last = button("Last", () => this.pageCount - 1);
    this.pageInput = h("input", { id: pageId, type: "number", min: 1, inputmode: "numeric", class: "page-number" });
    this.pageInput.addEventListener("change", () => {
      const wanted = Number(this.pageInput.value);
      if (Number.isInteger(wanted)) this.show(wanted - 1);
      else this.pageInput.value = String(this.page + 1);
    });
    this.pageTotal = h("span", {});
    const sizes = h("select", { id: sizeId }, ...PAGE_SIZES.map((size) => h("option", { value: size, selected: size === this.pageSize }, String(size))));
    sizes.addEventListener("change", () => {
      const firstRow = this.page * this.pageSize;
      this.pageSize = Number(sizes.value);
      this.show(Math.floor(firstRow / this.pageSize));
    });
    this.pager = h(
      "nav",
      { class: "pager", "aria-label": "Result pages" },
      this.first,
      this.previous,
      h("label", { for: pageId }, "Page"),
      this.pageInput,
      this.pageTotal,
      this.next,
      this.last,
      h("label", { for: sizeId }, "Rows per page"),
      sizes,
    );

    this.element = h(
      "div",
      { class: "rows-view" },
      this.pager,
      this.range,
      h("div", { class: "table-scroll", role: "region", "aria-label": "Result rows", tabindex: 0 }, this.table),
    );
    this.show(0);
  }

  get pageCount() {
    return Math.max(1, Math.ceil(this.rows.length / this.pageSize));
  }

  /** Shows page `page` (clamped), replacing the previous page's rows. */
  show(/** @type {number} */ page) {
    this.page = Math.min(Math.max(page, 0), this.pageCount - 1);
    const start = this.page * this.pageSize;
    const end = Math.min(start + this.pageSize, this.rows.length);
    const fragment = document.createDocumentFragment();
    for (let index = start; index < end; index++) {
      const row = /** @type {Record<string, Value> | Value[]} */ (this.rows[index]);
      const values = Array.isArray(row) ? row : this.columns.map((column) => row[column]);
      fragment.append(h("tr", {}, h("th", { scope: "row", class: "row-number" }, count(index + 1)), ...values.map(cell)));
    }
    this.body.replaceChildren(fragment);

    const last = this.pageCount - 1;
    this.pager.hidden = last === 0;
    this.pageInput.max = String(last + 1);
    this.pageInput.value = String(this.page + 1);
    this.pageTotal.textContent = `of ${count(last + 1)}`;
    this.first.disabled = this.previous.disabled = this.page === 0;
    this.next.disabled = this.last.disabled = this.page === last;
    this.range.textContent = this.rows.length === 0 ? "No rows." : `Rows ${count(start + 1)}–${count(end)} of ${count(this.rows.length)}`;
    // A button that just disabled itself (Next on reaching the last page) would drop focus to the page body.
    if (document.activeElement instanceof HTMLButtonElement && document.activeElement.disabled && this.pager.contains(document.activeElement)) {
      this.pageInput.focus();
    }
  }
}

/**
 * The view of a result and its summary for the status line.
 * @param {Result} result
 * @returns {{element: HTMLElement, summary: string}}
 */
export function resultView(result) {
  const { kind } = result;
  const table = Array.isArray(result.columns) && Array.isArray(result.rows)
    ? new RowsView(/** @type {string[]} */ (result.columns), /** @type {(Record<string, Value> | Value[])[]} */ (result.rows))
    : undefined;

  if (kind === "rows" && table !== undefined) {
    return { element: table.element, summary: plural(table.rows.length, "row") };
  }
  if (kind === "mutation") {
    const affected = `${String(result.operation)}${result.table === undefined ? "" : ` on ${String(result.table)}`}: ${plural(Number(result.rowsAffected), "row")} affected`;
    return { element: table?.element ?? h("p", {}, `${affected}.`), summary: affected };
  }
  if (kind === "plan") {
    return { element: planView(/** @type {import("./plan.js").Json} */ (result.plan)), summary: "Query plan" };
  }
  if (kind === "validation") {
    const errors = /** @type {import("./api.js").ProblemEntry[]} */ (result.errors ?? []);
    const summary = result.valid === true ? "The database is valid" : `The database is invalid: ${plural(errors.length, "problem")}`;
    return { element: h("div", {}, h("p", {}, `${summary}.`), ...(errors.length > 0 ? [entriesList(errors)] : [])), summary };
  }
  return { element: h("pre", { class: "json" }, JSON.stringify(result, null, 2)), summary: `Result: ${kind}` };
}

/**
 * Row-level problems (a validation's or a problem's `errors`) as a list.
 * @param {import("./api.js").ProblemEntry[]} entries
 */
export function entriesList(entries) {
  return h(
    "ul",
    { class: "entries" },
    ...entries.map((entry) => {
      const where = [entry.table, entry.row === undefined ? undefined : `row ${entry.row}`, entry.column].filter((part) => part !== undefined).join(", ");
      return h("li", {}, h("code", {}, entry.code), where === "" ? "" : ` (${where})`, `: ${entry.message}`);
    }),
  );
}
