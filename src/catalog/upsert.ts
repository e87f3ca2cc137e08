/**
 * An insert with a conflict clause (CONTRACT §11): each proposed row, in
 * order, is inserted — or, when it conflicts with a row already there on
 * the clause's key (the primary key or one unique key; without a target,
 * any of them), skipped (`nothing`) or turned into an update of that row
 * (`update`, whose `set` reads the row there and the proposed one as
 * `excluded`).
 *
 * Rows go one at a time, as SQLite does: a later row sees what earlier
 * rows of the same command did (a second proposal of one key updates the
 * row the first inserted). Every rule of the schema is checked on each row
 * written — types, required columns, checks, every unique key, foreign keys
 * both ways — and the first row that breaks one stops the command: what
 * the rows before it did is undone, so the insert changes nothing, and the
 * error names that row by its index in the command. A conflict on a key
 * other than the target is such an error, as in SQLite.
 *
 * `replace` (INSERT OR REPLACE) first deletes every row the proposed one
 * conflicts with, on any unique key, as a delete would — its cascades
 * follow, a restricting reference refuses it — then inserts the row at the
 * table's end. Its changes are those deletes and that insert, so the
 * journal, undo and replay need nothing of their own for it.
 */

import type { Value } from "../commands/types.js";
import { ConstraintError, ValidationError, type ProblemEntry } from "../errors.js";
import type { AssignFn, PredicateFn } from "../executor/index.js";
import type { Assignment, InsertPlan } from "../planner/plan.js";
import { ChildFinder, linksFrom, linksTo, shareParentKey, type ForeignKeyLink } from "./foreign-keys.js";
import { keyOfRow, type UniqueIndex } from "./key-index.js";
import { cascade, removeDoomed, restricted, type Written } from "./mutate.js";
import type { Table } from "./table.js";
import type { Change } from "./types.js";
import { undoChanges } from "./undo.js";

/** What an upsert did: a write, and how its rows went (`replaced`: rows inserted in place of rows they conflicted with). */
export interface Upserted extends Written {
  readonly inserted: number;
  readonly updated: number;
  readonly ignored: number;
  readonly replaced: number;
}

const columnsOf = (table: Table, positions: readonly number[]): string => positions.map((p) => table.columns[p]).join(",");

export function applyUpsert(
  tables: Map<string, Table>,
  table: Table,
  plan: InsertPlan,
  rows: readonly Value[][],
  assign: AssignFn | undefined,
  params: readonly Value[],
  /** DO UPDATE … WHERE: a conflicting row it does not hold for is left alone, its proposed row ignored. */
  where?: PredicateFn,
): Upserted {
  const conflict = plan.onConflict;
  const target = conflict?.action === "replace" ? undefined : conflict?.target;
  const keys: readonly UniqueIndex[] = target === undefined ? table.uniqueKeys() : table.uniqueKeys().filter((ix) => ix.name === target);
  const asChild = linksFrom(table, tables);
  const asParent = linksTo(table, tables);
  // Rows of other tables do not move during the upsert, so their lookups may be kept; this table's own may not.
  const others = new ChildFinder();
  const changes: Change[] = [];
  const written: (readonly Value[])[] = [];
  let inserted = 0;
  let updated = 0;
  let ignored = 0;
  let replaced = 0;
  if (conflict?.action === "update") setValueRules(table, conflict.set, params);
  try {
    for (let i = 0; i < rows.length; i++) {
      const values = rows[i] as Value[];
      rowRules(table, values, i);
      if (conflict?.action === "replace") {
        const removed = clearConflicts(tables, table, values, i);
        for (const c of removed) changes.push(c);
        if (removed.length > 0) replaced++;
        else inserted++;
        keyRules(table, values, undefined, i);
        childRules(table, asChild, values, undefined, i);
        changes.push({ kind: "insert", table: table.name, row: values, position: table.append(values) });
        written.push(values);
        continue;
      }
      let holder: number | undefined;
      for (const ix of keys) {
        const k = keyOfRow(values, ix.positions);
        holder = k === undefined ? undefined : ix.get(k);
        if (holder !== undefined) break;
      }
      if (holder === undefined) {
        keyRules(table, values, undefined, i);
        childRules(table, asChild, values, undefined, i);
        changes.push({ kind: "insert", table: table.name, row: values, position: table.append(values) });
        written.push(values);
        inserted++;
      } else if (assign === undefined) {
        ignored++;
      } else {
        const before = table.values(holder);
        if (where !== undefined && !where([before, values] as never, params)) {
          ignored++;
          continue;
        }
        const after = assign([before, values], params);
        rowRules(table, after, i);
        keyRules(table, after, holder, i);
        childRules(table, asChild, after, holder, i);
        parentRules(table, asParent, holder, after, i, others);
        const position = table.replaceRow(holder, after);
        changes.push({ kind: "update", table: table.name, before, after, position: position as number });
        written.push(after);
        updated++;
      }
    }
  } catch (error) {
    undoChanges(tables, changes);
    throw error;
  }
  return { changes, rows: written, inserted, updated, ignored, replaced };
}

