/**
 * Executor benchmark: storedb's engine against better-sqlite3 (in memory,
 * same indexes) and a hand-written JavaScript loop over the same row
 * objects, side by side in one process, on a seeded generated dataset:
 * users (100k rows: id text primary key, name, email, age integer, city of
 * 50 values, created, score real, note ~20% NULL) and orders (300k rows:
 * id, user_id foreign key, amount, status), with an index on users.city,
 * one on users.score and one on orders.user_id.
 *
 * Every storedb query runs as `engine.execute({kind: "sql", sql, params})`,
 * so after the first call it is a plan-cache hit: parameters are checked and
 * the cached compiled plan runs. The point select also runs as a JSON
 * `select` command with the key as a literal (a new command object per call,
 * as a request brings one): a hit on its shape in the same cache. Each query cycles through a fixed list of
 * parameter values; each peer runs in short interleaved time slices, and the
 * best slice's per-query time is kept (the machine is shared: the fastest
 * slice is the one least disturbed by other processes; the median is shown
 * too; `BENCH_EXECUTOR=Q4,Q19` runs only those). A checksum over every peer's row counts
 * keeps the work observable (and the peers must agree on the counts). For
 * Q2 and Q5 a second hand-written loop runs over storedb's own stored rows
 * (row ids, values in the table's column arrays), separating the cost of the
 * compiled code from that of the row layout (columns, against objects).
 *
 *   Q0  SELECT id, name, email FROM users WHERE id = ?         (point select: SQL, then the JSON command)
 *   Q1  SELECT * FROM users WHERE id = ?                       (primary key)
 *   Q2  SELECT * FROM users WHERE city = ? AND age >= ?
 *   Q3  SELECT * FROM users WHERE note IS NOT NULL AND city = ? ORDER BY score DESC LIMIT 20
 *   Q4  SELECT users.name, orders.amount FROM users JOIN orders ON orders.user_id = users.id WHERE users.city = ?
 *   Q5  the count of a filtered read: storedb and the loop count rows of
 *       SELECT id FROM users WHERE age >= ? AND score < ?; SQLite runs SELECT COUNT(*) with that WHERE
 *       (score < 1..5 holds 1–5% of the rows: both engines take the score index)
 *   Q7  SELECT * FROM users WHERE score BETWEEN ? AND ?           (a range on the score index, ~1% of rows)
 *   Q8  SELECT * FROM users ORDER BY score DESC LIMIT 20          (the score index walked down, no sort)
 *   Q9  SELECT city, count(*), avg(score) FROM users GROUP BY city
 *   Q10 SELECT user_id, sum(amount) FROM orders GROUP BY user_id HAVING sum(amount) > ?
 *   Q11 SELECT count(DISTINCT user_id) FROM orders WHERE status = ?   (the count is the peers' answer)
 *   Q12 SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE amount > ?)   (a hash semi-join)
 *   Q13 SELECT id FROM users WHERE city = ? AND EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id AND amount > ?)
 *   Q14 WITH t AS (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id)
 *       SELECT users.name, t.total FROM users JOIN t ON t.user_id = users.id WHERE users.city = ?   (a derived table, joined)
 *   Q15 SELECT id FROM users WHERE city = ? UNION SELECT user_id FROM orders WHERE amount > ?      (a compound, distinct rows)
 *   Q16 SELECT id, rank() OVER (ORDER BY score DESC) AS r FROM users WHERE city = ?      (a window: a leaderboard)
 *   Q17 SELECT user_id, amount, sum(amount) OVER (PARTITION BY user_id ORDER BY id) AS running FROM orders WHERE status = ?
 *   Q18 Q4 as a comma join: … FROM users, orders WHERE orders.user_id = users.id AND users.city = ?   (the WHERE's equality is the join's key)
 *       (a running total in each of ~50,000 partitions)
 *   Q19 SELECT users.name, orders.amount FROM users RIGHT JOIN orders ON orders.user_id = users.id WHERE users.id = ?
 *       (WHERE drops the RIGHT join's padded rows: an inner join, users looked up by key)
 *   Q20 SELECT users.name, orders.amount FROM users FULL JOIN orders ON orders.user_id = users.id WHERE users.city = ?   (a left join: the city's index)
 *   Q21 SELECT users.name, orders.amount FROM users LEFT JOIN orders ON orders.user_id = users.id WHERE orders.amount > ? LIMIT 20
 *       (an inner join, stopped at the limit)
 *   Q22 SELECT id, name FROM users WHERE city IS ?                (IS a value: the city's index, as = takes it)
 *
 * The table functions, over the documents of `json-dataset.ts` (a docs
 * table of 100k rows beside users and orders; a large document is a
 * parameter, two of them taken in turn); the loop parses with JSON.parse:
 *   Q23 SELECT count(*) FROM json_each(?)                          (a ~5 MB array of 200k elements)
 *   Q24 SELECT count(*) FROM json_each(?) WHERE type = 'integer' AND value > ?
 *   Q25 SELECT key, fullkey FROM json_tree(?) WHERE type = 'real'  (~1 MB of nested objects)
 *   Q26 SELECT count(*) FROM docs, json_each(docs.tags)            (lateral: 100k calls of 5 rows)
 *   Q27 SELECT value, count(*) FROM docs, json_each(docs.tags) GROUP BY value
 *   Q28 SELECT count(*) FROM docs, json_each(docs.doc, '$.items') WHERE type = 'integer' AND value > ?
 */
