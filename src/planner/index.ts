/**
 * The planner's entry: `bind(command, catalog)` turns any plan command of
 * CONTRACT §4 — from JSON, lowered SQL or the fluent builder — into the one
 * bound `Plan` the executor runs and `explain` shows, then runs the
 * optimization passes.
 */

import type { PlanCommand } from "../commands/types.js";
import { assertNever } from "../errors.js";
import { bindCreateTable, bindDropTable } from "./bind-create.js";
import { bindCreateTableAs } from "./bind-create-as.js";
import { bindAlterTable } from "./bind-alter.js";
import { bindCreateIndex, bindDropIndex } from "./bind-index.js";
import { bindDelete, bindInsert, bindUpdate } from "./bind-mutation.js";
import { bindSelect, queryContext } from "./bind-select.js";
import type { Plan } from "./plan.js";
import { optimize } from "./passes.js";
import type { Catalog } from "./table-info.js";
import type { SourceSpans } from "./source-spans.js";

export type { Catalog, KeyInfo, TableInfo } from "./table-info.js";

export interface BindOptions {
  /**
   * Whether insert values and `set` values shaped like `{type:"param"}` are
   * parameter slots (lowered SQL, the JSON plan cache) or plain values (a
   * JSON command as sent).
   */
  readonly slots?: boolean;
  /** The command came from SQL text: misuse is `sql_error` rather than `invalid_request` (CONTRACT §11). */
  readonly sql?: boolean;
  /** Where lowered SQL text's parts stand in it: binding errors point there. */
  readonly spans?: SourceSpans;
}

export function bind(command: PlanCommand, catalog: Catalog, options: BindOptions = {}): Plan {
  const slots = options.slots === true;
  const context = queryContext(catalog, options.sql === true, options.spans);
  switch (command.kind) {
    case "select":
      return optimize(bindSelect(command, catalog, options.sql === true, options.spans), catalog);
    case "insert":
      return optimize(bindInsert(command, catalog, slots, context), catalog);
    case "update":
      return optimize(bindUpdate(command, catalog, slots, context), catalog);
    case "delete":
      return optimize(bindDelete(command, catalog, context), catalog);
    case "create-table":
      return "select" in command ? optimize(bindCreateTableAs(command, catalog, context), catalog) : bindCreateTable(command, catalog);
    case "drop-table":
      return bindDropTable(command);
    case "create-index":
      return bindCreateIndex(command, catalog);
    case "drop-index":
      return bindDropIndex(command, catalog);
    case "alter-table":
      return bindAlterTable(command, catalog);
    default:
      return assertNever(command, "command kind");
  }
}
