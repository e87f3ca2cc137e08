/**
 * The conformance suite: every case states one query once per surface and
 * runs it through each — the fluent builder (`TableQuery` → `toPlan()`), a
 * JSON command (serialized, parsed and validated as the server would), and
 * SQL text (a `sql` command) — each on a fresh copy of the fixture database.
 * All surfaces must give the same outcome, and it must be the expected one:
 * the same result, or an error with the same §7 code.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { TableQuery } from "../../src/api/table-query.js";
import type { Engine } from "../../src/catalog/engine.js";
import type { Result } from "../../src/commands/results.js";
import { parseCommand } from "../../src/commands/validate.js";
import { StoreError } from "../../src/errors.js";
import { errorCases } from "./cases-errors.js";
import { joinCases } from "./cases-join.js";
import { readCases } from "./cases-read.js";
import { writeCases } from "./cases-write.js";
import type { Case, Expect } from "./dsl.js";
import { fixtureEngine } from "./fixture.js";

type Outcome = { readonly result: Result } | { readonly error: string; readonly message: string };

const cases: readonly Case[] = [...readCases, ...joinCases, ...writeCases, ...errorCases];

async function attempt(run: () => Result | Promise<Result>): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    if (error instanceof StoreError) return { error: error.code, message: error.message };
    throw error; // anything else is a bug, not an outcome
  }
}

async function surfaces(entry: Case): Promise<[string, Outcome, Engine][]> {
  const out: [string, Outcome, Engine][] = [];
  if (entry.fluent) {
    const engine = fixtureEngine();
    const fluent = entry.fluent;
    const t = (table: string) => new TableQuery(table, async (command) => engine.execute(command).result);
    out.push(["fluent", await attempt(() => fluent(t).run()), engine]);
  }
  if (entry.json !== null) {
    const engine = fixtureEngine();
    const wire = JSON.parse(JSON.stringify(entry.json)) as unknown;
    out.push(["json", await attempt(() => engine.execute(parseCommand(wire)).result), engine]);
  }
  if (entry.sql !== null) {
    const engine = fixtureEngine();
    const [sql, params] = typeof entry.sql === "string" ? [entry.sql, []] : entry.sql;
    out.push(["sql", await attempt(() => engine.execute(parseCommand({ kind: "sql", sql, params })).result), engine]);
  }
  return out;
}

function check(surface: string, outcome: Outcome, expect: Expect): void {
  if ("error" in expect) {
    assert.ok("error" in outcome, `${surface}: expected error ${expect.error}, got ${JSON.stringify(outcome)}`);
    assert.is((outcome as { error: string }).error, expect.error, `${surface}: error code (${(outcome as { message?: string }).message})`);
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

for (const [index, entry] of cases.entries()) {
  test(`#${index} ${entry.name}`, async () => {
    const outcomes = await surfaces(entry);
    assert.ok(outcomes.length > 0, "a case runs on at least one surface");
    for (const [surface, outcome, engine] of outcomes) {
      check(surface, outcome, entry.expect);
      if (entry.after) {
        const [command, expect] = entry.after;
        check(`${surface} (after)`, await attempt(() => engine.execute(command).result), expect);
      }
    }
    // Beyond matching the expectation, the surfaces agree with each other exactly (plans included).
    const [first, ...rest] = outcomes;
    for (const [surface, outcome] of rest) {
      const a = "error" in first![1] ? { error: first![1].error } : first![1];
      const b = "error" in outcome ? { error: outcome.error } : outcome;
      assert.equal(b, a, `${surface} agrees with ${first![0]}`);
    }
  });
}

test("the suite is large enough", () => {
  assert.ok(cases.length >= 120, `${cases.length} cases`);
  const names = new Set(cases.map((entry) => entry.name));
  assert.is(names.size, cases.length, "case names are unique");
});

test.run();
