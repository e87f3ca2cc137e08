/**
 * The rows of one table as `.store` lines: one JSON object per row, keys in
 * column order, rows joined by ",\n".
 *
 * A whole-file rewrite after a one-row change must not re-serialize every
 * row, so each writer remembers the rows it last wrote and their lines. The
 * engine never writes a stored row again (an update stores a new row under
 * a new id), so the very id of the same heap remembered at about the same
 * position has the same line: only rows not seen before are serialized, and
 * the memo holds the ids, no copies of values.
 *
 * Rows to serialize become object literals with keys in column order (built
 * from the heap's columns by a function compiled once per shape, so all
 * share one hidden class; a number column's NaN is NULL).
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

import type { ColumnHeap } from "../catalog/row-heap.js";
import type { StoredRows } from "../catalog/types.js";
import type { Column } from "../executor/table-store.js";

/** Below this share of changed rows, rows are stringified one call each. */
const BULK_SHARE = 0.25;
/** How many deleted rows in a row a rewrite steps over without re-serializing what follows. */
const LOOK_AHEAD = 8;

type ToObject = (k: readonly Column[], r: number) => object;

/**
 * Rows `start` to `end` of `lines`, to be joined by ",\n". Handed out
 * instead of that joined text: a checkpoint writes the remembered lines into
 * its buffers one by one. Joining them made ~9 MB of strings per checkpoint
 * of 100k rows, twice that once a separator was prepended and the result
 * flattened to be written; without them, 20 checkpoints of 100k rows back
 * to back ran 4 scavenges instead of 35, in 190–240 ms each instead of
 * 255–270.
 */
export interface LineRun {
  readonly lines: readonly string[];
  readonly start: number;
  readonly end: number;
}

/** A piece's text: itself, or a run's lines joined. */
export function pieceText(piece: string | LineRun): string {
  return typeof piece === "string" ? piece : piece.lines.slice(piece.start, piece.end).join(",\n");
}

export class RowLines {
  private toObject: ToObject | undefined;
  private heap: ColumnHeap | undefined;
  private rows: number[] = [];
  private lines: string[] = [];

  /** `remember`: false for a writer whose write is its last (see the header). */
  constructor(
    private readonly columns: readonly string[],
    private readonly remember = true,
  ) {}

  /** The row object of a heap's row id, keys in column order. */
  private compile(heap: ColumnHeap): ToObject {
    // Column names are JSON-quoted into the source, so no name can inject code.
    const members = this.columns.map((column, i) => `${JSON.stringify(column)}: ${heap.numeric[i] ? `(x = k[${i}][r]) === x ? x : null` : `k[${i}][r]`}`).join(", ");
    return new Function("k", "r", `let x; return { ${members} };`) as ToObject;
  }

  /** The rows' lines joined by ",\n" (empty for no rows). */
  text(table: StoredRows): string {
    return [...this.pieces(table, table.rows.length)].map(pieceText).join(",\n");
  }

  /**
   * The same text in pieces of `size` rows each (joined by ",\n" they are
   * `text`), so a writer can stop between pieces; the memo moves to these
   * rows once the last piece is taken. Rows of another heap than the last
   * write's are all new. A remembering writer hands out runs of its lines,
   * a last write the text itself.
   */
  *pieces(table: StoredRows, size: number): Generator<string | LineRun> {
    const { heap, rows } = table;
    const same = heap === this.heap;
    if (this.toObject === undefined || !same) this.toObject = this.compile(heap);
    const toObject = this.toObject;
    if (!this.remember) {
      yield* afresh(heap, rows, size, toObject);
      return;
    }
    const before = same ? this.rows : [];
    const memo = same ? this.lines : [];
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
        const match = find(before, row, j);
        if (match !== -1) {
          lines[i] = memo[match]!;
          j = match + 1;
          continue;
        }
        changed.push(i);
        // An update replaces the remembered row; an insertion leaves it for the next row.
        const next = rows[i + 1];
        if (!(next !== undefined && j < before.length && before[j] === next)) j++;
      }
      if (changed.length > (end - start) * BULK_SHARE) bulk(heap, rows, changed, lines, toObject);
      else for (const i of changed) lines[i] = JSON.stringify(toObject(heap.columns, rows[i]!));
      yield { lines, start, end };
    }
    this.heap = heap;
    this.rows = rows.slice();
    this.lines = lines;
  }
}

/** Every row serialized, `size` rows a piece, nothing remembered. */
function* afresh(heap: ColumnHeap, rows: readonly number[], size: number, toObject: ToObject): Generator<string> {
  const step = Math.max(1, size);
  for (let start = 0; start < rows.length; start += step) {
    const end = Math.min(start + step, rows.length);
    const objects = new Array<object>(end - start);
    for (let i = start; i < end; i++) objects[i - start] = toObject(heap.columns, rows[i]!);
    const inner = JSON.stringify(objects).slice(1, -1);
    const split = inner.replaceAll("},{", "},\n{");
    yield split.length === inner.length + objects.length - 1 ? split : objects.map((o) => JSON.stringify(o)).join(",\n");
  }
}

/** The remembered position in `before`, from `from` up to LOOK_AHEAD further, of `row` itself; -1 if none. */
function find(before: readonly number[], row: number, from: number): number {
  const end = Math.min(from + LOOK_AHEAD + 1, before.length);
  for (let j = from; j < end; j++) if (before[j] === row) return j;
  return -1;
}

function bulk(heap: ColumnHeap, rows: readonly number[], changed: readonly number[], lines: string[], toObject: ToObject): void {
  const objects = changed.map((i) => toObject(heap.columns, rows[i]!));
  const inner = JSON.stringify(objects).slice(1, -1);
  const split = inner.replaceAll("},{", "},\n{");
  const fresh = split.length === inner.length + objects.length - 1 ? split.split(",\n") : objects.map((o) => JSON.stringify(o));
  changed.forEach((row, k) => (lines[row] = fresh[k]!));
}
