/**
 * The conformance suite: every case states one query once per surface and
 * runs it through each — the fluent builder (`TableQuery` → `toPlan()`), a
 * JSON command (serialized, parsed and validated as the server would), and
 * SQL text (a `sql` command) — each on a fresh copy of the fixture database,
 * first on a bare `Engine`, then through the library's `Database`. All
 * surfaces must give the same outcome, and it must be the expected one: the
 * same result, or an error with the same §7 code.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { TableQuery } from "../../src/api/table-query.js";
import type { Result } from "../../src/commands/results.js";
import type { Command, Value } from "../../src/commands/types.js";
import { parseCommand } from "../../src/commands/validate.js";
import { Database } from "../../src/database.js";
import { StoreError } from "../../src/errors.js";
import { errorCases } from "./cases-errors.js";
import { expressionCases } from "./cases-expressions.js";
import { joinCases } from "./cases-join.js";
import { readCases } from "./cases-read.js";
import { writeCases } from "./cases-write.js";
import type { Case, Expect } from "./dsl.js";
import { FIXTURE, fixtureEngine } from "./fixture.js";

type Outcome = { readonly result: Result } | { readonly error: string; readonly message: string };

const cases: readonly Case[] = [...readCases, ...joinCases, ...writeCases, ...errorCases, ...expressionCases];

async function attempt(run: () => Result | Promise<Result>): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    if (error instanceof StoreError) return { error: error.code, message: error.message };
    throw error; // anything else is a bug, not an outcome
  }
}

/** One fresh fixture database, reachable through each surface. */
interface Session {
  fluent(table: string): TableQuery;
  json(wire: unknown): Promise<Result>;
  sql(text: string, params: readonly Value[]): Promise<Result>;
}

/**
 * The engine as the brief's harness drives it (JSON and SQL validated with
 * `parseCommand` as the server does; the builder handing its plan straight
 * to the engine), and the library's `Database`, which wraps the same engine
 * in its command queue.
 */
const BACKENDS: readonly [string, () => Promise<Session>][] = [
  [
    "engine",
    async () => {
      const engine = fixtureEngine();
      const run = async (command: Command) => engine.execute(command).result;
      return {
        fluent: (table) => new TableQuery(table, run),
        json: async (wire) => run(parseCommand(wire)),
        sql: async (sql, params) => run(parseCommand({ kind: "sql", sql, params })),
      };
    },
  ],
  [
    "library",
    async () => {
      const db = Database.memory();
      for (const command of FIXTURE) await db.execute(command);
      return { fluent: (table) => db.table(table), json: (wire) => db.execute(wire), sql: (sql, params) => db.sql(sql, params) };
    },
  ],
];

async function surfaces(entry: Case, fresh: () => Promise<Session>): Promise<[string, Outcome, Session][]> {
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
function codeFor(surface: string, expect: { readonly error: string; readonly sql?: string }): string {
  return surface.startsWith("sql") && expect.sql !== undefined ? expect.sql : expect.error;
}

function check(surface: string, outcome: Outcome, expect: Expect): void {
  if ("error" in expect) {
    const code = codeFor(surface, expect);
    assert.ok("error" in outcome, `${surface}: expected error ${code}, got ${JSON.stringify(outcome)}`);
    assert.is((outcome as { error: string }).error, code, `${surface}: error code (${(outcome as { message?: string }).message})`);
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

for (const [backend, fresh] of BACKENDS) {
  for (const [index, entry] of cases.entries()) {
    test(`#${index} ${entry.name} (${backend})`, async () => {
      const outcomes = await surfaces(entry, fresh);
      assert.ok(outcomes.length > 0, "a case runs on at least one surface");
      for (const [surface, outcome, session] of outcomes) {
        check(surface, outcome, entry.expect);
        if (entry.after) {
          const [command, expect] = entry.after;
          check(`${surface} (after)`, await attempt(() => session.json(command)), expect);
        }
      }
      // Beyond matching the expectation, the surfaces agree with each other exactly (plans included),
      // error codes as each surface must name them.
      const [first, ...rest] = outcomes;
      const normal = (surface: string, outcome: Outcome) =>
        "error" in outcome && "error" in entry.expect ? { error: outcome.error === codeFor(surface, entry.expect) } : "error" in outcome ? { error: outcome.error } : outcome;
      for (const [surface, outcome] of rest) {
        assert.equal(normal(surface, outcome), normal(first![0], first![1]), `${surface} agrees with ${first![0]}`);
      }
    });
  }
}

test("the suite is large enough", () => {
  assert.ok(cases.length >= 120, `${cases.length} cases`);
  const names = new Set(cases.map((entry) => entry.name));
  assert.is(names.size, cases.length, "case names are unique");
});

test.run();
