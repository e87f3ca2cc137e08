/**
 * Offsets to line and column. Tokens carry only their offset (the lexer
 * tracks nothing more, which keeps it fast); a `LineIndex` over the source
 * text turns an offset into a 1-based line and column when a span or an error
 * needs one. Lines end at `\n`, `\r\n` or a lone `\r`; columns count UTF-16
 * code units, as JavaScript string indices do.
 */
import type { SourcePosition } from "../errors.js";

export class LineIndex {
  /** Offsets at which lines 2, 3, ... start; empty for one-line text, the common case. */
  private readonly breaks: readonly number[];

  constructor(text: string) {
    const breaks: number[] = [];
    if (text.indexOf("\n") >= 0 || text.indexOf("\r") >= 0) {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) breaks.push(i + 1);
      }
    }
    this.breaks = breaks;
  }

  /** The number of the line holding `offset`, 1-based. */
  line(offset: number): number {
    const breaks = this.breaks;
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (breaks[mid]! <= offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }

  /** The column of `offset` on line `line` (as returned by `line(offset)`), 1-based. */
  column(offset: number, line: number): number {
    return line === 1 ? offset + 1 : offset - this.breaks[line - 2]! + 1;
  }

  position(offset: number): SourcePosition {
    const line = this.line(offset);
    return { line, column: this.column(offset, line), offset };
  }
}

/** Where `offset` lies in `text`; for one-off use (errors). */
export function positionAt(text: string, offset: number): SourcePosition {
  return new LineIndex(text).position(offset);
}
