/**
 * An error as the tool reports it on stderr.
 *
 * For people: `error: <detail> [<code>]`, then, for SQL, the statement's
 * offending line with a caret under the position the server or engine
 * reported (line and column of CONTRACT §4, UTF-16 units), then any
 * row-level problems. With `--json`: the problem details of CONTRACT §7 as
 * one line, exactly what the server would have answered.
 */

import stringWidth from "string-width";
import type { ProblemEntry, SourcePosition } from "../../errors.js";
import { StoreError } from "../../errors.js";
import { ConnectionError } from "../../client/connection-error.js";
import { renderTable } from "./table.js";

/** The line of `text` that `position` is on, with a caret under its column. */
export function markPosition(text: string, position: SourcePosition): string {
  const lines = text.split(/\r\n|\n|\r/);
  const line = lines[position.line - 1];
  if (line === undefined) return "";
  const gutter = `${position.line} | `;
  // Tabs would move the caret by a terminal-dependent amount: show them as one space.
  const shown = line.replaceAll("\t", " ");
  const before = shown.slice(0, Math.max(0, position.column - 1));
  return `${gutter}${shown}\n${" ".repeat(stringWidth(gutter) - 2)}| ${" ".repeat(stringWidth(before))}^\n`;
}

function entries(errors: readonly ProblemEntry[]): string {
  const rows = errors.map((e) => [e.table ?? null, e.row ?? null, e.column ?? null, e.code, e.message]);
  return renderTable(["table", "row", "column", "code", "message"], rows);
}

/** The report of `error` for people; `sql` is the statement that was sent, when there was one. */
export function renderError(error: unknown, sql?: string): string {
  if (error instanceof StoreError) {
    let out = `error: ${error.message} [${error.code}]\n`;
    if (error.position && sql !== undefined) out += markPosition(sql, error.position);
    if (error.expected && error.expected.length > 0) out += `expected: ${error.expected.join(", ")}\n`;
    if (error.errors && error.errors.length > 0) out += entries(error.errors);
    return out;
  }
  if (error instanceof ConnectionError) return `error: ${error.message} [${error.code}]\n`;
  return `error: ${error instanceof Error ? error.message : String(error)}\n`;
}

/** The report of `error` for scripts: one JSON line, problem details where there are any. */
export function renderErrorJson(error: unknown): string {
  if (error instanceof StoreError) return JSON.stringify(error.toProblem()) + "\n";
  if (error instanceof ConnectionError) {
    return JSON.stringify({ code: error.code, detail: error.message, ...(error.status === undefined ? {} : { status: error.status }) }) + "\n";
  }
  return JSON.stringify({ code: "error", detail: error instanceof Error ? error.message : String(error) }) + "\n";
}
