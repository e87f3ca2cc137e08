/**
 * Recursive WITH tables against better-sqlite3 (in memory, same rows and
 * indexes), interleaved round by round in one process, on seeded generated
 * tables: `tree` (100k rows: id, parent — a forest of 100 roots, each
 * node's parent an earlier node — with an index on parent), `graph`
 * (100k edges src → dst over 20k nodes, five out of each, cycles
 * everywhere, no index) and
 * `chain` (20k rows, each the child of the one before, no index).
 *
 *   R1  a counter to 1,000,000 (count and sum of it)
 *   R2  the forest walked down from its roots, the recursive table driving the join (tree's index on parent)
 *   R3  the same walk written FROM tree JOIN the recursive table (storedb drives it from the recursive table)
 *   R4  what a node of the graph reaches (UNION: each node once, round the cycles)
 *   R5  the chain walked with its joined table unindexed (a hash kept across steps)
 *   R6  the first 10 rows of an unending counter (a LIMIT over it stops it)
 *   R7  R5 written FROM chain LEFT JOIN tree … JOIN r (storedb moves r first past the LEFT JOIN; it scanned chain per step)
 *
 * Each query's answer is reduced to a checksum both engines must agree on;
 * the best and the median round are shown per engine, and the ratio of
 * the medians.
 */
import { createRequire } from "node:module";
import { Engine } from "../src/catalog/engine.js";
import type { RowsResult } from "../src/commands/results.js";
import type { Value } from "../src/commands/types.js";

interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): { raw(): { all(...params: unknown[]): unknown[][] }; run(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
}
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

let seed = 20261129;
const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const int = (n: number): number => Math.floor(next() * n);

const TREE = 100_000;
const GRAPH_NODES = 20_000;
const CHAIN = 20_000;
const tables: readonly { name: string; columns: readonly string[]; rows: readonly (readonly number[])[]; index?: string }[] = [
  { name: "tree", columns: ["id", "parent"], rows: Array.from({ length: TREE }, (_, i) => [i + 1, i < 100 ? -1 : 1 + int(i)]), index: "parent" },
  { name: "graph", columns: ["id", "src", "dst"], rows: Array.from({ length: 100_000 }, (_, i) => [i + 1, 1 + (i % GRAPH_NODES), 1 + int(GRAPH_NODES)]) },
  { name: "chain", columns: ["id", "parent"], rows: Array.from({ length: CHAIN }, (_, i) => [i + 1, i]) },
];

const engine = Engine.empty();
const db = new Sqlite(":memory:");
for (const t of tables) {
  const columns = Object.fromEntries(t.columns.map((c) => [c, "integer" as const]));
  const indexes = t.index === undefined ? [] : [{ name: `${t.name}_${t.index}`, columns: [t.index] }];
  engine.execute({ kind: "create-table", schema: { name: t.name, columns, primary_key: { columns: ["id"] }, indexes } });
  engine.execute({ kind: "insert", table: t.name, rows: t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c, row[i]!]))) });
  db.exec(`CREATE TABLE ${t.name} (${t.columns.map((c) => `${c} INTEGER${c === "id" ? " PRIMARY KEY" : ""}`).join(", ")})`);
  if (t.index !== undefined) db.exec(`CREATE INDEX ${t.name}_${t.index} ON ${t.name} (${t.index})`);
  const insert = db.prepare(`INSERT INTO ${t.name} VALUES (${t.columns.map(() => "?").join(", ")})`);
  db.transaction(() => {
    for (const row of t.rows) insert.run(...row);
  })();
}

const queries: readonly { readonly id: string; readonly sql: string }[] = [
  { id: "R1 counter to 1M", sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*), sum(x) FROM c" },
  {
    id: "R2 forest walk, r JOIN tree",
    sql: "WITH RECURSIVE sub(id, depth) AS (SELECT id, 0 FROM tree WHERE parent = -1 UNION ALL SELECT t.id, sub.depth + 1 FROM sub JOIN tree t ON t.parent = sub.id) SELECT count(*), sum(depth), sum(id * depth % 1000) FROM sub",
  },
  {
    id: "R3 forest walk, tree JOIN r",
    sql: "WITH RECURSIVE sub(id, depth) AS (SELECT id, 0 FROM tree WHERE parent = -1 UNION ALL SELECT t.id, sub.depth + 1 FROM tree t JOIN sub ON t.parent = sub.id) SELECT count(*), sum(depth), sum(id * depth % 1000) FROM sub",
  },
  { id: "R4 graph reach, UNION", sql: "WITH RECURSIVE reach(node) AS (SELECT 1 UNION SELECT g.dst FROM reach JOIN graph g ON g.src = reach.node) SELECT count(*), sum(node) FROM reach" },
  {
    id: "R5 chain walk, no index",
    sql: "WITH RECURSIVE r(n, d) AS (SELECT 0, 0 UNION ALL SELECT c.id, r.d + 1 FROM r JOIN chain c ON c.parent = r.n) SELECT count(*), sum(d) FROM r",
  },
  { id: "R6 LIMIT 10 of an unending counter", sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 10" },
  {
    id: "R7 chain walk, LEFT JOIN before r",
    sql: "WITH RECURSIVE r(n, d, k) AS (SELECT 0, 0, 0 UNION ALL SELECT c.id, r.d + 1, coalesce(t.parent, -1) FROM chain c LEFT JOIN tree t ON t.id = c.id * 7 JOIN r ON c.parent = r.n) SELECT count(*), sum(d), sum(k) FROM r",
  },
];

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const only = process.env.BENCH_RECURSIVE;

function checksum(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows.map((row) => row.map((v) => (typeof v === "bigint" ? Number(v) : v))));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log("query                                   storedb best/median ms   SQLite best/median ms   ratio   checksum");
for (const q of queries) {
  if (only !== undefined && !q.id.startsWith(only)) continue;
  const ours: number[] = [];
  const theirs: number[] = [];
  const sqlite = db.prepare(q.sql);
  const sums: [string, string] = ["", ""];
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    const result = engine.execute({ kind: "sql", sql: q.sql, params: [] }).result as RowsResult;
    ours.push(performance.now() - start);
    sums[0] = checksum((result.rows as Record<string, Value>[]).map((row) => result.columns.map((c) => row[c])));
    start = performance.now();
    const rows = sqlite.raw().all();
    theirs.push(performance.now() - start);
    sums[1] = checksum(rows);
  }
  if (sums[0] !== sums[1]) throw new Error(`${q.id}: storedb ${sums[0]} but SQLite ${sums[1]}`);
  const [a, b] = [median(ours), median(theirs)];
  const fmt = (xs: number[], m: number): string => `${Math.min(...xs).toFixed(2)} / ${m.toFixed(2)}`.padStart(16);
  console.log(`${q.id.padEnd(40)}${fmt(ours, a)}         ${fmt(theirs, b)}        ${(a / b).toFixed(2)}x   ${sums[0].slice(0, 40)}`);
}
