/**
 * Where the parts of a lowered SQL statement came from in its text.
 *
 * The command IR has no spans (JSON commands have no text), so lowering
 * records them beside it: each lowered expression, and each object that
 * names a table (a select or its join, an insert/update/delete), maps to
 * the span of the text it came from; a list of plain column names (a select
 * list, RETURNING) maps to one span per item. The binder, when binding one
 * of these throws an error of the SQL text without a position, gives it the
 * span's start (`locate`): errors thrown deeper were located there first,
 * so the innermost known part wins. A table belongs to one SQL text, which
 * is cached with it: a cached plan never meets another text's table.
 */

import { StoreError, type ErrorCode } from "../errors.js";
import type { Span } from "../parser/ast.js";

/** The errors that point into the text: names the catalog lacks and misuse of SQL. */
const LOCATED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["sql_error", "unknown_column", "ambiguous_column", "table_not_found", "type_mismatch"]);

export class SourceSpans {
  private readonly nodes = new WeakMap<object, Span>();
  private readonly lists = new WeakMap<object, readonly (Span | undefined)[]>();

  /** Records `node`'s span; returns the node. */
  set<T extends object>(node: T, span: Span): T {
    this.nodes.set(node, span);
    return node;
  }

  /** Records the span of each item of `list` (undefined where an item is not a plain name). */
  setItems<T extends object>(list: T, spans: readonly (Span | undefined)[]): T {
    this.lists.set(list, spans);
    return list;
  }

  /** `to`, a copy of `from` (parameter typing copies the nodes above a slot), keeps its span. */
  copied(from: object, to: object): void {
    const span = this.nodes.get(from);
    if (span !== undefined) this.nodes.set(to, span);
    const items = this.lists.get(from);
    if (items !== undefined) this.lists.set(to, items);
  }

  /** `run()`, an error of it located at `node`'s span when it has none. */
  at<T>(node: object, run: () => T): T {
    const span = this.nodes.get(node);
    if (span === undefined) return run();
    try {
      return run();
    } catch (error) {
      throw located(error, span);
    }
  }

  /** `run()` for item `index` of `list`, an error located at the item's span. */
  atItem<T>(list: object, index: number, run: () => T): T {
    const span = this.lists.get(list)?.[index];
    if (span === undefined) return run();
    try {
      return run();
    } catch (error) {
      throw located(error, span);
    }
  }
}

function located(error: unknown, span: Span): unknown {
  if (!(error instanceof StoreError) || error.position !== undefined || !LOCATED.has(error.code)) return error;
  return error.at({ line: span.line, column: span.column, offset: span.start });
}
