/**
 * Aligned text tables for people: the command-line tool's default output.
 *
 * Cells are never cut: a table's job here is to show the data as it is.
 * NULL is shown as `NULL` so it cannot be mistaken for an empty string, and
 * control characters in text are shown escaped (`\n`, `\t`, …) so one row
 * stays one line. Widths are terminal columns (`string-width`: a CJK
 * character takes two), numbers are right-aligned, everything else left.
 */

import stringWidth from "string-width";
import type { Value } from "../../commands/types.js";

const CONTROL = /[\u0000-\u001f\u007f]/g;

function escapeControl(char: string): string {
  switch (char) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  }
}

/** How one value reads in a table cell. */
export function cellText(value: Value | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return value.replace(CONTROL, escapeControl);
  return String(value);
}

function pad(text: string, width: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, width - stringWidth(text)));
  return right ? fill + text : text + fill;
}

/** `header` over `rows` (arrays in header order), columns separated by ` | `, a `-+-` rule under the header. */
export function renderTable(header: readonly string[], rows: readonly (readonly (Value | undefined)[])[]): string {
  const cells = rows.map((row) => header.map((_, i) => cellText(row[i])));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === "number" || row[i] === null));
  const widths = header.map((name, i) => Math.max(stringWidth(name), ...cells.map((row) => stringWidth(row[i] ?? ""))));
  const line = (texts: readonly string[], align: boolean): string =>
    texts
      .map((text, i) => pad(text, widths[i] ?? 0, align && (numeric[i] ?? false)))
      .join(" | ")
      .trimEnd();
  const out = [line(header, false), widths.map((w) => "-".repeat(w)).join("-+-")];
  for (const row of cells) out.push(line(row, true));
  return out.join("\n") + "\n";
}
