/**
 * Splits what is typed into the shell into SQL statements ended by `;`.
 *
 * A statement may span lines; it ends at a `;` that is outside a '…'
 * string, a "…" name, a `--` comment and a `/* … *\/` comment, so
 * `SELECT 'a;b';` is one statement and a `;` in a comment ends nothing.
 * The scanner keeps its state between lines (a string may hold a line
 * break). It only finds the ends: the statement text, as typed, goes to
 * the server, whose lexer is the one judge of what it means.
 */

type Mode = "code" | "single" | "double" | "line-comment" | "block-comment";

export class StatementBuffer {
  #text = "";
  #mode: Mode = "code";
  /** Whether the pending text has anything but blanks and comments. */
  #hasCode = false;

  /** True while a statement has begun and not ended. */
  get pending(): boolean {
    return this.#text.trim() !== "";
  }

  /** True while the pending text has only blanks and comments (a dot command may still start here). */
  get blank(): boolean {
    return !this.#hasCode && this.#mode !== "block-comment";
  }

  /** Forgets the pending text (Ctrl-C in the shell). */
  clear(): void {
    this.#text = "";
    this.#mode = "code";
    this.#hasCode = false;
  }

  /** Adds one line; returns the statements it completed (without their `;`), skipping empty ones. */
  feed(line: string): string[] {
    const done: string[] = [];
    const text = this.#text === "" ? line : `${this.#text}\n${line}`;
    let start = 0;
    let i = this.#text === "" ? 0 : this.#text.length + 1;
    for (; i < text.length; i++) {
      const c = text[i];
      switch (this.#mode) {
        case "code":
          if (c === ";") {
            const statement = text.slice(start, i);
            if (this.#hasCode) done.push(trimStatement(statement));
            this.#hasCode = false;
            start = i + 1;
          } else if (c === "'") this.#enter("single");
          else if (c === '"') this.#enter("double");
          else if (c === "-" && text[i + 1] === "-") {
            this.#mode = "line-comment";
            i++;
          } else if (c === "/" && text[i + 1] === "*") {
            this.#mode = "block-comment";
            i++;
          } else if (c !== undefined && !/\s/.test(c)) this.#hasCode = true;
          break;
        case "single":
        case "double": {
          // A doubled quote inside stays inside; the scanner steps over both.
          const quote = this.#mode === "single" ? "'" : '"';
          if (c === quote) {
            if (text[i + 1] === quote) i++;
            else this.#mode = "code";
          }
          break;
        }
        case "line-comment":
          if (c === "\n") this.#mode = "code";
          break;
        case "block-comment":
          if (c === "*" && text[i + 1] === "/") {
            this.#mode = "code";
            i++;
          }
          break;
      }
    }
    // A line comment ends with its line.
    if (this.#mode === "line-comment") this.#mode = "code";
    const rest = text.slice(start);
    this.#text = rest.trim() === "" && this.#mode === "code" ? "" : rest;
    if (this.#text === "") this.#hasCode = false;
    return done;
  }

  #enter(mode: "single" | "double"): void {
    this.#mode = mode;
    this.#hasCode = true;
  }
}

/** A statement without the blank lines before it, so line 1 of an error is its first line. */
function trimStatement(text: string): string {
  return text.replace(/^\s*\n/, "").trimEnd();
}
