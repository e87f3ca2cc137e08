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
import type { Command } from "../../src/commands/types.js";
import { parseCommand } from "../../src/commands/validate.js";
import { Database } from "../../src/database.js";
import { FIXTURE, fixtureEngine } from "./fixture.js";
import { attempt, cases, check, codeFor, surfaces, type Outcome, type Session } from "./harness.js";

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
      return {
        fluent: (table) => db.table(table),
        json: (wire) => db.execute(wire),
        sql: (sql, params) => db.sql(sql, params),
        callback: async (commands) => {
          const results = await db.transaction(async (tx) => {
            const out: Result[] = [];
            for (const command of commands) out.push(await tx.execute(command));
            return out;
          });
          return { kind: "transaction", results };
        },
      };
    },
  ],
];

for (const [backend, fresh] of BACKENDS) {
  for (const [index, entry] of cases.entries()) {
    test(`#${index} ${entry.name} (${backend})`, async () => {
      const outcomes = await surfaces(entry, fresh);
      assert.ok(outcomes.length > 0, "a case runs on at least one surface");
      for (const [surface, outcome, session] of outcomes) {
        check(surface, outcome, entry.expect);
        for (const [i, [command, expect]] of (entry.after ?? []).entries()) {
          check(`${surface} (after #${i})`, await attempt(() => session.json(command)), expect);
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