import { createRequire } from "node:module";
import { Engine } from "../src/catalog/engine.js";
import type { RowsResult } from "../src/commands/results.js";
import type { Value } from "../src/commands/types.js";
import { CITIES, DATASET_SCHEMAS, generateDataset, type Order, ORDERS, STATUSES, type User, USERS } from "./dataset.js";
import { DOCS_SCHEMA, generateJsonDataset } from "./json-dataset.js";

/** The slice of better-sqlite3 used here (the package ships no types). */
interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}
interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  transaction(fn: () => void): () => void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

const { users, orders } = generateDataset();
const json = generateJsonDataset();

// ---------------------------------------------------------------- storedb
const engine = Engine.empty();
for (const command of DATASET_SCHEMAS) engine.execute(command);
const loadStart = performance.now();
engine.execute({ kind: "insert", table: "users", rows: users as unknown as Record<string, Value>[] });
engine.execute({ kind: "insert", table: "orders", rows: orders as unknown as Record<string, Value>[] });
const engineLoadMs = performance.now() - loadStart;
engine.execute(DOCS_SCHEMA);
engine.execute({ kind: "insert", table: "docs", rows: json.docs as unknown as Record<string, Value>[] });

// ---------------------------------------------------------------- SQLite
const db = new Database(":memory:");
db.exec(`CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT, email TEXT, age INTEGER, city TEXT, created TEXT, score REAL, note TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id TEXT REFERENCES users(id), amount REAL, status TEXT);
CREATE INDEX by_city ON users(city); CREATE INDEX by_score ON users(score); CREATE INDEX by_user ON orders(user_id);`);
const sqliteLoadStart = performance.now();
db.transaction(() => {
  const iu = db.prepare("INSERT INTO users VALUES (@id, @name, @email, @age, @city, @created, @score, @note)");
  for (const u of users) iu.run(u);
  const io = db.prepare("INSERT INTO orders VALUES (@id, @user_id, @amount, @status)");
  for (const o of orders) io.run(o);
})();
const sqliteLoadMs = performance.now() - sqliteLoadStart;
db.exec("CREATE TABLE docs (id INTEGER PRIMARY KEY, tags TEXT, doc TEXT)");
db.transaction(() => {
  const id = db.prepare("INSERT INTO docs VALUES (@id, @tags, @doc)");
  for (const d of json.docs) id.run(d);
})();
db.exec("ANALYZE");

// ---------------------------------------------------------------- queries
const ordersByUser = new Map<string, Order[]>();
for (const o of orders) {
  const list = ordersByUser.get(o.user_id);
  if (list) list.push(o);
  else ordersByUser.set(o.user_id, [o]);
}
const usersById = new Map(users.map((u) => [u.id, u] as const));
/** storedb's own stored rows of users: ids, and the heap with their column arrays (a snapshot hands them out without copying). */
const userTable = engine.snapshot().find((t) => t.schema.name === "users");
const userRows = userTable?.rows ?? [];
const userColumns = userTable?.heap.columns ?? [];

