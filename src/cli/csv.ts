/**
 * The CSV dialect of the tool, in one place (papaparse writes it; import
 * reads it with `transfer/csv-reader.ts`).
 *
 * RFC 4180: comma-separated, `"` quotes a field holding a comma, a quote, a
 * line break or an edge space, `""` escapes a quote inside one, lines end in
 * `\n` (`\r\n` is read too), the first line is the header. NULL is an empty
 * field. On export an empty string is written `""`, so a tool that tells the
 * two apart (PostgreSQL's COPY) reads it back as an empty string; import
 * reads both as NULL (as DuckDB's reader does by default). JSON Lines keeps
 * every value exactly.
 */

import Papa from "papaparse";
import type { Value } from "../commands/types.js";

const WRITE = { newline: "\n", quotes: (value: unknown) => value === "", header: false } as const;

/** `rows` (arrays in column order) as CSV lines, each ending in `\n`; nothing for no rows. */
export function csvLines(rows: readonly (readonly Value[])[]): string {
  if (rows.length === 0) return "";
  return Papa.unparse(rows as Value[][], WRITE) + "\n";
}

/** A header line and then `rows`. */
export function csvText(columns: readonly string[], rows: readonly (readonly Value[])[]): string {
  return csvLines([columns]) + csvLines(rows);
}
