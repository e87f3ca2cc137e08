/**
 * Applies insert, update and delete plans to tables under every schema rule
 * of CONTRACT §3, all or nothing: each mutation first checks everything —
 * row rules (422 `validation_failed`: type, required, check), then keys and
 * references (409 `constraint_violation`: duplicate_key, unique,
 * foreign_key) — and only then changes rows and keys. It returns the
 * row-level `Change`s it made, in order.
 *
 * `row` in an error entry is the row's index within the command: the insert
 * row, or the n-th row the update/delete matched.
 */

import type { Value } from "../commands/types.js";
import { ConstraintError, ValidationError, type ProblemEntry } from "../errors.js";
import { matchRows, type FindUpdateRows, type PreparedMatch } from "../executor/index.js";
import type { InsertPlan, UpdatePlan } from "../planner/plan.js";
import type { Change } from "./types.js";
import { ChildFinder, linksFrom, linksTo, shareParentKey, type ForeignKeyLink } from "./foreign-keys.js";
import { keyOfRow } from "./key-index.js";
import type { Table } from "./table.js";

type Tables = ReadonlyMap<string, Table>;

function columnsOf(table: Table, positions: readonly number[]): string {
  return positions.map((p) => table.columns[p]).join(",");
}

function throwRowProblems(table: Table, what: string, problems: readonly ProblemEntry[]): void {
  if (problems.length > 0) throw new ValidationError(`${what} "${table.name}" breaks its schema (${problems.length} problem(s))`, problems);
}

function throwConstraints(table: Table, what: string, problems: readonly ProblemEntry[]): void {
  if (problems.length > 0) throw new ConstraintError(`${what} "${table.name}" breaks a key or reference (${problems.length} problem(s))`, problems);
}

/** What a write did: its changes, in order, and the rows of the named table it wrote (new values; a delete's deleted rows). */
export interface Written {
  readonly changes: Change[];
  readonly rows: readonly (readonly Value[])[];
}

/** An insert's proposed rows written out: each value as written, or the column's default. */
export function insertValues(table: Table, plan: InsertPlan, params: readonly Value[]): Value[][] {
  return plan.rows.map((row) =>
    row.map((v, i) => (v.kind === "const" ? v.value : v.kind === "param" ? (params[v.index] ?? null) : table.defaultAt(i))),
  );
}

/** An INSERT … SELECT's proposed rows: each result row's values at their columns, the column's default elsewhere. */
export function selectedValues(table: Table, positions: readonly number[], results: readonly (readonly Value[])[]): Value[][] {
  return results.map((result) => {
    const row = table.defaultRow();
    for (let i = 0; i < positions.length; i++) row[positions[i] as number] = result[i] as Value;
    return row;
  });
}