/**
 * Deletes the rows holding any unique key of `values`, with what their
 * deletion cascades to; a row a restricting reference keeps refuses the
 * insert (SQLite with foreign keys on treats REPLACE's delete the same).
 * Child lookups are made afresh each time: the rows they map may have moved
 * since the last replaced row.
 */
function clearConflicts(tables: Map<string, Table>, table: Table, values: readonly Value[], row: number): readonly Change[] {
  const holders = new Set<number>();
  for (const ix of table.uniqueKeys()) {
    const k = keyOfRow(values, ix.positions);
    const holder = k === undefined ? undefined : ix.get(k);
    if (holder !== undefined) holders.add(holder);
  }
  if (holders.size === 0) return [];
  const finder = new ChildFinder();
  const doomed = cascade(tables, table, [...holders], finder).rows;
  const problems = restricted(tables, doomed, finder).map((p) => ({ ...p, row, message: `Rows in "${p.table}" reference a row this insert would replace in "${table.name}"` }));
  if (problems.length > 0) throw new ConstraintError(`Insert into "${table.name}" breaks a key or reference (${problems.length} problem(s))`, problems);
  return removeDoomed(doomed);
}

/** A `set` value outside its column's type is wrong whether or not a row conflicts (as in an update that matches nothing). */
function setValueRules(table: Table, set: readonly Assignment[], params: readonly Value[]): void {
  const problems: ProblemEntry[] = [];
  for (const a of set) {
    if (a.value.kind === "const") table.valueProblems(a.position, a.value.value, undefined, problems);
    else if (a.value.kind === "param") table.valueProblems(a.position, params[a.value.index] ?? null, undefined, problems);
  }
  if (problems.length > 0) throw new ValidationError(`The conflict update of "${table.name}" breaks its schema (${problems.length} problem(s))`, problems);
}

/** Types, required columns and checks of one row. */
function rowRules(table: Table, values: readonly Value[], row: number): void {
  const problems = table.rowProblems(values, row);
  if (problems.length > 0) throw new ValidationError(`Insert into "${table.name}" breaks its schema (${problems.length} problem(s))`, problems);
}

function refuse(table: Table, problem: ProblemEntry): never {
  throw new ConstraintError(`Insert into "${table.name}" breaks a key or reference (1 problem(s))`, [problem]);
}

/** Every unique key of `values` is free, or held by `self` (the row being updated). */
function keyRules(table: Table, values: readonly Value[], self: number | undefined, row: number): void {
  for (const ix of table.uniqueKeys()) {
    const k = keyOfRow(values, ix.positions);
    if (k === undefined) continue;
    const holder = ix.get(k);
    if (holder === undefined || holder === self) continue;
    const column = columnsOf(table, ix.positions);
    const code = ix === table.pk ? "duplicate_key" : "unique";
    refuse(table, { table: table.name, row, column, code, message: `A row with this ${code === "duplicate_key" ? "primary key" : "unique key"} (${column}) exists` });
  }
}

/**
 * Each foreign key of `values` points at an existing parent: a row of the
 * parent table, or (a self-reference) the row itself. `before` is the row
 * an update replaces, which is no parent any more.
 */
function childRules(table: Table, links: readonly ForeignKeyLink[], values: Value[], before: number | undefined, row: number): void {
  for (const l of links) {
    const k = keyOfRow(values, l.childPositions);
    if (k === undefined) continue;
    if (l.parent === table && keyOfRow(values, l.parentKey.positions) === k) continue;
    const parent = l.parentKey.get(k);
    if (parent !== undefined && !(l.parent === table && parent === before)) {
      shareParentKey(l, values, parent);
      continue;
    }
    const column = columnsOf(table, l.childPositions);
    refuse(table, { table: table.name, row, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
  }
}

/** A key rows of other tables (or this one) reference may not change. */
function parentRules(table: Table, links: readonly ForeignKeyLink[], before: number, after: readonly Value[], row: number, others: ChildFinder): void {
  for (const l of links) {
    const old = table.keyOf(before, l.parentKey.positions);
    if (old === undefined || old === keyOfRow(after, l.parentKey.positions)) continue;
    const finder = l.child === table ? new ChildFinder() : others;
    if (finder.rows(l, old).every((child) => l.child === table && child === before)) continue;
    refuse(table, { table: table.name, row, column: columnsOf(table, l.parentKey.positions), code: "foreign_key", message: `Rows in "${l.child.name}" reference this key` });
  }
}