type Peer = (i: number) => number;
interface Query {
  readonly name: string;
  readonly sql: string;
  readonly params: (i: number) => Value[];
  readonly engine: Peer;
  readonly sqlite: Peer;
  readonly loop: Peer;
  /** The same loop over storedb's own columns (Q2, Q5): the cost of compiled code alone, without the row layout. */
  readonly columnLoop?: Peer;
}

function viaEngine(sql: string, params: (i: number) => Value[]): Peer {
  return (i) => (engine.execute({ kind: "sql", sql, params: params(i) }).result as RowsResult).rowCount;
}

/** The same statement through better-sqlite3, prepared once: the row count of each call. */
function viaSqlite(sql: string, params: (i: number) => Value[]): Peer {
  const statement = db.prepare(sql);
  return (i) => statement.all(...params(i)).length;
}

/** The same point select as a JSON command, built afresh per call with the key as a literal. */
function viaJson(params: (i: number) => Value[]): Peer {
  return (i) =>
    (
      engine.execute({
        kind: "select",
        table: "users",
        columns: ["id", "name", "email"],
        where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: params(i)[0] as Value } },
      }).result as RowsResult
    ).rowCount;
}

const q0 = "SELECT id, name, email FROM users WHERE id = ?";
const q1 = "SELECT * FROM users WHERE id = ?";
const q2 = "SELECT * FROM users WHERE city = ? AND age >= ?";
const q3 = "SELECT * FROM users WHERE note IS NOT NULL AND city = ? ORDER BY score DESC LIMIT 20";
const q4 = "SELECT users.name, orders.amount FROM users JOIN orders ON orders.user_id = users.id WHERE users.city = ?";
const q18 = "SELECT users.name, orders.amount FROM users, orders WHERE orders.user_id = users.id AND users.city = ?";
const q5 = "SELECT id FROM users WHERE age >= ? AND score < ?";
const p1 = (i: number): Value[] => [`u${(i * 7919) % USERS}`];
const p2 = (i: number): Value[] => [CITIES[i % 50] as string, 30 + (i % 40)];
const p3 = (i: number): Value[] => [CITIES[i % 50] as string];
const p5 = (i: number): Value[] => [60 + (i % 20), 1 + (i % 5)];

/** Pages of 20 in insertion order, the offset walking 0..19,980 (more pages than the plan cache holds): every page a JSON command of one shape. */
const q6 = "SELECT id, name FROM users LIMIT 20 OFFSET ?";
const p6 = (i: number): Value[] => [((i * 7) % 1000) * 20];
const pageJson: Peer = (i) => (engine.execute({ kind: "select", table: "users", columns: ["id", "name"], limit: 20, offset: p6(i)[0] as number }).result as RowsResult).rowCount;

/** Scores are uniform over 0..100 in steps of 0.01: a width of 1 holds ~1% of the users. */
const q7 = "SELECT * FROM users WHERE score BETWEEN ? AND ?";
const p7 = (i: number): Value[] => {
  const low = (i * 37) % 99;
  return [low, low + 1];
};
const q8 = "SELECT * FROM users ORDER BY score DESC LIMIT 20";
const noParams = (): Value[] => [];
const none = (): Value[] => [];
const q9 = "SELECT city, count(*) AS n, avg(score) AS a FROM users GROUP BY city";
const q10 = "SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id HAVING sum(amount) > ?";
const p10 = (i: number): Value[] => [3000 + (i % 5) * 100];
const q11 = "SELECT count(DISTINCT user_id) AS n FROM orders WHERE status = ?";
const p11 = (i: number): Value[] => [STATUSES[i % 4] as string];
const q12 = "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders WHERE amount > ?)";
const p12 = (i: number): Value[] => [990 + (i % 5)];
const q13 = "SELECT id FROM users WHERE city = ? AND EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id AND amount > ?)";
const p13 = (i: number): Value[] => [CITIES[i % 50] as string, 900 + (i % 5) * 10];

const q14 = "WITH t AS (SELECT user_id, sum(amount) AS total FROM orders GROUP BY user_id) SELECT users.name, t.total FROM users JOIN t ON t.user_id = users.id WHERE users.city = ?";
const q15 = "SELECT id FROM users WHERE city = ? UNION SELECT user_id FROM orders WHERE amount > ?";
const p15 = (i: number): Value[] => [CITIES[i % 50] as string, 990 + (i % 5)];
const q16 = "SELECT id, rank() OVER (ORDER BY score DESC) AS r FROM users WHERE city = ?";
const q17 = "SELECT user_id, amount, sum(amount) OVER (PARTITION BY user_id ORDER BY id) AS running FROM orders WHERE status = ?";
const p17 = (i: number): Value[] => [STATUSES[i % 4] as string];