/** Inserts the proposed `rows` (full width), all or none. */
export function applyInsert(tables: Tables, table: Table, rows: readonly Value[][]): Written {
  const rowProblems: ProblemEntry[] = [];
  rows.forEach((v, i) => table.rowProblems(v, i, rowProblems));
  throwRowProblems(table, "Insert into", rowProblems);

  const problems: ProblemEntry[] = [];
  for (const ix of table.uniqueKeys()) {
    const seen = new Set<unknown>();
    const code = ix === table.pk ? "duplicate_key" : "unique";
    rows.forEach((v, i) => {
      const k = keyOfRow(v, ix.positions);
      if (k === undefined) return;
      if (ix.get(k) !== undefined || seen.has(k)) {
        const column = columnsOf(table, ix.positions);
        problems.push({ table: table.name, row: i, column, code, message: `A row with this ${code === "duplicate_key" ? "primary key" : "unique key"} (${column}) exists` });
      }
      seen.add(k);
    });
  }
  for (const l of linksFrom(table, tables)) {
    const ownKeys = l.parent === table ? new Set(rows.map((v) => keyOfRow(v, l.parentKey.positions))) : undefined;
    rows.forEach((v, i) => {
      const k = keyOfRow(v, l.childPositions);
      if (k === undefined || ownKeys?.has(k)) return;
      const parent = l.parentKey.get(k);
      if (parent !== undefined) return shareParentKey(l, v, parent);
      const column = columnsOf(table, l.childPositions);
      problems.push({ table: table.name, row: i, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
    });
  }
  throwConstraints(table, "Insert into", problems);

  const changes: Change[] = rows.map((row) => ({ kind: "insert", table: table.name, row, position: table.append(row) }));
  return { changes, rows };
}

/** Updates the rows `find` finds (a plain update's or UPDATE … FROM's: `executor/update-rows.ts`) to their new values, all or none. */
export function applyUpdate(tables: Tables, table: Table, plan: UpdatePlan, find: FindUpdateRows, params: readonly Value[]): Written {
  // A value outside its column's type is wrong whatever the where matches (CONTRACT §3: rejected, never ignored).
  const setProblems: ProblemEntry[] = [];
  for (const a of plan.set) {
    if (a.value.kind === "const") table.valueProblems(a.position, a.value.value, undefined, setProblems);
    else if (a.value.kind === "param") table.valueProblems(a.position, params[a.value.index] ?? null, undefined, setProblems);
  }
  throwRowProblems(table, "Update of", setProblems);

  // Every assignment reads the row as it was before the update, its subqueries the tables as they were.
  const { matched, afters } = find(table, params, (row) => table.orderOf(row));
  const rowProblems: ProblemEntry[] = [];
  afters.forEach((v, i) => table.rowProblems(v, i, rowProblems));
  throwRowProblems(table, "Update of", rowProblems);

  const setPositions = new Set(plan.set.map((a) => a.position));
  const touches = (positions: readonly number[]): boolean => positions.some((p) => setPositions.has(p));
  const matchedSet = new Set(matched);
  const problems: ProblemEntry[] = [];
  for (const ix of table.uniqueKeys()) {
    if (!touches(ix.positions)) continue;
    const seen = new Set<unknown>();
    const code = ix === table.pk ? "duplicate_key" : "unique";
    afters.forEach((v, i) => {
      const k = keyOfRow(v, ix.positions);
      if (k === undefined) return;
      const holder = ix.get(k);
      if (seen.has(k) || (holder !== undefined && !matchedSet.has(holder))) {
        const column = columnsOf(table, ix.positions);
        problems.push({ table: table.name, row: i, column, code, message: `A row with this ${code === "duplicate_key" ? "primary key" : "unique key"} (${column}) exists` });
      }
      seen.add(k);
    });
  }
  // As a child: changed references must point at an existing parent (after the update, for a self-reference).
  for (const l of linksFrom(table, tables)) {
    if (!touches(l.childPositions)) continue;
    const selfKeys = l.parent === table ? new Set(afters.map((v) => keyOfRow(v, l.parentKey.positions))) : undefined;
    afters.forEach((v, i) => {
      const k = keyOfRow(v, l.childPositions);
      if (k === undefined || selfKeys?.has(k)) return;
      const parent = l.parentKey.get(k);
      if (parent !== undefined && !(selfKeys && matchedSet.has(parent))) return shareParentKey(l, v, parent);
      const column = columnsOf(table, l.childPositions);
      problems.push({ table: table.name, row: i, column, code: "foreign_key", message: `No row in "${l.parent.name}" has this key (${column})` });
    });
  }
  // As a parent: a referenced key may not change while rows reference it.
  const finder = new ChildFinder();
  for (const l of linksTo(table, tables)) {
    if (!touches(l.parentKey.positions)) continue;
    matched.forEach((row, i) => {
      const before = table.keyOf(row, l.parentKey.positions);
      if (before === undefined || before === keyOfRow(afters[i] as Value[], l.parentKey.positions)) return;
      if (finder.rows(l, before).length === 0) return;
      problems.push({
        table: table.name,
        row: i,
        column: columnsOf(table, l.parentKey.positions),
        code: "foreign_key",
        message: `Rows in "${l.child.name}" reference this key`,
      });
    });
  }
  throwConstraints(table, "Update of", problems);

  // Rows are values: each matched row is replaced by a new one, never written into.
  const befores = matched.map((row) => table.values(row));
  const positions = table.replaceRows(matched.map((row, i) => [row, afters[i] as Value[]] as const));
  const changes: Change[] = matched.map((_, i) => ({
    kind: "update",
    table: table.name,
    before: befores[i] as Value[],
    after: afters[i] as Value[],
    position: positions[i] as number,
  }));
  return { changes, rows: afters };
}

export function applyDelete(tables: Tables, table: Table, match: PreparedMatch, params: readonly Value[]): Written {
  const matched = matchRows(match, table, params);
  const finder = new ChildFinder();
  const { rows: doomed, own } = cascade(tables, table, matched, finder);
  throwConstraints(table, "Delete from", restricted(tables, doomed, finder));
  const deleted = own.map((row) => table.values(row));
  return { changes: removeDoomed(doomed), rows: deleted };
}

/** What a delete takes. */
export interface Doomed {
  /** The rows it removes, by table: those asked for, and the rows `on_delete: cascade` links reach from them. */
  readonly rows: Map<Table, Set<number>>;
  /**
   * The rows asked for that it deletes itself, in order: not one an earlier
   * row's cascade took first. SQLite deletes the matched rows one by one
   * and skips a row already gone, neither counting nor returning it.
   */
  readonly own: readonly number[];
}

/** The delete of `rows` from `table`, in their order, with its cascades. */
export function cascade(tables: Tables, table: Table, rows: readonly number[], finder: ChildFinder): Doomed {
  const links = cascadeLinks(tables);
  const taken = new Set<number>();
  const doomed = new Map<Table, Set<number>>([[table, taken]]);
  if (!returnsTo(links, table)) {
    // No cascade comes back to the table: every row asked for is its own delete, and one walk takes them all.
    for (const row of rows) taken.add(row);
    spread(doomed, links, table, rows, finder);
    return { rows: doomed, own: rows };
  }
  const own: number[] = [];
  for (const row of rows) {
    if (taken.has(row)) continue;
    taken.add(row);
    own.push(row);
    spread(doomed, links, table, [row], finder);
  }
  return { rows: doomed, own };
}

/** The `on_delete: cascade` links, by parent table (made once per delete: `ChildFinder` keeps its maps by link). */
function cascadeLinks(tables: Tables): Map<Table, ForeignKeyLink[]> {
  const byParent = new Map<Table, ForeignKeyLink[]>();
  for (const child of tables.values()) {
    for (const l of linksFrom(child, tables)) {
      if (l.onDelete !== "cascade") continue;
      const list = byParent.get(l.parent);
      if (list) list.push(l);
      else byParent.set(l.parent, [l]);
    }
  }
  return byParent;
}

/** Whether a cascade from `table` can reach `table` again (a self-reference, or a cycle through other tables). */
function returnsTo(links: ReadonlyMap<Table, readonly ForeignKeyLink[]>, table: Table): boolean {
  const seen = new Set<Table>();
  const stack = [table];
  for (let t = stack.pop(); t !== undefined; t = stack.pop()) {
    for (const l of links.get(t) ?? []) {
      if (l.child === table) return true;
      if (!seen.has(l.child)) {
        seen.add(l.child);
        stack.push(l.child);
      }
    }
  }
  return false;
}

/** Adds to `doomed` the rows the cascade links reach from `rows` of `table` (already in it). */
function spread(doomed: Map<Table, Set<number>>, links: ReadonlyMap<Table, readonly ForeignKeyLink[]>, table: Table, rows: readonly number[], finder: ChildFinder): void {
  let frontier: [Table, readonly number[]][] = [[table, rows]];
  while (frontier.length > 0) {
    const next: [Table, number[]][] = [];
    for (const [parent, parentRows] of frontier) {
      for (const l of links.get(parent) ?? []) {
        let set = doomed.get(l.child);
        if (!set) doomed.set(l.child, (set = new Set()));
        const added: number[] = [];
        for (const row of parentRows) {
          for (const child of finder.rows(l, parent.keyOf(row, l.parentKey.positions))) {
            if (!set.has(child)) {
              set.add(child);
              added.push(child);
            }
          }
        }
        if (added.length > 0) next.push([l.child, added]);
      }
    }
    frontier = next;
  }
}

/** Restrict: a surviving row that references a doomed one is a problem (`row`: the doomed row's index within its table's set). */
export function restricted(tables: Tables, doomed: ReadonlyMap<Table, ReadonlySet<number>>, finder: ChildFinder): ProblemEntry[] {
  const problems: ProblemEntry[] = [];
  for (const [parent, rows] of doomed) {
    for (const l of linksTo(parent, tables)) {
      if (l.onDelete !== "restrict") continue;
      const childDoomed = doomed.get(l.child);
      let i = 0;
      for (const row of rows) {
        const referencing = finder.rows(l, parent.keyOf(row, l.parentKey.positions));
        if (referencing.some((c) => !childDoomed?.has(c))) {
          problems.push({
            table: l.child.name,
            row: i,
            column: columnsOf(l.child, l.childPositions),
            code: "foreign_key",
            message: `Rows in "${l.child.name}" reference a row being deleted from "${parent.name}"`,
          });
        }
        i++;
      }
    }
  }
  return problems;
}

/** Removes the doomed rows, table by table, and returns their changes. */
export function removeDoomed(doomed: ReadonlyMap<Table, ReadonlySet<number>>): Change[] {
  const changes: Change[] = [];
  for (const [t, set] of doomed) {
    if (set.size === 0) continue;
    const ordered = [...set].sort((a, b) => t.orderOf(a) - t.orderOf(b));
    const values = ordered.map((row) => t.values(row));
    const positions = t.removeRows(set);
    // Positions as if rows were deleted one after another, in table order (so undo in reverse restores them).
    values.forEach((row, j) => changes.push({ kind: "delete", table: t.name, row, position: (positions[j] as number) - j }));
  }
  return changes;
}
