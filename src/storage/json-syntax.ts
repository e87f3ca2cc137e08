/**
 * Locates the first JSON syntax error in a text, for people: "line 3,
 * column 14: expected ',' or '}'". V8's JSON.parse does not always say where
 * it failed ("Unexpected token ... is not valid JSON"), so when it throws the
 * reader rescans the text with this small grammar checker. It runs only on
 * the failure path, iteratively (an explicit stack: deep nesting cannot
 * overflow it), and stops at the first error.
 */

export interface SyntaxProblem {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

class Failure {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** The first syntax error in `text`, or `null` when it is valid JSON. */
export function findSyntaxError(text: string): SyntaxProblem | null {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const found = (): string => (i >= text.length ? "the end of the file" : JSON.stringify(text[i]));
  const fail = (expected: string): never => {
    throw new Failure(i, `expected ${expected} but found ${found()}`);
  };
  /** A string starting at `i` (a loop, not a regex: a regex overflows its stack on a long string). */
  const string = (): void => {
    for (i++; ; ) {
      if (i >= text.length) fail("a closing '\"'");
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail("an escaped control character");
      if (c !== 0x5c) {
        i++;
        continue;
      }
      const escape = text[i + 1] ?? "";
      if (escape === "u" && HEX4.test(text.slice(i + 2, i + 6))) i += 6;
      else if (ESCAPES.has(escape)) i += 2;
      else fail("a valid escape");
    }
  };
  const value = (): "object" | "array" | "scalar" => {
    skip();
    const c = text[i];
    if (c === "{") return (i++, "object");
    if (c === "[") return (i++, "array");
    if (c === '"') return (string(), "scalar");
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) return ((i += word.length), "scalar");
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return ((i = NUMBER.lastIndex), "scalar");
    return fail("a value");
  };
  /** Open containers; `first` is true until a member has been read. */
  const stack: { kind: "object" | "array"; first: boolean }[] = [];
  try {
    let kind = value();
    for (;;) {
      if (kind !== "scalar") stack.push({ kind, first: true });
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      skip();
      const close = top.kind === "object" ? "}" : "]";
      if (text[i] === close) {
        i++;
        stack.pop();
        kind = "scalar";
        continue;
      }
      if (!top.first) {
        if (text[i] !== ",") fail(`',' or '${close}'`);
        i++;
        skip();
      }
      top.first = false;
      if (top.kind === "object") {
        if (text[i] !== '"') fail("a property name in double quotes");
        string();
        skip();
        if (text[i] !== ":") fail("':'");
        i++;
      }
      kind = value();
    }
    skip();
    if (i < text.length) fail("the end of the file");
    return null;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    let line = 1;
    let lineStart = 0;
    for (let n = text.indexOf("\n"); n !== -1 && n < error.offset; n = text.indexOf("\n", n + 1)) {
      line += 1;
      lineStart = n + 1;
    }
    return { line, column: error.offset - lineStart + 1, reason: error.reason };
  }
}
