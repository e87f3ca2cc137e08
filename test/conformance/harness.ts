/**
 * How a conformance case runs: each surface on a fresh fixture session, its
 * outcome (a result, or an error with everything the error carries), and
 * the check of an outcome against the case's expectation. Shared by the
 * conformance suite (engine and library) and the client's twin suite
 * (library and a real server through `createClient`).
 */

import * as assert from "uvu/assert";
import type { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import { StoreError, type ProblemEntry, type SourcePosition } from "../../src/errors.js";
import { aggregateCases } from "./cases-aggregates.js";
import { errorCases } from "./cases-errors.js";
import { expressionCases } from "./cases-expressions.js";
import { indexCases } from "./cases-index.js";
import { joinCases } from "./cases-join.js";
import { readCases } from "./cases-read.js";
import { returningCases } from "./cases-returning.js";
import { upsertCases } from "./cases-upsert.js";
import { writeCases } from "./cases-write.js";
import type { Case, Expect } from "./dsl.js";

/** Every conformance case. */
export const cases: readonly Case[] = [...readCases, ...joinCases, ...writeCases, ...errorCases, ...expressionCases, ...aggregateCases, ...indexCases, ...returningCases, ...upsertCases];

export interface Failure {
  readonly error: string;
  readonly message: string;
  readonly status: number;
  readonly position?: SourcePosition;
  readonly expected?: readonly string[];
  readonly errors?: readonly ProblemEntry[];
}

export type Outcome = { readonly result: Result } | Failure;

export async function attempt(run: () => Result | Promise<Result>): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    if (error instanceof StoreError) {
      const { code, message, status, position, expected, errors } = error;
      return { error: code, message, status, ...(position ? { position } : {}), ...(expected ? { expected } : {}), ...(errors ? { errors } : {}) };
    }
    throw error; // anything else is a bug, not an outcome
  }
}

/** One fresh fixture database, reachable through each surface. */
export interface Session {
  fluent(table: string): TableQuery;
  json(wire: unknown): Promise<Result>;
  sql(text: string, params: readonly Value[]): Promise<Result>;
}

/** Runs `entry` on every surface it has, each on a fresh session. */
export async function surfaces(entry: Case, fresh: () => Promise<Session>): Promise<[string, Outcome, Session][]> {
  const out: [string, Outcome, Session][] = [];
  if (entry.fluent) {
    const session = await fresh();
    const fluent = entry.fluent;
    out.push(["fluent", await attempt(() => fluent(session.fluent).run()), session]);
  }
  if (entry.json !== null) {
    const session = await fresh();
    // Through JSON text and back, as a request body arrives.
    const wire = JSON.parse(JSON.stringify(entry.json)) as unknown;
    out.push(["json", await attempt(() => session.json(wire)), session]);
  }
  if (entry.sql !== null) {
    const session = await fresh();
    const [sql, params] = typeof entry.sql === "string" ? [entry.sql, []] : entry.sql;
    out.push(["sql", await attempt(() => session.sql(sql, params)), session]);
  }
  return out;
}

/** The code a surface must answer with: SQL text has its own where the case says so. */
export function codeFor(surface: string, expect: { readonly error: string; readonly sql?: string }): string {
  return surface.startsWith("sql") && expect.sql !== undefined ? expect.sql : expect.error;
}

export function check(surface: string, outcome: Outcome, expect: Expect): void {
  if ("error" in expect) {
    const code = codeFor(surface, expect);
    assert.ok("error" in outcome, `${surface}: expected error ${code}, got ${JSON.stringify(outcome)}`);
    assert.is((outcome as Failure).error, code, `${surface}: error code (${(outcome as Failure).message})`);
    return;
  }
  assert.ok("result" in outcome, `${surface}: expected a result, got ${JSON.stringify(outcome)}`);
  const result = (outcome as { result: Result }).result;
  if ("access" in expect) {
    assert.is(result.kind, "plan", `${surface}: result kind`);
    const statement = (result as { plan: { statement: { access?: { kind: string } } } }).plan.statement;
    assert.is(statement.access?.kind, expect.access, `${surface}: access path`);
    return;
  }
  assert.equal(result, expect, `${surface}: result`);
  if (result.kind === "rows") {
    for (const row of result.rows) {
      if (!Array.isArray(row)) assert.equal(Object.keys(row), [...new Set(result.columns)], `${surface}: row keys follow columns`);
    }
  }
}
