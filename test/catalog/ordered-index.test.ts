/**
 * Ordered indexes must never change an answer. Two tables take the same
 * random mutations — inserts, updates and deletes (their WHERE itself often
 * a range), some undone as a failed transaction's are, some refused for a
 * taken key — one with secondary indexes over every column type (single and
 * composite), one without any. After each step, random range, BETWEEN,
 * LIKE-prefix and ORDER BY … LIMIT queries (parameters NULL now and then)
 * must return the same rows in the same order from both, and the indexed
 * table's plan must use its index. At the end a fresh engine redoes the
 * kept changes (a journal's replay) and must answer the same again.
 *
 * Seeded: `STORE_TEST_SEED=<n>` replays one run; a failure names its seed.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { Change } from "../../src/catalog/types.js";
import type { RowsResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import type { SelectPlan } from "../../src/planner/plan.js";
import { rng } from "../executor/support/sql-generator.js";

const INDEXED = "ix";
const PLAIN = "plain";
const COLUMNS = { id: "integer", a: "integer", b: "text", c: "real", d: "boolean" } as const;
const INDEXES = [
  { name: "by_a", columns: ["a"] },
  { name: "by_b", columns: ["b"] },
  { name: "by_c_a", columns: ["c", "a"] },
  { name: "by_d_b", columns: ["d", "b"] },
];
/** Letters of both cases, LIKE's wildcards, an escape character and characters beyond ASCII and the BMP. */
const ALPHABET = ["a", "A", "b", "B", "z", "_", "%", "!", "é", "\u{1F600}", "\uE000"];

function schemaOf(name: string, indexed: boolean) {
  return { name, columns: { ...COLUMNS }, primary_key: { columns: ["id"] }, ...(indexed ? { indexes: INDEXES } : {}) };
}

class Run {
  readonly random: () => number;
  readonly engine = Engine.empty();
  /** Every change kept, in order, for the replay. */
  readonly kept: Change[] = [];
  private nextId = 0;

  constructor(readonly seed: number) {
    this.random = rng(seed);
    for (const t of [INDEXED, PLAIN]) this.engine.execute({ kind: "create-table", schema: schemaOf(t, t === INDEXED) } as never);
  }

