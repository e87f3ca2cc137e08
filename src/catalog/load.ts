/**
 * Builds tables from a file's raw JSON without ever throwing on bad data:
 * every problem — a schema of the wrong shape or meaning (`format`), a row
 * that is no object (`format`), an unknown key (`unknown_column`), a value
 * that is no JSON scalar (`type`) — is recorded, and the rows that can be
 * represented are kept so `checkTables` can report the rest (types,
 * required, keys, references, checks). A missing key is NULL.
 *
 * Rows go through the table's compiled `rowReader`, which builds and checks
 * clean rows in one pass; only a row it stops at takes the slow path here.
 * What the load established (all values checked, the rows each unique key
 * could not index) is handed to `checkTables` so it is not checked twice.
 */

import type { TableSchema, Value } from "../commands/types.js";
import { StoreError, type ProblemEntry } from "../errors.js";
import { checkSchema } from "../planner/bind-create.js";
import { checkTables, type LoadFacts } from "./check-state.js";
import { linksFrom, shareStoredKey } from "./foreign-keys.js";
import { rowReader } from "./read-rows.js";
import { schemaShapeProblem } from "./schema-shape.js";
import { Table } from "./table.js";
import type { LoadedTable, LoadOptions } from "./types.js";

const isScalar = (v: unknown): v is Value =>
  v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

export function loadTables(loaded: readonly LoadedTable[], options: LoadOptions = {}): { tables: Map<string, Table>; problems: ProblemEntry[] } {
  const problems: ProblemEntry[] = [];
  const shapes = new Map<string, TableSchema>();
  for (const lt of loaded) {
    const shape = schemaShapeProblem(lt.schema);
    if (shape !== undefined) problems.push({ table: lt.name, code: "format", message: shape });
    else if ((lt.schema as TableSchema).name !== lt.name) problems.push({ table: lt.name, code: "format", message: "schema.name differs from the table's name" });
    else if (shapes.has(lt.name)) problems.push({ table: lt.name, code: "format", message: "The table appears twice" });
    else shapes.set(lt.name, lt.schema as TableSchema);
  }
  const tables = new Map<string, Table>();
  for (const [name, schema] of shapes) {
    try {
      tables.set(name, new Table(checkSchema(schema, (other) => shapes.get(other))));
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      problems.push({ table: name, code: "format", message: err.message });
    }
  }
  const facts = new Map<Table, LoadFacts>();
  for (const lt of loaded) {
    const table = tables.get(lt.name);
    if (!table || !shapes.has(lt.name)) continue;
    if (!Array.isArray(lt.rows)) {
      problems.push({ table: table.name, code: "format", message: "rows must be an array" });
      continue;
    }
    const read = rowReader(table.columns, table.types, table.required);
    let valuesChecked = facts.get(table)?.valuesChecked ?? true; // false once any part of a table listed twice was not clean
    const heap = table.heap;
    const first = heap.count;
    const spare = options.growing === true ? spareRows(lt.rows.length) : 0;
    heap.reserve(lt.rows.length + spare);
    for (let i = read(lt.rows, 0, heap); i < lt.rows.length; i = read(lt.rows, i + 1, heap)) {
      valuesChecked = false;
      readRow(table, lt.rows[i], i, problems);
    }
    // The rows read are the ids from `first` on, in the file's order.
    const ids = idRange(first, heap.count - first, spare);
    table.rows = table.rows.length === 0 ? ids : table.rows.concat(ids);
    facts.set(table, { valuesChecked, duplicates: [] });
  }
  indexTables(tables, facts);
  // Not push(...all): a badly broken large file has more problems than a call takes arguments.
  for (const problem of checkTables(tables, facts)) problems.push(problem);
  return { tables, problems };
}

/**
 * Room a loaded table keeps, when rows are added right away, for rows
 * beyond those it read: what its first growth would add (`ColumnHeap`'s
 * step). Growing a loaded table copies every column and its row list into
 * memory touched for the first time, ~20 ms at 100k rows on this project's
 * machine; a journal's replay paid it at its first insert. Not kept by
 * every load: at 100k rows the room cost an open ~5 ms more, for a growth
 * that a later insert pays only once.
 */
function spareRows(rows: number): number {
  return (rows >> 1) + 64;
}

/**
 * The ids `first` … `first + count - 1`, with room for `spare` more: the
 * array is made with the room and then shortened (V8 keeps a backing store
 * shortened by less than half, filling the tail with holes), so the table's
 * first appends do not copy it. A function of numbers alone, so its
 * optimized loop outlives the tables it filled (see `read-rows.ts`).
 */
function idRange(first: number, count: number, spare: number): number[] {
  const ids = new Array<number>(count + spare);
  for (let k = 0; k < count; k++) ids[k] = first + k;
  ids.length = count;
  return ids;
}

/**
 * Builds the indexes of every table whose rows were read, parents before
 * children, each once: a child's rows first take their parents' key strings
 * (`shareStoredKey`), so rows and indexes share those strings instead of
 * holding copies. Tables left in a cycle of references (a self-reference
 * included), and their children, are built once so every parent has keys,
 * then share and are built again.
 */
function indexTables(tables: ReadonlyMap<string, Table>, facts: Map<Table, LoadFacts>): void {
  const links = new Map([...tables.values()].map((t) => [t, linksFrom(t, tables)] as const));
  const built = new Set<Table>();
  const build = (table: Table): void => {
    const known = facts.get(table);
    if (known) facts.set(table, { ...known, duplicates: table.rebuild() });
    built.add(table);
  };
  const share = (table: Table): void => {
    for (const l of links.get(table) ?? []) {
      for (const id of table.rows) {
        const parent = l.parentKey.get(table.keyOf(id, l.childPositions));
        if (parent !== undefined) shareStoredKey(l, id, parent);
      }
    }
  };
  let waiting = [...tables.values()];
  while (waiting.length > 0) {
    const ready = waiting.filter((t) => (links.get(t) ?? []).every((l) => built.has(l.parent)));
    if (ready.length === 0) {
      for (const t of waiting) build(t);
      for (const t of waiting) {
        share(t);
        build(t);
      }
      return;
    }
    for (const t of ready) {
      share(t);
      build(t);
    }
    waiting = waiting.filter((t) => !built.has(t));
  }
}

/** The slow path for one row the reader stopped at: its load problems, and the row itself (stored next) if it is an object. */
function readRow(table: Table, raw: unknown, row: number, problems: ProblemEntry[]): void {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push({ table: table.name, row, code: "format", message: "A row must be an object" });
    return;
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!table.position.has(key)) problems.push({ table: table.name, row, column: key, code: "unknown_column", message: `Unknown column "${key}"` });
  }
  const values = table.columns.map((column) => {
    const v = Object.hasOwn(record, column) ? record[column] : null;
    if (isScalar(v)) return v;
    problems.push({ table: table.name, row, column, code: "type", message: `"${column}" must be a JSON scalar` });
    return null;
  });
  table.heap.append(values);
}