const q19 = "SELECT users.name, orders.amount FROM users RIGHT JOIN orders ON orders.user_id = users.id WHERE users.id = ?";
const q20 = "SELECT users.name, orders.amount FROM users FULL JOIN orders ON orders.user_id = users.id WHERE users.city = ?";
const q21 = "SELECT users.name, orders.amount FROM users LEFT JOIN orders ON orders.user_id = users.id WHERE orders.amount > ? LIMIT 20";
const p21 = (i: number): Value[] => [500 + (i % 5) * 10];
const q22 = "SELECT id, name FROM users WHERE city IS ?";

const q23 = "SELECT count(*) AS n FROM json_each(?)";
const q24 = "SELECT count(*) AS n FROM json_each(?) WHERE type = 'integer' AND value > ?";
const q25 = "SELECT key, fullkey FROM json_tree(?) WHERE type = 'real'";
const q26 = "SELECT count(*) AS n FROM docs, json_each(docs.tags)";
const q27 = "SELECT value, count(*) AS n FROM docs, json_each(docs.tags) GROUP BY value";
const q28 = "SELECT count(*) AS n FROM docs, json_each(docs.doc, '$.items') WHERE type = 'integer' AND value > ?";
const p23 = (i: number): Value[] => [json.arrays[i % 2] as string];
const p24 = (i: number): Value[] => [json.arrays[i % 2] as string, 500_000 + (i % 5) * 1000];
const p25 = (i: number): Value[] => [json.nested[i % 2] as string];
const p28 = (i: number): Value[] => [500 + (i % 5) * 10];
const tagTexts = json.docs.map((d) => d.tags);
const docTexts = json.docs.map((d) => d.doc);
/** A count's value, from storedb's one row and SQLite's. */
const countOf = (result: unknown): number => (result as { rows: { n: number }[] }).rows[0]!.n;
const engineCount = (sql: string, params: (i: number) => Value[]): Peer => (i) => countOf(engine.execute({ kind: "sql", sql, params: params(i) }).result);
const sqliteCount = (sql: string, params: (i: number) => Value[]): Peer => ((s) => (i: number) => (s.get(...params(i)) as { n: number }).n)(db.prepare(sql));
/** json_tree's values in document order, with their types as SQLite names them (a number written with . or e is a real). */
function treeValues(v: unknown, each: (v: unknown, real: boolean) => void): void {
  each(v, typeof v === "number" && !Number.isInteger(v));
  if (Array.isArray(v)) for (const x of v) treeValues(x, each);
  else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) treeValues(x, each);
}

const pointSqlite = ((s) => (i: number) => (s.get(...p1(i)) === undefined ? 0 : 1))(db.prepare(q0));
const pointLoop = (i: number): number => (usersById.get(p1(i)[0] as string) === undefined ? 0 : 1);

/** Q4's and Q18's loop: each user of the city, with its orders. */
function usersOrdersLoop(i: number): number {
  const city = p3(i)[0];
  const out: { name: string; amount: number }[] = [];
  for (const u of users) {
    if (u.city !== city) continue;
    for (const o of ordersByUser.get(u.id) ?? []) out.push({ name: u.name, amount: o.amount });
  }
  return out.length;
}

