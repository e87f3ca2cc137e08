/**
 * How a conformance case runs: each surface on a fresh fixture session, its
 * outcome (a result, or an error with everything the error carries), and
 * the check of an outcome against the case's expectation. Shared by the
 * conformance suite (engine and library) and the client's twin suite
 * (library and a real server through `createClient`).
 */

import * as assert from "uvu/assert";
import type { DerivedInput } from "../../src/api/expressions.js";
import { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Command, Value } from "../../src/commands/types.js";
import { StoreError, type ProblemEntry, type SourcePosition } from "../../src/errors.js";
import { aggregateCases } from "./cases-aggregates.js";
import { alterCases } from "./cases-alter.js";
import { compoundCases } from "./cases-compound.js";
import { correlatedCases } from "./cases-correlated.js";
import { collateCases } from "./cases-collate.js";
import { derivedCases } from "./cases-derived.js";
import { dmlCases } from "./cases-dml.js";
import { recursiveCases } from "./cases-recursive.js";
import { insertSelectCases } from "./cases-insert-select.js";
import { errorCases } from "./cases-errors.js";
import { filterCases } from "./cases-filter.js";
import { expressionCases } from "./cases-expressions.js";
import { indexCases } from "./cases-index.js";
import { indexDdlCases } from "./cases-index-ddl.js";
import { joinCases } from "./cases-join.js";
import { joinKindCases } from "./cases-join-kinds.js";
import { jsonCases } from "./cases-json.js";
import { jsonTableCases } from "./cases-json-table.js";
import { readCases } from "./cases-read.js";
import { returningCases } from "./cases-returning.js";
import { transactionCases } from "./cases-transaction.js";
import { createAsCases } from "./cases-create-as.js";
import { defaultCases } from "./cases-defaults.js";
import { replaceCases } from "./cases-replace.js";
import { resultNameCases } from "./cases-result-names.js";
import { upsertCases } from "./cases-upsert.js";
import { subqueryCases } from "./cases-subqueries.js";
import { rowValueCases } from "./cases-row-values.js";
import { windowCases } from "./cases-window.js";
import { writeCases } from "./cases-write.js";
import type { Case, Expect, Step } from "./dsl.js";

/** Every conformance case. */
export const cases: readonly Case[] = [...readCases, ...joinCases, ...joinKindCases, ...writeCases, ...errorCases, ...expressionCases, ...aggregateCases, ...indexCases, ...returningCases, ...upsertCases, ...replaceCases, ...createAsCases, ...defaultCases, ...transactionCases, ...indexDdlCases, ...alterCases, ...subqueryCases, ...compoundCases, ...derivedCases, ...correlatedCases, ...recursiveCases, ...insertSelectCases, ...windowCases, ...jsonCases, ...dmlCases, ...jsonTableCases, ...collateCases, ...filterCases, ...rowValueCases, ...resultNameCases];

export interface Failure {
  readonly error: string;
  readonly message: string;
  readonly status: number;
  readonly position?: SourcePosition;
  readonly expected?: readonly string[];
  readonly errors?: readonly ProblemEntry[];
  /** A transaction's failing step. */
  readonly step?: number;
}

export type Outcome = { readonly result: Result } | Failure;

export async function attempt(run: () => Result | Promise<Result>): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    if (error instanceof StoreError) {
      const { code, message, status, position, expected, errors, step } = error;
      return {
        error: code,
        message,
        status,
        ...(position ? { position } : {}),
        ...(expected ? { expected } : {}),
        ...(errors ? { errors } : {}),
        ...(step !== undefined ? { step } : {}),
      };
    }
    throw error; // anything else is a bug, not an outcome
  }
}

/** One fresh fixture database, reachable through each surface. */
export interface Session {
  fluent(table: string | DerivedInput): TableQuery;
  json(wire: unknown): Promise<Result>;
  sql(text: string, params: readonly Value[]): Promise<Result>;
  /** The library's own transaction: each command run on `tx` in `db.transaction`, the results gathered. */
  callback?(commands: readonly Command[]): Promise<Result>;
}

/** A step said on one surface, as the command that surface makes (the JSON form where it has none). */
function stepCommand(step: Step, surface: "fluent" | "json" | "sql"): unknown {
  if (surface === "fluent" && step.fluent) return step.fluent((table) => new TableQuery(table, () => Promise.reject(new Error("not run")))).toPlan();
  if (surface === "sql" && step.sql) {
    const [sql, params] = typeof step.sql === "string" ? [step.sql, []] : step.sql;
    return { kind: "sql", sql, params };
  }
  return JSON.parse(JSON.stringify(step.json)) as unknown;
}

/** A transaction case on each surface that says at least one step its own way, and (library) as a callback. */
async function transactionSurfaces(steps: readonly Step[], commandOnly: boolean, fresh: () => Promise<Session>): Promise<[string, Outcome, Session][]> {
  const out: [string, Outcome, Session][] = [];
  for (const surface of ["fluent", "json", "sql"] as const) {
    if (surface !== "json" && !steps.some((step) => step[surface] !== null)) continue;
    const session = await fresh();
    const commands = steps.map((step) => stepCommand(step, surface));
    out.push([surface, await attempt(() => session.json({ kind: "transaction", commands })), session]);
    if (surface === "json" && !commandOnly) {
      const library = await fresh();
      if (library.callback) {
        const callback = library.callback;
        out.push(["callback", await attempt(() => callback(commands as Command[])), library]);
      }
    }
  }
  return out;
}

/** Runs `entry` on every surface it has, each on a fresh session. */
export async function surfaces(entry: Case, fresh: () => Promise<Session>): Promise<[string, Outcome, Session][]> {
  if (entry.steps) return transactionSurfaces(entry.steps, entry.commandOnly === true, fresh);
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
    // The step is in a transaction command's problem; the callback form rethrows the step's own error.
    if (expect.step !== undefined && surface !== "callback") assert.is((outcome as Failure).step, expect.step, `${surface}: failing step`);
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
