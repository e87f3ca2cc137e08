/**
 * A script's statements, fed a line at a time: what is typed into the
 * shell, a script on its stdin or on `storedb sql -`'s, or a `storedb sql`
 * argument cut into lines. Each line comes with its terminator
 * (`lines.ts`), and a statement's text is the script's exact text from its
 * first token to its last: a line break in a string stays `\r\n` or `\r`.
 *
 * The boundaries come from the SQL lexer (`scanStatements`): a statement
 * ends at a `;` outside strings, quoted names and comments, so `SELECT
 * 'a;b';` is one statement and a `;` in a comment ends nothing. A statement
 * may span lines; a string, name or comment left open at a line's end takes
 * the following lines until one closes it. Each statement keeps where it
 * stands in the script (its line, and the text before it on that line), so
 * an error the engine reports at a position in the statement is marked at
 * the right line and column of the whole script.
 *
 * Only the lines of the statement being read are kept, and a line is lexed
 * once — except while a string or comment is open, when the text from its
 * opening is lexed again only once a line holds what could close it — so a
 * long script or a long statement costs time in proportion to its length.
 */

import { LineIndex, scanStatements } from "../../lexer/index.js";
import { splitLines } from "./lines.js";

/** One statement of a script, and where it stands in it. */
export interface ScriptStatement {
  /** The statement as written (the script's exact text), from its first token to its last, without its `;`. */
  readonly text: string;
  /** The script's line on which it begins, 1-based. */
  readonly line: number;
  /** The text of that line before it. */
  readonly lead: string;
  /** Its place among the script's statements, 0-based. */
  readonly index: number;
}

/** A place in the kept lines: an index into them, and a column (0-based, UTF-16 units). */
interface Point {
  readonly line: number;
  readonly column: number;
}

/** What closes each kind of open text, by its first character. */
const CLOSERS: Readonly<Record<string, string>> = { "'": "'", '"': '"', "/": "*/" };

export class StatementBuffer {
  /** The lines from the one the pending statement begins on (all of them while none is pending, until the next line). */
  #lines: string[] = [];
  /** The script line number of `#lines[0]`. */
  #first = 1;
  /** The pending statement's first token (never a comment before it), and the end of its last token so far. */
  #start: Point | undefined;
  #end: Point = { line: 0, column: 0 };
  /** Where a string, name or comment that is not yet closed begins, and what would close it. */
  #open: Point | undefined;
  #closer = "";
  #count = 0;
  readonly #relative: boolean;

  /** `relative`: number each statement's lines from 1 (the shell on a terminal, where each entry stands alone) instead of from the script's start. */
  constructor(options: { readonly relative?: boolean } = {}) {
    this.#relative = options.relative === true;
  }

  /** True while a statement has begun and not ended, or a comment is open (what follows it continues the input, not a fresh line). */
  get pending(): boolean {
    return this.#start !== undefined || this.#open !== undefined;
  }

  /** Forgets the pending statement (Ctrl-C in the shell). */
  clear(): void {
    this.#start = undefined;
    this.#open = undefined;
  }

  /** Counts a line of the input that is no SQL (a shell's dot command, read while no statement is pending), so later lines keep their numbers. */
  skip(): void {
    if (this.pending) return;
    this.#first = this.#relative ? 1 : this.#first + this.#lines.length + 1;
    this.#lines = [];
  }

  /**
   * Adds one line, with its terminator (`\r\n`, `\n` or `\r`; none on a
   * last line), as `splitLines`/`readLines` cut them; returns the statements
   * it completed, skipping empty ones.
   */
  feed(line: string): ScriptStatement[] {
    if (!this.pending) {
      this.#first = this.#relative ? 1 : this.#first + this.#lines.length;
      this.#lines = [];
    }
    const row = this.#lines.push(line) - 1;
    let origin: Point = { line: row, column: 0 };
    let chunk = line;
    if (this.#open !== undefined) {
      if (!line.includes(this.#closer)) return [];
      origin = this.#open;
      chunk = this.#slice(origin, { line: row, column: line.length });
      this.#open = undefined;
    }
    const scan = scanStatements(chunk);
    const index = origin.line === row ? undefined : new LineIndex(chunk);
    const at = (offset: number): Point => {
      if (index === undefined) return { line: origin.line, column: origin.column + offset };
      const n = index.line(offset);
      const column = index.column(offset, n) - 1;
      return n === 1 ? { line: origin.line, column: origin.column + column } : { line: origin.line + n - 1, column };
    };
    const done: ScriptStatement[] = [];
    const last = scan.pieces.length - 1;
    scan.pieces.forEach((span, i) => {
      if (span !== undefined) {
        this.#start ??= at(span.start);
        this.#end = at(span.end);
      }
      if (i < last && this.#start !== undefined) {
        done.push(this.#statement(this.#start, this.#end));
        this.#start = undefined;
      }
    });
    if (scan.open !== undefined) {
      this.#open = at(scan.open);
      this.#closer = CLOSERS[chunk.charAt(scan.open)] ?? "";
    }
    this.#dropBefore();
    return done;
  }

  /** At the end of the input: the statement still pending, if any (a last statement needs no `;`). */
  end(): ScriptStatement | undefined {
    const start = this.#start;
    if (start === undefined) {
      this.clear();
      return undefined;
    }
    const lastLine = this.#lines.length - 1;
    const end = this.#open === undefined ? this.#end : { line: lastLine, column: (this.#lines[lastLine] ?? "").length };
    this.clear();
    const statement = this.#statement(start, end);
    return { ...statement, text: statement.text.trimEnd() };
  }

  #statement(start: Point, end: Point): ScriptStatement {
    return { text: this.#slice(start, end), line: this.#first + start.line, lead: (this.#lines[start.line] ?? "").slice(0, start.column), index: this.#count++ };
  }

  #slice(from: Point, to: Point): string {
    const lines = this.#lines;
    if (from.line === to.line) return (lines[from.line] ?? "").slice(from.column, to.column);
    return [(lines[from.line] ?? "").slice(from.column), ...lines.slice(from.line + 1, to.line), (lines[to.line] ?? "").slice(0, to.column)].join("");
  }

  /** Keeps only the lines from the pending statement's first (or an open comment's) on. */
  #dropBefore(): void {
    const start = this.#start ?? this.#open;
    if (start === undefined || start.line === 0) return;
    const n = Math.min(start.line, this.#open?.line ?? start.line);
    this.#lines = this.#lines.slice(n);
    this.#first += n;
    const shift = (p: Point): Point => ({ line: p.line - n, column: p.column });
    if (this.#start !== undefined) this.#start = shift(this.#start);
    this.#end = shift(this.#end);
    if (this.#open !== undefined) this.#open = shift(this.#open);
  }
}

/** The statements of a whole script held in memory. */
export function splitScript(text: string): ScriptStatement[] {
  const buffer = new StatementBuffer();
  const statements = splitLines(text).flatMap((line) => buffer.feed(line));
  const last = buffer.end();
  return last === undefined ? statements : [...statements, last];
}