  int(n: number): number {
    return Math.floor(this.random() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  maybeNull<T>(v: T, chance = 0.15): T | null {
    return this.random() < chance ? null : v;
  }
  a(): number | null {
    return this.maybeNull(this.int(21) - 5);
  }
  text(max = 4): string {
    let s = "";
    for (let n = this.int(max + 1); n > 0; n--) s += this.pick(ALPHABET);
    return s;
  }
  b(): string | null {
    return this.maybeNull(this.text());
  }
  c(): number | null {
    return this.maybeNull(this.pick([0, 0.5, 1, 1.5, -2, 3]));
  }
  d(): boolean | null {
    return this.maybeNull(this.random() < 0.5);
  }
  /** `clash`: now and then an id that may be taken, so the insert is refused, on both tables alike. */
  row(clash = true): Record<string, Value> {
    const id = clash && this.random() < 0.05 && this.nextId > 0 ? this.int(this.nextId) : this.nextId++;
    return { id, a: this.a(), b: this.b(), c: this.c(), d: this.d() };
  }
  /** A LIKE pattern: a literal start of escaped and plain characters, then maybe wildcards. */
  pattern(): string {
    let p = "";
    for (let n = this.int(4); n > 0; n--) {
      const ch = this.pick(ALPHABET);
      p += ch === "%" || ch === "_" || ch === "!" ? (this.random() < 0.7 ? `!${ch}` : ch) : ch;
    }
    return p + this.pick(["%", "%", "", "_%", "%a"]);
  }

  sql(table: string, sql: string, params: Value[]): { result?: RowsResult; changes: readonly Change[]; error?: string } {
    try {
      const out = this.engine.execute({ kind: "sql", sql: sql.replaceAll("{T}", table), params });
      return { result: out.result as RowsResult, changes: out.changes };
    } catch (e) {
      return { changes: [], error: (e as { code?: string }).code ?? String(e) };
    }
  }

  /** One mutation on both tables; a third of them undone as a rolled-back transaction would be. */
  mutate(): void {
    const [sql, params] = this.mutation();
    const undo = this.random() < 0.33;
    const outcomes = [INDEXED, PLAIN].map((t) => this.sql(t, sql, params));
    const [ix, plain] = outcomes as [ReturnType<Run["sql"]>, ReturnType<Run["sql"]>];
    assert.is(ix.error, plain.error, `seed ${this.seed}: ${sql} ${JSON.stringify(params)}`);
    assert.equal(ix.result === undefined ? undefined : { ...ix.result, table: PLAIN }, plain.result, `seed ${this.seed}: ${sql}`);
    if (undo) for (const o of outcomes) this.engine.undo(o.changes);
    else this.kept.push(...ix.changes, ...plain.changes);
  }

  mutation(): [string, Value[]] {
    switch (this.int(6)) {
      case 0:
      case 1: {
        const rows = Array.from({ length: 1 + this.int(6) }, () => this.row());
        return [`INSERT INTO {T} (id, a, b, c, d) VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}`, rows.flatMap((r) => [r.id, r.a, r.b, r.c, r.d] as Value[])];
      }
      case 2:
        return ["UPDATE {T} SET a = ?, c = ? WHERE a BETWEEN ? AND ?", [this.a(), this.c(), this.int(21) - 5, this.int(21) - 5]];
      case 3:
        return ["UPDATE {T} SET b = ?, d = ? WHERE b LIKE ? ESCAPE '!'", [this.b(), this.d(), this.pattern()]];
      case 4:
        return ["DELETE FROM {T} WHERE a > ? AND c = ?", [this.int(21) - 5, this.c()]];
      default:
        return ["DELETE FROM {T} WHERE d = ? AND b LIKE ? ESCAPE '!'", [this.d(), this.pattern()]];
    }
  }

  /** A query, its parameters, and the index the indexed table's plan must walk. */
  query(): [string, Value[], string] {
    const n = () => this.int(21) - 5;
    const limit = 1 + this.int(8);
    switch (this.int(12)) {
      case 0:
        return ["SELECT * FROM {T} WHERE a > ?", [this.maybeNull(n(), 0.05)], "by_a"];
      case 1:
        return ["SELECT * FROM {T} WHERE a >= ? AND a < ?", [n(), n()], "by_a"];
      case 2:
        return ["SELECT * FROM {T} WHERE a BETWEEN ? AND ? AND b IS NOT NULL", [n(), this.maybeNull(n(), 0.05)], "by_a"];
      case 3:
        return ["SELECT id, b FROM {T} WHERE b LIKE ? ESCAPE '!'", [this.pattern()], "by_b"];
      case 4:
        return ["SELECT id, b FROM {T} WHERE b LIKE ?", [this.text(3) + "%"], "by_b"];
      case 5:
        return ["SELECT * FROM {T} WHERE c = ? AND a <= ?", [this.pick([0, 0.5, 1, 1.5, -2, 3]), n()], "by_c_a"];
      case 6:
        return ["SELECT * FROM {T} WHERE d = ? AND b LIKE ? ESCAPE '!'", [this.random() < 0.5, this.pattern()], "by_d_b"];
      case 7:
        return [`SELECT * FROM {T} ORDER BY a ${this.pick(["ASC", "DESC"])} LIMIT ? OFFSET ?`, [limit, this.int(4)], "by_a"];
      case 8:
        return [`SELECT id, a FROM {T} WHERE c + 0 > ? ORDER BY a DESC LIMIT ?`, [this.pick([-1, 0, 1]), limit], "by_a"];
      case 9:
        return [`SELECT * FROM {T} ORDER BY d DESC, b DESC LIMIT ?`, [limit], "by_d_b"];
      case 10:
        return [`SELECT * FROM {T} WHERE c = ? ORDER BY a LIMIT ?`, [this.pick([0, 0.5, 1]), limit], "by_c_a"];
      default:
        return [`SELECT id, b FROM {T} WHERE b > ? AND b <= ? ORDER BY b`, [this.text(2), this.text(2)], "by_b"];
    }
  }

  check(engine: Engine = this.engine): void {
    for (let q = 0; q < 12; q++) {
      const [sql, params, index] = this.query();
      const run = (t: string): RowsResult => engine.execute({ kind: "sql", sql: sql.replaceAll("{T}", t), params }).result as RowsResult;
      const where = `seed ${this.seed}: ${sql} ${JSON.stringify(params)}`;
      assert.equal(run(INDEXED), run(PLAIN), where);
      const plan = engine.execute({ kind: "sql", sql: `EXPLAIN ${sql.replaceAll("{T}", INDEXED)}`, params }).result as { plan: { statement: SelectPlan } };
      const access = plan.plan.statement.access;
      assert.is(access.kind === "index-range" ? access.index : access.kind, index, where);
    }
  }
}

const seeds = process.env.STORE_TEST_SEED === undefined ? [1, 2, 3, 4, 5, 6] : [Number(process.env.STORE_TEST_SEED)];

test("property: range, prefix and ordered queries on indexed tables equal a scan's, through inserts, updates, deletes and undos", () => {
  for (const seed of seeds) {
    const run = new Run(seed);
    for (let step = 0; step < 120; step++) {
      run.mutate();
      if (step % 4 === 0) run.check();
    }
    run.check();
    // A journal's replay: the kept changes redone on fresh tables answer the same.
    const replay = Engine.empty();
    for (const t of [INDEXED, PLAIN]) replay.execute({ kind: "create-table", schema: schemaOf(t, t === INDEXED) } as never);
    replay.redo(run.kept);
    run.check(replay);
  }
});

test("a table of thousands of rows keeps its ordered index through large deletes and their undo", () => {
  const run = new Run(99);
  const rows = Array.from({ length: 5000 }, () => run.row(false));
  for (const t of [INDEXED, PLAIN]) run.engine.execute({ kind: "insert", table: t, rows });
  run.check();
  for (const bound of [8, -3]) {
    const deletes = [INDEXED, PLAIN].map((t) => run.engine.execute({ kind: "sql", sql: `DELETE FROM ${t} WHERE a < ?`, params: [bound] }));
    run.check();
    for (const d of deletes) run.engine.undo(d.changes);
    run.check();
  }
});

test.run();
