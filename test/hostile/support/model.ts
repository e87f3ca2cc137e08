/**
 * Model-based check of mutations: a generated sequence of inserts, updates
 * and deletes (JSON or SQL, conditions from the same generator as the
 * selects) runs against a fresh copy of the fixed table and, step by step,
 * against an in-memory model: an array of rows in insertion order, changed
 * only where the reference evaluates a condition to TRUE.
 *
 * After every step the server's `rowsAffected` must equal the model's count
 * and `select *` must equal the model; a step the contract rejects (a type
 * mismatch, a computed or unknown column, a wrong-typed value) must change
 * nothing.
 */
import fc from "fast-check";
import type { Expression, Value } from "../../../src/commands/types.js";
import { COLUMNS, OUTPUT_COLUMNS, ROWS, SCHEMA, TABLE, withComputed, type Row } from "./dataset.js";
import { problemViolations } from "./problem.js";
import { condition, toSql } from "./queries.js";
import { shouldRun } from "./known-failures.js";
import { check, evaluate, literalMismatch, qualify, type Source } from "./reference.js";
import type { ServerProcess } from "./server.js";

export const MODEL_DB = "fmodel";

export type Step =
  | { readonly op: "insert"; readonly row: Row }
  | { readonly op: "update"; readonly set: Readonly<Record<string, Value>>; readonly where: Expression; readonly sql: boolean }
  | { readonly op: "delete"; readonly where: Expression; readonly sql: boolean };

const SCOPE: readonly Source[] = [{ name: TABLE, columns: { ...COLUMNS, big: "boolean" } }];

const valueFor: Readonly<Record<string, fc.Arbitrary<Value>>> = {
  n: fc.oneof(fc.integer({ min: -20, max: 20 }), fc.constant(null)),
  r: fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), fc.constant(null)),
  s: fc.oneof(fc.constantFrom("a", "b", "\u{1F600}", "it's", ""), fc.constant(null)),
  b: fc.oneof(fc.boolean(), fc.constant(null)),
  // Rejected: a computed field, an unknown column, a value of the wrong type.
  big: fc.boolean(),
  zz: fc.integer(),
};

const setArb = fc
  .tuple(fc.shuffledSubarray(["n", "r", "s", "b"], { minLength: 1, maxLength: 3 }), fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom("big", "zz", "n-text") }))
  .chain(([columns, odd]) => {
    const keys = odd === undefined ? columns : [...columns, odd];
    return fc.tuple(...keys.map((k) => (k === "n-text" ? fc.constant<Value>("ten") : valueFor[k]!))).map((values) =>
      Object.fromEntries(keys.map((k, i) => [k === "n-text" ? "n" : k, values[i] ?? null])),
    );
  });

export const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    fc.record({ n: valueFor.n!, r: valueFor.r!, s: valueFor.s!, b: valueFor.b! }).map((row): Step => ({ op: "insert", row })),
    fc.record({ set: setArb, where: condition(2), sql: fc.boolean() }).map((u): Step => ({ op: "update", ...u })),
    fc.record({ where: condition(2), sql: fc.boolean() }).map((d): Step => ({ op: "delete", ...d })),
  ),
  { minLength: 1, maxLength: 6 },
);

function sqlWhere(where: Expression): { text: string; params: Value[] } {
  const q = toSql({ columns: "*", where }, false);
  return { text: q.sql.slice(q.sql.indexOf(" WHERE ") + 7), params: q.params };
}

/**
 * Whether the contract rejects the step before touching a row: a bad
 * condition, a column `set` cannot write, or a `set` value outside its
 * column's type (rejected whether or not a row matches).
 */
function rejects(step: Step): boolean {
  if (step.op === "insert") return false;
  if (check(step.where, SCOPE).kind !== "ok") return true;
  return step.op === "update" && Object.entries(step.set).some(([k, v]) => !(k in COLUMNS) || (k === "n" && typeof v === "string"));
}

/** Whether a step would run into a known bug (see KNOWN_FAILURES); such sequences are skipped, not failed. */
export function hitsKnownBug(list: readonly Step[]): boolean {
  return !shouldRun("select-param-vs-param-type-mismatch.json") && list.some((s) => s.op !== "insert" && s.sql && literalMismatch(s.where));
}

export async function checkSteps(server: ServerProcess, list: readonly Step[]): Promise<string[]> {
  const run = (command: unknown) => server.command({ database: MODEL_DB, command }, { timeoutMs: 15_000 });
  await run({ kind: "drop-table", table: TABLE, ifExists: true });
  await run({ kind: "create-table", schema: SCHEMA });
  await run({ kind: "insert", table: TABLE, rows: ROWS });
  let model: Row[] = ROWS.map((row) => ({ ...row }));
  let nextId = 1000;
  const out: string[] = [];
  for (const [i, step] of list.entries()) {
    const matches = (row: Row): boolean => step.op !== "insert" && evaluate(step.where, qualify(withComputed(row), TABLE), SCOPE) === true;
    let reply;
    let expectedCount = 0;
    const rejected = rejects(step);
    switch (step.op) {
      case "insert": {
        const row = { ...step.row, id: nextId++ };
        reply = await run({ kind: "insert", table: TABLE, rows: [row] });
        expectedCount = 1;
        if (!rejected) model = [...model, row];
        break;
      }
      case "update": {
        if (step.sql) {
          const where = sqlWhere(step.where);
          const entries = Object.entries(step.set);
          reply = await run({ kind: "sql", sql: `UPDATE ${TABLE} SET ${entries.map(([k]) => `${k} = ?`).join(", ")} WHERE ${where.text}`, params: [...entries.map(([, v]) => v), ...where.params] });
        } else reply = await run({ kind: "update", table: TABLE, set: step.set, where: step.where });
        if (!rejected) {
          expectedCount = model.filter(matches).length;
          model = model.map((row) => (matches(row) ? { ...row, ...step.set } : row));
        }
        break;
      }
      case "delete": {
        if (step.sql) {
          const where = sqlWhere(step.where);
          reply = await run({ kind: "sql", sql: `DELETE FROM ${TABLE} WHERE ${where.text}`, params: where.params });
        } else reply = await run({ kind: "delete", table: TABLE, where: step.where });
        if (!rejected) {
          expectedCount = model.filter(matches).length;
          model = model.filter((row) => !matches(row));
        }
        break;
      }
    }
    if (rejected) {
      if (reply.status < 400 || reply.status >= 500) out.push(`step ${i} should be rejected, answered ${reply.status} ${reply.text.slice(0, 200)}`);
      else out.push(...problemViolations(reply, { dataDir: server.dataDir }).map((v) => `step ${i}: ${v}`));
    } else {
      const affected = (reply.json as { rowsAffected?: number } | undefined)?.rowsAffected;
      if (reply.status !== 200 || affected !== expectedCount) out.push(`step ${i}: expected 200 with rowsAffected ${expectedCount}, got ${reply.status} ${reply.text.slice(0, 300)}`);
    }
    const read = await run({ kind: "select", table: TABLE, columns: "*" });
    const expected = JSON.stringify({ kind: "rows", columns: OUTPUT_COLUMNS, rows: model.map(withComputed), rowCount: model.length });
    if (read.text !== expected && JSON.stringify(read.json) !== expected) {
      out.push(`after step ${i} the table differs from the model\nexpected ${expected.slice(0, 1200)}\nactual   ${read.text.slice(0, 1200)}`);
    }
    if (out.length > 0) return out.map((v) => `${v}\nsteps: ${JSON.stringify(list).slice(0, 3000)}`);
  }
  return out;
}
