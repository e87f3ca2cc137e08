/**
 * The executor: compiles a bound plan once (`prepare`) and runs it on
 * tables (`runSelect`, `matchRows`). Mutations are applied by the catalog,
 * which owns the tables and their rules; the executor finds their rows.
 */

export { compileAssignments, type AssignFn } from "./assign.js";
export { checkParams, paramCountError } from "./params.js";
export { compilePredicate, compileValue, type PredicateFn, type ValueFn } from "./codegen.js";
export { matchRows, matchThen, prepareMatch, type PreparedMatch } from "./match.js";
export { compileProjection, type ProjectFn } from "./project.js";
export { LATE_PROJECTION_AT, prepareSelect, rowSlices, runSelect, subqueryScope, type PreparedSelect, type RowSlices, type SubqueryScope } from "./select.js";
export { UnsteadyRead, atStatementTime, steadily } from "./statement-clock.js";
export { prepareUpdateRows, type FindUpdateRows, type UpdateRows } from "./update-rows.js";
export type { StoredRow, Stores, TableStore } from "./table-store.js";
export { compareText, compareValues } from "./value-order.js";