const queries: Query[] = [
  { name: "Q0 point select, SQL", sql: q0, params: p1, engine: viaEngine(q0, p1), sqlite: pointSqlite, loop: pointLoop },
  { name: "Q0 point select, JSON", sql: q0, params: p1, engine: viaJson(p1), sqlite: pointSqlite, loop: pointLoop },
  {
    name: "Q1 pk lookup",
    sql: q1,
    params: p1,
    engine: viaEngine(q1, p1),
    sqlite: ((s) => (i: number) => (s.get(...p1(i)) === undefined ? 0 : 1))(db.prepare(q1)),
    loop: (i) => (usersById.get(p1(i)[0] as string) === undefined ? 0 : 1),
  },
  {
    name: "Q2 city = ? AND age >= ?",
    sql: q2,
    params: p2,
    engine: viaEngine(q2, p2),
    sqlite: viaSqlite(q2, p2),
    loop: (i) => {
      const [city, age] = p2(i) as [string, number];
      const out: User[] = [];
      for (const u of users) if (u.city === city && u.age >= age) out.push(u);
      return out.length;
    },
    columnLoop: (i) => {
      const [city, age] = p2(i) as [string, number];
      const cityColumn = userColumns[4] as string[];
      const ages = userColumns[3] as Float64Array;
      const out: number[] = [];
      for (let k = 0; k < userRows.length; k++) {
        const r = userRows[k] as number;
        if (cityColumn[r] === city && (ages[r] as number) >= age) out.push(r);
      }
      return out.length;
    },
  },
  {
    name: "Q3 top 20 by score",
    sql: q3,
    params: p3,
    engine: viaEngine(q3, p3),
    sqlite: viaSqlite(q3, p3),
    loop: (i) => {
      const city = p3(i)[0];
      const out: User[] = [];
      for (const u of users) if (u.note !== null && u.city === city) out.push(u);
      out.sort((a, b) => b.score - a.score);
      return out.slice(0, 20).length;
    },
  },
  {
    name: "Q4 join on user_id",
    sql: q4,
    params: p3,
    engine: viaEngine(q4, p3),
    sqlite: viaSqlite(q4, p3),
    loop: usersOrdersLoop,
  },
  {
    name: "Q5 count of filtered scan",
    sql: q5,
    params: p5,
    engine: viaEngine(q5, p5),
    sqlite: ((s) => (i: number) => (s.get(...p5(i)) as { n: number }).n)(db.prepare("SELECT COUNT(*) AS n FROM users WHERE age >= ? AND score < ?")),
    loop: (i) => {
      const [age, score] = p5(i) as [number, number];
      let n = 0;
      for (const u of users) if (u.age >= age && u.score < score) n++;
      return n;
    },
    columnLoop: (i) => {
      const [age, score] = p5(i) as [number, number];
      const ages = userColumns[3] as Float64Array;
      const scores = userColumns[6] as Float64Array;
      let n = 0;
      for (let k = 0; k < userRows.length; k++) {
        const r = userRows[k] as number;
        // A NULL number is NaN, and no comparison with NaN is true.
        if ((ages[r] as number) >= age && (scores[r] as number) < score) n++;
      }
      return n;
    },
  },
  {
    name: "Q6 page of 20, JSON",
    sql: q6,
    params: p6,
    engine: pageJson,
    sqlite: viaSqlite(q6, p6),
    loop: (i) => {
      const offset = p6(i)[0] as number;
      return users.slice(offset, offset + 20).length;
    },
  },
  {
    name: "Q7 score BETWEEN (~1%)",
    sql: q7,
    params: p7,
    engine: viaEngine(q7, p7),
    sqlite: viaSqlite(q7, p7),
    loop: (i) => {
      const [low, high] = p7(i) as [number, number];
      const out: User[] = [];
      for (const u of users) if (u.score >= low && u.score <= high) out.push(u);
      return out.length;
    },
  },
  {
    name: "Q8 ORDER BY score DESC LIMIT 20",
    sql: q8,
    params: noParams,
    engine: viaEngine(q8, noParams),
    sqlite: ((s) => () => s.all().length)(db.prepare(q8)),
    loop: () => {
      // The best 20 in one pass, kept sorted descending.
      const top: User[] = [];
      for (const u of users) {
        if (top.length === 20 && (top[19] as User).score >= u.score) continue;
        let at = Math.min(top.length, 19);
        while (at > 0 && (top[at - 1] as User).score < u.score) at--;
        top.splice(at, 0, u);
        if (top.length > 20) top.pop();
      }
      return top.length;
    },
  },
  {
    name: "Q9 GROUP BY city: count, avg",
    sql: q9,
    params: none,
    engine: viaEngine(q9, none),
    sqlite: ((s) => () => s.all().length)(db.prepare(q9)),
    loop: () => {
      const groups = new Map<string, { n: number; sum: number }>();
      for (const u of users) {
        const g = groups.get(u.city);
        if (g) {
          g.n++;
          g.sum += u.score;
        } else groups.set(u.city, { n: 1, sum: u.score });
      }
      return [...groups.values()].map((g) => g.sum / g.n).length;
    },
  },
  {
    name: "Q10 HAVING sum(amount) > ?",
    sql: q10,
    params: p10,
    engine: viaEngine(q10, p10),
    sqlite: viaSqlite(q10, p10),
    loop: (i) => {
      const min = p10(i)[0] as number;
      const sums = new Map<string, number>();
      for (const o of orders) sums.set(o.user_id, (sums.get(o.user_id) ?? 0) + o.amount);
      let n = 0;
      for (const total of sums.values()) if (total > min) n++;
      return n;
    },
  },
  {
    name: "Q11 count(DISTINCT user_id)",
    sql: q11,
    params: p11,
    engine: (i) => ((engine.execute({ kind: "sql", sql: q11, params: p11(i) }).result as RowsResult).rows[0] as { n: number }).n,
    sqlite: ((s) => (i: number) => (s.get(...p11(i)) as { n: number }).n)(db.prepare(q11)),
    loop: (i) => {
      const status = p11(i)[0];
      const seen = new Set<string>();
      for (const o of orders) if (o.status === status) seen.add(o.user_id);
      return seen.size;
    },
  },
  {
    name: "Q12 IN (SELECT …) semi-join",
    sql: q12,
    params: p12,
    engine: viaEngine(q12, p12),
    sqlite: viaSqlite(q12, p12),
    loop: (i) => {
      const min = p12(i)[0] as number;
      const ids = new Set<string>();
      for (const o of orders) if (o.amount > min) ids.add(o.user_id);
      const out: string[] = [];
      for (const u of users) if (ids.has(u.id)) out.push(u.id);
      return out.length;
    },
  },
  {
    name: "Q13 correlated EXISTS",
    sql: q13,
    params: p13,
    engine: viaEngine(q13, p13),
    sqlite: viaSqlite(q13, p13),
    loop: (i) => {
      const [city, min] = p13(i) as [string, number];
      const out: string[] = [];
      for (const u of users) if (u.city === city && (ordersByUser.get(u.id) ?? []).some((o) => o.amount > min)) out.push(u.id);
      return out.length;
    },
  },
  {
    name: "Q14 WITH: join per-user totals",
    sql: q14,
    params: p3,
    engine: viaEngine(q14, p3),
    sqlite: viaSqlite(q14, p3),
    loop: (i) => {
      const city = p3(i)[0];
      const totals = new Map<string, number>();
      for (const o of orders) totals.set(o.user_id, (totals.get(o.user_id) ?? 0) + o.amount);
      const out: { name: string; total: number }[] = [];
      for (const u of users) {
        const total = totals.get(u.id);
        if (u.city === city && total !== undefined) out.push({ name: u.name, total });
      }
      return out.length;
    },
  },
  {
    name: "Q15 UNION of two reads",
    sql: q15,
    params: p15,
    engine: viaEngine(q15, p15),
    sqlite: viaSqlite(q15, p15),
    loop: (i) => {
      const [city, min] = p15(i) as [string, number];
      const ids = new Set<string>();
      for (const u of users) if (u.city === city) ids.add(u.id);
      for (const o of orders) if (o.amount > min) ids.add(o.user_id);
      return ids.size;
    },
  },
  {
    name: "Q16 window: rank by score",
    sql: q16,
    params: p3,
    engine: viaEngine(q16, p3),
    sqlite: viaSqlite(q16, p3),
    loop: (i) => {
      const city = p3(i)[0];
      const chosen = users.filter((u) => u.city === city).sort((a, b) => b.score - a.score);
      const out: { id: string; r: number }[] = [];
      chosen.forEach((u, k) => out.push({ id: u.id, r: k > 0 && chosen[k - 1]!.score === u.score ? out[k - 1]!.r : k + 1 }));
      return out.length;
    },
  },
  {
    name: "Q17 window: running sum per user",
    sql: q17,
    params: p17,
    engine: viaEngine(q17, p17),
    sqlite: viaSqlite(q17, p17),
    loop: (i) => {
      const status = p17(i)[0];
      // Orders come in id order, so each user's running total is a sum as they come.
      const totals = new Map<string, number>();
      const out: { user_id: string; amount: number; running: number }[] = [];
      for (const o of orders) {
        if (o.status !== status) continue;
        const running = (totals.get(o.user_id) ?? 0) + o.amount;
        totals.set(o.user_id, running);
        out.push({ user_id: o.user_id, amount: o.amount, running });
      }
      return out.length;
    },
  },
  {
    name: "Q18 comma join on user_id",
    sql: q18,
    params: p3,
    engine: viaEngine(q18, p3),
    sqlite: viaSqlite(q18, p3),
    loop: usersOrdersLoop,
  },
  {
    name: "Q19 RIGHT JOIN, WHERE on the left key",
    sql: q19,
    params: p1,
    engine: viaEngine(q19, p1),
    sqlite: viaSqlite(q19, p1),
    loop: (i) => {
      const user = usersById.get(p1(i)[0] as string);
      return user === undefined ? 0 : (ordersByUser.get(user.id) ?? []).map((o) => ({ name: user.name, amount: o.amount })).length;
    },
  },
  {
    name: "Q20 FULL JOIN, WHERE on the left",
    sql: q20,
    params: p3,
    engine: viaEngine(q20, p3),
    sqlite: viaSqlite(q20, p3),
    loop: (i) => {
      const city = p3(i)[0];
      const out: { name: string; amount: number | null }[] = [];
      for (const u of users) {
        if (u.city !== city) continue;
        const mine = ordersByUser.get(u.id) ?? [];
        if (mine.length === 0) out.push({ name: u.name, amount: null });
        for (const o of mine) out.push({ name: u.name, amount: o.amount });
      }
      return out.length;
    },
  },
  {
    name: "Q21 LEFT JOIN, WHERE on the right, LIMIT 20",
    sql: q21,
    params: p21,
    engine: viaEngine(q21, p21),
    sqlite: viaSqlite(q21, p21),
    loop: (i) => {
      const amount = p21(i)[0] as number;
      const out: { name: string; amount: number }[] = [];
      for (const u of users) {
        for (const o of ordersByUser.get(u.id) ?? []) if (o.amount > amount && out.length < 20) out.push({ name: u.name, amount: o.amount });
        if (out.length === 20) break;
      }
      return out.length;
    },
  },
  {
    name: "Q22 city IS ?",
    sql: q22,
    params: p3,
    engine: viaEngine(q22, p3),
    sqlite: viaSqlite(q22, p3),
    loop: (i) => {
      const city = p3(i)[0];
      const out: { id: string; name: string }[] = [];
      for (const u of users) if (u.city === city) out.push({ id: u.id, name: u.name });
      return out.length;
    },
  },
  {
    name: "Q23 json_each(?) count, 5 MB array",
    sql: q23,
    params: p23,
    engine: engineCount(q23, p23),
    sqlite: sqliteCount(q23, p23),
    loop: (i) => (JSON.parse(json.arrays[i % 2]!) as unknown[]).length,
  },
  {
    name: "Q24 json_each(?) WHERE type AND value",
    sql: q24,
    params: p24,
    engine: engineCount(q24, p24),
    sqlite: sqliteCount(q24, p24),
    loop: (i) => {
      const min = p24(i)[1] as number;
      let n = 0;
      for (const v of JSON.parse(json.arrays[i % 2]!) as unknown[]) if (typeof v === "number" && Number.isInteger(v) && v > min) n++;
      return n;
    },
  },
  {
    name: "Q25 json_tree(?) nested, WHERE type",
    sql: q25,
    params: p25,
    engine: viaEngine(q25, p25),
    sqlite: viaSqlite(q25, p25),
    loop: (i) => {
      let n = 0;
      treeValues(JSON.parse(json.nested[i % 2]!), (_v, real) => (n += real ? 1 : 0));
      return n;
    },
  },
  {
    name: "Q26 lateral json_each(docs.tags) count",
    sql: q26,
    params: none,
    engine: engineCount(q26, none),
    sqlite: sqliteCount(q26, none),
    loop: () => {
      let n = 0;
      for (const tags of tagTexts) n += (JSON.parse(tags) as unknown[]).length;
      return n;
    },
  },
  {
    name: "Q27 lateral json_each GROUP BY value",
    sql: q27,
    params: none,
    engine: viaEngine(q27, none),
    sqlite: viaSqlite(q27, none),
    loop: () => {
      const counts = new Map<unknown, number>();
      for (const tags of tagTexts) for (const t of JSON.parse(tags) as unknown[]) counts.set(t, (counts.get(t) ?? 0) + 1);
      return counts.size;
    },
  },
  {
    name: "Q28 lateral json_each(doc, '$.items') WHERE",
    sql: q28,
    params: p28,
    engine: engineCount(q28, p28),
    sqlite: sqliteCount(q28, p28),
    loop: (i) => {
      const min = p28(i)[0] as number;
      let n = 0;
      for (const doc of docTexts) for (const v of (JSON.parse(doc) as { items: number[] }).items) if (v > min) n++;
      return n;
    },
  },
];

