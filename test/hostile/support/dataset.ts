/**
 * The fixed table the query properties run against: every column type, NULLs
 * in every nullable column, and the values where comparisons go wrong —
 * integer limits, -0 and tiny reals, equal numbers of both numeric types,
 * strings that sort differently by UTF-16 unit than by code point, NFC and
 * NFD spellings, quotes and SQL wildcard characters.
 *
 * One computed field (`big`) rides along, so filters, orderings and `*` over
 * computed fields are checked too.
 *
 * Fixed (not generated) so a kept failing case replays against the same rows.
 */
import type { Expression, Value } from "../../../src/commands/types.js";
import { evaluate, qualify, type ReferenceTable } from "./reference.js";

export type ColumnType = "integer" | "real" | "text" | "boolean";

export const TABLE = "t";

export const COLUMNS: Readonly<Record<string, ColumnType>> = { id: "integer", n: "integer", r: "real", s: "text", b: "boolean" };

export const COLUMN_NAMES = Object.keys(COLUMNS);

/** A computed field (§3): evaluated on read, selectable, filterable, orderable, never written. */
export const COMPUTED: Readonly<Record<string, Expression>> = {
  big: { type: "comparison", op: ">=", left: { type: "identifier", name: "n" }, right: { type: "literal", value: 10 } },
};

export const SCHEMA = { name: TABLE, columns: COLUMNS, primary_key: { columns: ["id"] }, required: ["id"], computed: COMPUTED };

/** What `*` yields: the declared columns, then the computed fields. */
export const OUTPUT_COLUMNS = [...COLUMN_NAMES, ...Object.keys(COMPUTED)];

/** Every name a query may use, with its type (computed fields are boolean here). */
export const OUTPUT_TYPES: Readonly<Record<string, ColumnType>> = { ...COLUMNS, ...Object.fromEntries(Object.keys(COMPUTED).map((c) => [c, "boolean" as const])) };

export type Row = Readonly<Record<string, Value>>;

const MAX = Number.MAX_SAFE_INTEGER;

/** [n, r, s, b] per row; ids are 1..N in insertion order. */
const VALUES: readonly (readonly [number | null, number | null, string | null, boolean | null])[] = [
  [0, 0, "", false],
  [1, 1, "a", true],
  [-1, -1.5, "A", null],
  [2, 2.5, "b", false],
  [null, null, null, null],
  [MAX, 1e300, "\uffff", true],
  [-MAX, -1e300, "\u{1F600}", false],
  [10, 10, "it's", true],
  [10, 9.999999, "%_", null],
  [3, 1e-300, "caf\u00e9", true],
  [3, -1e-300, "cafe\u0301", false],
  [null, 0.5, "null", true],
  [7, null, "\\", null],
  [-7, 7, "a b", false],
  [100, 100, "Z", true],
  [42, 42.000001, "zz", false],
  [5, 5, "\u00e9", null],
  [-100, -0.25, "\u{10000}", true],
  [8, 8, null, false],
  [9, 3.14159, "\t", true],
];

export const ROWS: readonly Row[] = VALUES.map(([n, r, s, b], i) => ({ id: i + 1, n, r, s, b }));

/** A stored row (declared columns; missing ones NULL) as a select sees it: plus its computed fields. */
export function withComputed(row: Row): Row {
  const declared = Object.fromEntries(COLUMN_NAMES.map((c) => [c, Object.prototype.hasOwnProperty.call(row, c) ? (row[c] ?? null) : null]));
  const scope = [{ name: TABLE, columns: COLUMNS }];
  return { ...declared, ...Object.fromEntries(Object.entries(COMPUTED).map(([name, expr]) => [name, evaluate(expr, qualify(declared, TABLE), scope)])) };
}

/** The rows as `select *` returns them. */
export const FULL_ROWS: readonly Row[] = ROWS.map(withComputed);

/** A second table to join: `t_id` points at `t.id` (some twice, one nowhere, one NULL); `id` clashes with `t.id`. */
export const JOIN_TABLE = "u";
export const JOIN_COLUMNS: Readonly<Record<string, ColumnType>> = { id: "integer", t_id: "integer", tag: "text" };
export const JOIN_SCHEMA = { name: JOIN_TABLE, columns: JOIN_COLUMNS, primary_key: { columns: ["id"] } };
export const JOIN_ROWS: readonly Row[] = [
  { id: 1, t_id: 1, tag: "x" },
  { id: 2, t_id: 1, tag: "y" },
  { id: 3, t_id: 3, tag: null },
  { id: 4, t_id: null, tag: "z" },
  { id: 5, t_id: 99, tag: "x" },
  { id: 6, t_id: 8, tag: "a" },
  { id: 7, t_id: 3, tag: "b" },
  { id: 8, t_id: 10, tag: "\u{1F600}" },
];

/** The tables as the reference sees them. */
export const BASE: ReferenceTable = { name: TABLE, columns: OUTPUT_TYPES, rows: FULL_ROWS };
export const TABLES: Readonly<Record<string, ReferenceTable>> = { [TABLE]: BASE, [JOIN_TABLE]: { name: JOIN_TABLE, columns: JOIN_COLUMNS, rows: JOIN_ROWS } };

/** Literals a generator draws from: the stored values plus near misses. */
export const INTEGER_POOL: readonly number[] = [0, 1, -1, 2, 3, 5, 7, 10, 42, 100, -100, MAX, -MAX, 11, 6];
export const REAL_POOL: readonly number[] = [0, 0.5, -0.25, 1, 2.5, 9.999999, 10, 1e300, -1e300, 1e-300, 3.14159, 42.000001, 4.5];
export const TEXT_POOL: readonly string[] = [
  ...new Set([...ROWS.map((row) => row.s).filter((s): s is string => typeof s === "string"), "b", "aa", "\ufffe", "\u{1F601}", "cafe", "NULL", "'", "\"", "a\u0000b"]),
];
