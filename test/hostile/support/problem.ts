/**
 * Checks an error answer against CONTRACT §7, written out here from the
 * contract itself (not imported from `src/errors.ts`), so a wrong status in
 * the code's table is caught rather than mirrored. Titles are "fixed per
 * code": the check is that one code always carries one title.
 *
 * Returns a list of violations instead of throwing, so fuzz properties can
 * print the request next to every broken rule.
 */
import os from "node:os";
import { ROOT, type Reply } from "./server.js";

/** CONTRACT §7: the one status each code may carry. */
export const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_name: 400,
  sql_syntax_error: 400,
  sql_error: 400,
  unknown_column: 400,
  ambiguous_column: 400,
  type_mismatch: 400,
  unauthorized: 401,
  database_not_found: 404,
  table_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  table_exists: 409,
  constraint_violation: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  internal_error: 500,
  storage_error: 500,
  database_corrupt: 500,
  shutting_down: 503,
  insufficient_storage: 507,
};

const PROBLEM_MEMBERS = new Set(["status", "code", "title", "detail", "position", "expected", "errors"]);
const ENTRY_CODES = new Set(["required", "type", "unknown_column", "duplicate_key", "unique", "foreign_key", "check", "computed_write", "json", "checksum", "format"]);
const titles = new Map<string, string>();

/** Text that betrays the inside of the machine: paths and stack frames. */
function leaks(text: string, dataDir: string | undefined): string | undefined {
  const needles = [os.tmpdir() + "/", ROOT, "/tmp/", "node_modules", "file://"];
  if (dataDir) needles.push(dataDir);
  for (const needle of needles) if (text.includes(needle)) return `contains ${JSON.stringify(needle)}`;
  if (/\/[^\s"']*\.store\b/.test(text)) return "contains a .store path";
  if (/\bat (?:\S+ )?\(?(?:\/|file:|node:)[^\s)]*:\d+:\d+/.test(text) || /\n\s+at \S/.test(text)) return "contains a stack frame";
  if (/\b[A-Za-z]:\\(?:Users|Windows|Program|[A-Za-z0-9_-]+\\)/.test(text)) return "contains a Windows path";
  return undefined;
}

export interface ProblemExpectation {
  readonly status?: number;
  /** Any of these codes. */
  readonly codes?: readonly string[];
  readonly dataDir?: string;
  /** Client input the detail may quote back (a name that is itself path-like is not a leak). */
  readonly echo?: readonly string[];
}

export function problemViolations(reply: Reply, expect: ProblemExpectation = {}): string[] {
  const out: string[] = [];
  const contentType = String(reply.headers["content-type"] ?? "");
  if (!/^application\/problem\+json\b/i.test(contentType)) out.push(`content-type is ${JSON.stringify(contentType)}`);
  if (expect.status !== undefined && reply.status !== expect.status) out.push(`status ${reply.status}, expected ${expect.status}`);
  const body = reply.json;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    out.push(`body is not a JSON object: ${reply.text.slice(0, 200)}`);
    return out;
  }
  const problem = body as Record<string, unknown>;
  for (const key of Object.keys(problem)) if (!PROBLEM_MEMBERS.has(key)) out.push(`unexpected member ${JSON.stringify(key)}`);
  if (problem.status !== reply.status) out.push(`body status ${String(problem.status)} != HTTP ${reply.status}`);
  const code = problem.code;
  if (typeof code !== "string" || !(code in STATUS_OF_CODE)) out.push(`unknown code ${JSON.stringify(code)}`);
  else {
    if (STATUS_OF_CODE[code] !== reply.status) out.push(`code ${code} belongs to ${STATUS_OF_CODE[code]}, sent with ${reply.status}`);
    if (expect.codes && !expect.codes.includes(code)) out.push(`code ${code}, expected one of ${expect.codes.join(", ")}`);
  }
  if (typeof problem.title !== "string" || problem.title.length === 0) out.push("title missing");
  else if (typeof code === "string") {
    const seen = titles.get(code);
    if (seen === undefined) titles.set(code, problem.title);
    else if (seen !== problem.title) out.push(`title for ${code} changed: ${JSON.stringify(seen)} then ${JSON.stringify(problem.title)}`);
  }
  // As sent, as quoted in the detail, and as either appears once more escaped in the body's JSON.
  const forms = (e: string): string[] => [JSON.stringify(JSON.stringify(e)).slice(1, -1), JSON.stringify(e), JSON.stringify(e).slice(1, -1), e];
  const echoes = (expect.echo ?? []).flatMap(forms).filter((e) => e.length > 0);
  const unecho = (text: string): string => echoes.reduce((t, e) => t.split(e).join(""), text);
  if (typeof problem.detail !== "string") out.push("detail is not a string");
  else {
    const leak = leaks(unecho(problem.detail), expect.dataDir);
    if (leak) out.push(`detail ${leak}: ${problem.detail.slice(0, 300)}`);
  }
  const whole = leaks(unecho(reply.text), expect.dataDir);
  if (whole && typeof problem.detail === "string" && !leaks(unecho(problem.detail), expect.dataDir)) out.push(`body ${whole}`);
  if (problem.position !== undefined) {
    const p = problem.position as Record<string, unknown> | null;
    const ok =
      typeof p === "object" && p !== null && Number.isInteger(p.line) && Number.isInteger(p.column) && Number.isInteger(p.offset) &&
      (p.line as number) >= 1 && (p.column as number) >= 1 && (p.offset as number) >= 0;
    if (!ok) out.push(`bad position ${JSON.stringify(p)}`);
  }
  if (problem.expected !== undefined && !(Array.isArray(problem.expected) && problem.expected.every((e) => typeof e === "string"))) {
    out.push("expected is not a list of strings");
  }
  if (problem.errors !== undefined) {
    if (!Array.isArray(problem.errors)) out.push("errors is not a list");
    else
      for (const entry of problem.errors as unknown[]) {
        const e = entry as Record<string, unknown> | null;
        if (typeof e !== "object" || e === null || typeof e.code !== "string" || !ENTRY_CODES.has(e.code) || typeof e.message !== "string") {
          out.push(`bad errors entry ${JSON.stringify(entry)}`);
        } else if (e.row !== undefined && !(Number.isInteger(e.row) && (e.row as number) >= 0)) out.push(`bad row in ${JSON.stringify(entry)}`);
      }
  }
  if (reply.status === 401 && !/^bearer/i.test(String(reply.headers["www-authenticate"] ?? ""))) out.push("401 without WWW-Authenticate: Bearer");
  if (reply.status === 405 && !reply.headers.allow) out.push("405 without Allow");
  return out;
}

/** Throws with every violation and the request that caused it. */
export function assertProblem(reply: Reply, expect: ProblemExpectation = {}, context = ""): void {
  const violations = problemViolations(reply, expect);
  if (violations.length > 0) {
    throw new Error(`problem details broken${context ? ` for ${context}` : ""}: ${violations.join("; ")}\nbody: ${reply.text.slice(0, 500)}`);
  }
}

/** The code of an error reply ("" when the body has none). */
export function codeOf(reply: Reply): string {
  const body = reply.json as { code?: unknown } | undefined;
  return typeof body?.code === "string" ? body.code : "";
}