/** Best and median µs per call over interleaved slices of ~`sliceMs`. */
function measure(peers: readonly Peer[], sliceMs: number, slices: number): { us: number[]; median: number[]; checksum: number } {
  const samples: number[][] = peers.map(() => []);
  let checksum = 0;
  let i = 0;
  for (let s = 0; s < slices; s++) {
    peers.forEach((peer, k) => {
      let calls = 0;
      const start = performance.now();
      let now = start;
      while (now - start < sliceMs) {
        checksum = (checksum + peer(i++)) % 1_000_000_007;
        calls++;
        if ((calls & 7) === 0 || calls < 8) now = performance.now();
      }
      (samples[k] as number[]).push(((now - start) * 1000) / calls);
    });
  }
  const sorted = samples.map((xs) => xs.sort((a, b) => a - b));
  return { us: sorted.map((xs) => xs[0] as number), median: sorted.map((xs) => xs[Math.floor(xs.length / 2)] as number), checksum };
}

console.log(`dataset: ${USERS} users, ${ORDERS} orders; load: storedb ${engineLoadMs.toFixed(0)} ms, better-sqlite3 ${sqliteLoadMs.toFixed(0)} ms`);
const header = ["query", "storedb µs", "sqlite µs", "loop µs", "sqlite/storedb", "storedb/loop", "column loop µs", "storedb/column loop", "median s/l/loop µs", "rows"];
const lines: string[][] = [];
let total = 0;
// BENCH_EXECUTOR=Q19,Q21 runs only the queries whose names start so.
const only = process.env["BENCH_EXECUTOR"]?.split(",");
for (const q of queries) {
  if (only !== undefined && !only.some((prefix) => q.name.startsWith(`${prefix} `))) continue;
  // Same answers from all three peers on a few parameter sets.
  for (let i = 0; i < 5; i++) {
    const counts = [q.engine(i), q.sqlite(i), q.loop(i), (q.columnLoop ?? q.loop)(i)];
    if (counts.some((c) => c !== counts[0])) throw new Error(`${q.name}: peers disagree on row counts ${counts.join("/")}`);
  }
  // 200 calls of each to warm up, or as many as fit in ~2 s (a call over a large document takes tens of milliseconds).
  const warmStart = performance.now();
  for (let w = 0; w < 200 && performance.now() - warmStart < 2000; w++) q.engine(w), q.loop(w);
  const peers = q.columnLoop ? [q.engine, q.sqlite, q.loop, q.columnLoop] : [q.engine, q.sqlite, q.loop];
  const { us, median, checksum } = measure(peers, 100, 9);
  total = (total + checksum) % 1_000_000_007;
  const [e, s, l, a] = us as [number, number, number, number | undefined];
  const medians = median.slice(0, 3).map((m) => m.toFixed(1)).join(" / ");
  const arrays = a === undefined ? ["-", "-"] : [a.toFixed(2), `${(e / a).toFixed(2)}x`];
  lines.push([q.name, e.toFixed(2), s.toFixed(2), l.toFixed(2), `${(s / e).toFixed(2)}x`, `${(e / l).toFixed(2)}x`, ...arrays, medians, String(q.engine(0))]);
}
const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => (l[c] as string).length)));
const fmt = (cells: readonly string[]): string => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c] as number) : x.padStart(widths[c] as number))).join("  ");
console.log(fmt(header));
for (const l of lines) console.log(fmt(l));
console.log(`best slice per peer; sqlite/storedb > 1 means storedb is faster; storedb/loop is the cost over a hand-written loop.`);
console.log(`checksum ${total}`);
