/**
 * A script cut into lines, each line with its own terminator (`\r\n`, `\n`
 * or a lone `\r` — where the lexer's `LineIndex` counts a new line), so that
 * the lines joined again are the script's exact text: a line break inside a
 * string or a quoted name reaches the engine as written. readline drops the
 * terminators (and so cannot tell `\r\n` from `\n` inside a string), hence a
 * reader of its own for stdin.
 */

/** A line's end; a `\r` at the very end of what has been read may be the first half of `\r\n`, so it waits for more. */
const LINE_END = /\r\n|\n|\r(?!$)/g;

/** The lines of a whole text, each with its terminator (the last one without, when the text does not end with one). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (const match of text.matchAll(/\r\n|\n|\r/g)) {
    const to = match.index + match[0].length;
    lines.push(text.slice(from, to));
    from = to;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/** The lines of a stream of text as they arrive, each with its terminator; only the line being read is held. */
export async function* readLines(input: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of input) {
    // Only the new text can hold a line end (and a `\r` held back before it).
    let scan = Math.max(0, rest.length - 1);
    rest += chunk;
    let from = 0;
    for (;;) {
      LINE_END.lastIndex = scan;
      const match = LINE_END.exec(rest);
      if (match === null) break;
      const to = match.index + match[0].length;
      yield rest.slice(from, to);
      from = scan = to;
    }
    rest = rest.slice(from);
  }
  if (rest !== "") yield rest;
}

/** A line without its terminator. */
export function bare(line: string): string {
  return line.replace(/(?:\r\n|\n|\r)$/, "");
}

/** stdin as text (UTF-8, a character never split between chunks). */
export function stdinText(): AsyncIterable<string> {
  process.stdin.setEncoding("utf8");
  return process.stdin;
}
