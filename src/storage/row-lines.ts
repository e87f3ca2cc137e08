/**
 * The rows of one table as `.store` lines: one JSON object per row, keys in
 * column order, rows joined by ",\n".
 *
 * A whole-file rewrite after a one-row change must not re-serialize every
 * row, so each writer remembers the rows it last wrote and their lines. The
 * engine never writes a stored row again (an update stores a new array), so
 * the very array remembered at about the same position has the same line:
 * only rows not seen before are serialized, and the memo holds the engine's
 * arrays themselves, no copies.
 *
 * Rows to serialize become object literals with keys in column order (built
 * by a function compiled once per shape, so all share one hidden class).
 * Many at once go through ONE native JSON.stringify call, about three times
 * cheaper than a call per row, then are split onto lines by turning each
 * `},{` into `},\n{`: a text value could hold `},{` too, but every row
 * boundary is such a match and each replacement adds one character, so the
 * split is exact when the text grew by rows - 1 characters (else the rows go
 * one call each). A line never holds a raw newline, so ",\n" splits lines.
 *
 * A writer's last write (the checkpoint that closes a database) remembers
 * nothing: no write follows that could reuse a line, so each piece's text is
 * that one call's output as it is, never split into lines, and no line is
 * kept. At a million fresh rows, keeping them cost more than serializing.
 */

import type { Row } from "../catalog/types.js";

/** Below this share of changed rows, rows are stringified one call each. */
const BULK_SHARE = 0.25;
/** How many deleted rows in a row a rewrite steps over without re-serializing what follows. */
const LOOK_AHEAD = 8;

export class RowLines {
  private readonly toObject: (row: Row) => object;
  private rows: Row[] = [];
  private lines: string[] = [];

  /** `remember`: false for a writer whose write is its last (see the header). */
  constructor(
    columns: readonly string[],
    private readonly remember = true,
  ) {
    // Column names are JSON-quoted into the source, so no name can inject code.
    const members = columns.map((column, i) => `${JSON.stringify(column)}: r[${i}] ?? null`).join(", ");
    this.toObject = new Function("r", `return { ${members} };`) as (row: Row) => object;
  }

  /** The rows' lines joined by ",\n" (empty for no rows). */
  text(rows: readonly Row[]): string {
    return [...this.pieces(rows, rows.length)].join(",\n");
  }

  /**
   * The same text in pieces of `size` rows each (joined by ",\n" they are
   * `text`), so a writer can stop between pieces; the memo moves to these
   * rows once the last piece is taken.
   */
  *pieces(rows: readonly Row[], size: number): Generator<string> {
    if (!this.remember) {
      yield* this.afresh(rows, size);
      return;
    }
    const before = this.rows;
    const lines = new Array<string>(rows.length);
    // Walk the remembered rows alongside: rows deleted in between are skipped
    // by a short look-ahead, a changed or inserted row takes a fresh line.
    let j = 0;
    const step = Math.max(1, size);
    for (let start = 0; start < rows.length; start += step) {
      const end = Math.min(start + step, rows.length);
      const changed: number[] = [];
      for (let i = start; i < end; i++) {
        const row = rows[i]!;
        const match = this.find(row, j);
        if (match !== -1) {
          lines[i] = this.lines[match]!;
          j = match + 1;
          continue;
        }
        changed.push(i);
        // An update replaces the remembered row; an insertion leaves it for the next row.
        const next = rows[i + 1];
        if (!(next !== undefined && j < before.length && before[j] === next)) j++;
      }
      if (changed.length > (end - start) * BULK_SHARE) this.bulk(rows, changed, lines);
      else for (const i of changed) lines[i] = JSON.stringify(this.toObject(rows[i]!));
      yield lines.slice(start, end).join(",\n");
    }
    this.rows = rows.slice();
    this.lines = lines;
  }

  /** Every row serialized, `size` rows a piece, nothing remembered. */
  private *afresh(rows: readonly Row[], size: number): Generator<string> {
    const step = Math.max(1, size);
    for (let start = 0; start < rows.length; start += step) {
      const end = Math.min(start + step, rows.length);
      const objects = new Array<object>(end - start);
      for (let i = start; i < end; i++) objects[i - start] = this.toObject(rows[i]!);
      const inner = JSON.stringify(objects).slice(1, -1);
      const split = inner.replaceAll("},{", "},\n{");
      yield split.length === inner.length + objects.length - 1 ? split : objects.map((o) => JSON.stringify(o)).join(",\n");
    }
  }

  /** The remembered position, from `from` up to LOOK_AHEAD further, of `row` itself; -1 if none. */
  private find(row: Row, from: number): number {
    const end = Math.min(from + LOOK_AHEAD + 1, this.rows.length);
    for (let j = from; j < end; j++) if (this.rows[j] === row) return j;
    return -1;
  }

  private bulk(rows: readonly Row[], changed: readonly number[], lines: string[]): void {
    const objects = changed.map((i) => this.toObject(rows[i]!));
    const inner = JSON.stringify(objects).slice(1, -1);
    const split = inner.replaceAll("},{", "},\n{");
    const fresh = split.length === inner.length + objects.length - 1 ? split.split(",\n") : objects.map((o) => JSON.stringify(o));
    changed.forEach((row, k) => (lines[row] = fresh[k]!));
  }
}
