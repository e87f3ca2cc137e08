/**
 * The fast path of loading a table's rows from a file. One function per
 * table shape (columns, types, required columns), compiled once, turns each
 * raw JSON row object into a stored row of the table's heap and checks it
 * in the same pass: an object, no unknown key, every value a scalar of its
 * column's type, no NULL in a required column. It stops at the first row
 * that is not that clean and returns its index; the caller reports that
 * row's problems the slow, precise way and resumes after it.
 *
 * Generated rather than a loop over column names because reading `r["id"]`
 * by a constant name on objects of one shape (JSON.parse gives rows of one
 * layout one hidden class) is a monomorphic load, several times cheaper,
 * and each value goes straight into its column array (a number column
 * takes NaN for NULL), with no array built per row. No file content
 * reaches the generated source: column names go in as JSON-quoted string
 * literals and types pick one of four fixed tests.
 *
 * The generated loop sees only arrays: the heap's columns and next id come
 * in as arguments, not read from the heap. When a database closes, its
 * heaps, tables and indexes die together and V8 drops their hidden classes
 * with the optimized code and type feedback that named them; a loop that
 * read the heap went back to the interpreter on the next load (a reopen
 * after a close: 7–9 ms of this loop at 100k rows instead of 2).
 */

import type { ColumnType } from "../commands/types.js";
import { isNumericType } from "../executor/table-store.js";
import type { ColumnHeap } from "./row-heap.js";

/**
 * Appends the clean rows of `raws` from `from` on to `heap`, which must
 * have room for all of them (`reserve`); returns the index of the first
 * row that is not clean (or `raws.length`).
 */
export type RowReader = (raws: readonly unknown[], from: number, heap: ColumnHeap) => number;

const FITS: Record<ColumnType, (v: string) => string> = {
  text: (v) => `typeof ${v} === "string"`,
  integer: (v) => `Number.isSafeInteger(${v})`,
  real: (v) => `Number.isFinite(${v})`,
  boolean: (v) => `typeof ${v} === "boolean"`,
};

/** Readers by shape, so reopening a database reuses already optimized code. Bounded: shapes are few. */
const cache = new Map<string, RowReader>();
const CACHE_LIMIT = 256;

export function rowReader(columns: readonly string[], types: readonly ColumnType[], required: readonly boolean[]): RowReader {
  const shape = JSON.stringify([columns, types, required]);
  let reader = cache.get(shape);
  if (reader === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    reader = compileRowReader(columns, types, required);
    cache.set(shape, reader);
  }
  return reader;
}

/** A reader of its own, uncached: one whose optimized code no other caller shares (benchmarks compare with it). */
export function compileRowReader(columns: readonly string[], types: readonly ColumnType[], required: readonly boolean[]): RowReader {
  const stop = "{ stop = i; break rows; }";
  const values = columns.map((column, c) => {
    const v = `v${c}`;
    // A missing key is NULL. An own key counts as present; the count of
    // present keys must equal the row's key count, or it has an unknown one.
    return [
      `let ${v} = r[${JSON.stringify(column)}];`,
      `if (${v} === undefined) ${v} = null; else present++;`,
      `if (${v} === null) { ${required[c] ? stop : ""} } else if (!(${FITS[types[c] as ColumnType](v)})) ${stop}`,
    ].join("\n");
  });
  const stores = columns.map((_, c) => (isNumericType(types[c] as ColumnType) ? `c${c}[id] = v${c} === null ? NaN : v${c};` : `c${c}[id] = v${c};`));
  const body = `
    const n = raws.length;
    ${columns.map((_, c) => `const c${c} = columns[${c}];`).join(" ")}
    let stop = n;
    rows: for (let i = from; i < n; i++) {
      const r = raws[i];
      if (typeof r !== "object" || r === null || Array.isArray(r)) ${stop}
      let present = 0;
      ${values.join("\n")}
      let keys = 0;
      for (const _ in r) keys++;
      if (keys !== present) ${stop}
      ${stores.join(" ")}
      id++;
    }
    return stop;`;
  const read = new Function("raws", "from", "columns", "id", body) as (raws: readonly unknown[], from: number, columns: ColumnHeap["columns"], id: number) => number;
  return (raws, from, heap) => {
    const stop = read(raws, from, heap.columns, heap.count);
    heap.count += stop - from;
    return stop;
  };
}
