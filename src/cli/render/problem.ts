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

/**
 * The SQL an error is about: a statement as sent, or one statement of a
 * script and where it stands there (its first line's number in the script,
 * and the text before it on that line), so that a position in the
 * statement is marked where it is in the script.
 */
export type SqlSource = string | { readonly text: string; readonly line: number; readonly lead: string; readonly index?: number };

/** The line of the SQL that `position` (in the statement) is on, numbered as in the script, with a caret under its column. */
export function markPosition(source: SqlSource, position: SourcePosition): string {
  const { text, line: first, lead } = typeof source === "string" ? { text: source, line: 1, lead: "" } : source;
  const lines = (lead + text).split(/\r\n|\n|\r/);
  const line = lines[position.line - 1];
  if (line === undefined) return "";
  const column = position.line === 1 ? lead.length + position.column : position.column;
  const gutter = `${first + position.line - 1} | `;
  // Tabs would move the caret by a terminal-dependent amount: show them as one space.
  const shown = line.replaceAll("\t", " ");
  const before = shown.slice(0, Math.max(0, column - 1));
  return `${gutter}${shown}\n${" ".repeat(stringWidth(gutter) - 2)}| ${" ".repeat(stringWidth(before))}^\n`;
}

function entries(errors: readonly ProblemEntry[]): string {
  const rows = errors.map((e) => [e.table ?? null, e.row ?? null, e.column ?? null, e.code, e.message]);
  return renderTable(["table", "row", "column", "code", "message"], rows);
}

export interface ErrorContext {
  /** The SQL that was sent, when there was one. */
  readonly sql?: SqlSource;
  /** The statement is one of a script: an error without a position marks where the statement starts, so the reader sees which one failed (a transaction's failing step always is). */
  readonly script?: boolean;
  /** The statements of a transaction that the error left unapplied. */
  readonly discarded?: number;
}

const START: SourcePosition = { line: 1, column: 1, offset: 0 };

/**
 * The engine's message names the position in the statement it was sent
 * ("at line 1, column 8"); in a script, where the marked line is numbered
 * as in the script, the message names the same place so.
 */
function inScript(message: string, position: SourcePosition | undefined, sql: SqlSource | undefined): string {
  if (position === undefined || typeof sql !== "object" || (sql.line === 1 && sql.lead === "")) return message;
  const said = `line ${position.line}, column ${position.column}`;
  const at = message.lastIndexOf(said);
  if (at < 0) return message;
  const column = position.line === 1 ? sql.lead.length + position.column : position.column;
  return `${message.slice(0, at)}line ${sql.line + position.line - 1}, column ${column}${message.slice(at + said.length)}`;
}

function rolledBack(discarded: number): string {
  if (discarded === 0) return "it held no statements yet";
  return `none of its ${discarded === 1 ? "1 statement was" : `${discarded} statements were`} applied`;
}

/** The report of `error` for people. */
export function renderError(error: unknown, context: ErrorContext = {}): string {
  const { sql } = context;
  if (error instanceof StoreError) {
    let out = `error: ${inScript(error.message, error.position, sql)} [${error.code}]\n`;
    // A transaction's failing step is marked as a script's statement is: COMMIT ran several, and this is the one.
    if (sql !== undefined && (error.position !== undefined || context.script === true || error.step !== undefined)) out += markPosition(sql, error.position ?? START);
    if (error.expected && error.expected.length > 0) out += `expected: ${error.expected.join(", ")}\n`;
    if (error.errors && error.errors.length > 0) out += entries(error.errors);
    if (context.discarded !== undefined) out += `transaction rolled back: ${rolledBack(context.discarded)}\n`;
    return out;
  }
  if (error instanceof ConnectionError) return `error: ${error.message} [${error.code}]\n`;
  return `error: ${error instanceof Error ? error.message : String(error)}\n`;
}

/**
 * The report of `error` for scripts: one JSON line, problem details where
 * there are any. For a statement of a script, `statement` says which one
 * and where it starts (its index, 0-based as a transaction's `step`; its
 * 1-based line and column in the script): the problem's `position` stays
 * the engine's, in that statement. `discarded`: how many statements of a
 * transaction the error left unapplied.
 */
export function renderErrorJson(error: unknown, context: ErrorContext = {}): string {
  if (error instanceof StoreError) {
    const { sql } = context;
    const at = context.script === true && typeof sql === "object" && sql.index !== undefined ? { statement: { index: sql.index, line: sql.line, column: sql.lead.length + 1 } } : {};
    const discarded = context.discarded === undefined ? {} : { discarded: context.discarded };
    return JSON.stringify({ ...error.toProblem(), ...at, ...discarded }) + "\n";
  }
  if (error instanceof ConnectionError) {
    return JSON.stringify({ code: error.code, detail: error.message, ...(error.status === undefined ? {} : { status: error.status }) }) + "\n";
  }
  return JSON.stringify({ code: "error", detail: error instanceof Error ? error.message : String(error) }) + "\n";
}
