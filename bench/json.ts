/**
 * JSON benchmark: SQLite's JSON functions in storedb and in better-sqlite3
 * (in memory), side by side in one process, over one seeded table of 100k
 * documents (~190 bytes each: a few scalars, a nested object, an array, a
 * string with an escape) in a text column. Each query reads every row;
 * peers run in turns and the best turn's CPU time is kept (the median is
 * shown too): on a shared machine, CPU time is what a peer's own work
 * costs, where wall time also counts other processes. A checksum of the answers keeps the work
 * observable, and the peers must agree on it.
 *
 *   J1  SELECT json_extract(doc, '$.address.city') FROM docs        (one value, nested)
 *   J2  SELECT id FROM docs WHERE doc ->> 'age' > ?                  (a filter on a value read)
 *   J3  SELECT doc -> 'tags' FROM docs                               (JSON text out)
 *   J4  SELECT json_extract(doc, '$.note') FROM docs                 (the last member: the whole text walked)
 *   J5  SELECT json_array_length(doc, '$.tags'), json_type(doc, '$.score') FROM docs
 *   J6  SELECT doc ->> 'name', doc ->> 'age', doc ->> '$.address.city' FROM docs   (three values of each document)
 */
import { createRequire } from "node:module";
import { Engine } from "../src/catalog/engine.js";
import type { RowsResult } from "../src/commands/results.js";
import type { Value } from "../src/commands/types.js";

interface Statement {
  raw(): { all(...params: unknown[]): unknown[][] };
}
interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): Statement & { run(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

const ROWS = 100_000;
let seed = 20261129;
const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const CITIES = ["Paris", "Berlin", "Rome", "Lisbon", "Oslo", "Dublin", "Vienna", "Prague"];

const docs = Array.from({ length: ROWS }, (_, id) =>
  JSON.stringify({
    id,
    name: `user ${id}`,
    age: Math.floor(random() * 80),
    active: random() < 0.5,
    score: Math.round(random() * 10000) / 100,
    address: { city: CITIES[Math.floor(random() * CITIES.length)], zip: String(10000 + Math.floor(random() * 89999)) },
    tags: ["a", "b", "c"].slice(0, 1 + Math.floor(random() * 3)),
    note: random() < 0.2 ? null : `said "hi" on day ${id % 365}`,
  }),
);

const engine = Engine.empty();
engine.execute({ kind: "sql", sql: "CREATE TABLE docs (id INTEGER PRIMARY KEY, doc TEXT)" });
engine.execute({ kind: "insert", table: "docs", rows: docs.map((doc, id) => ({ id, doc })) });
const db = new Database(":memory:");
db.exec("CREATE TABLE docs (id INTEGER PRIMARY KEY, doc TEXT)");
const insert = db.prepare("INSERT INTO docs VALUES (?, ?)");
db.transaction(() => docs.forEach((doc, id) => insert.run(BigInt(id), doc)))();

/** A checksum of an answer: its row count and the lengths of its values, as text (storedb's booleans as SQLite's 1/0). */
function checksum(rows: readonly (readonly unknown[])[]): number {
  let sum = rows.length;
  for (const row of rows) for (const v of row) sum = (sum + String(typeof v === "boolean" ? Number(v) : v).length) % 1_000_000_007;
  return sum;
}

type Peer = () => number;

function storedb(sql: string, params: Value[]): Peer {
  return () => {
    const result = engine.execute({ kind: "sql", sql, params }).result as RowsResult;
    return checksum((result.rows as Record<string, Value>[]).map((r) => result.columns.map((c) => r[c])));
  };
}

function sqlite(sql: string, params: Value[]): Peer {
  const statement = db.prepare(sql).raw();
  return () => checksum(statement.all(...params));
}

const QUERIES: readonly [string, string, Value[]][] = [
  ["J1 json_extract, nested", "SELECT json_extract(doc, '$.address.city') FROM docs", []],
  ["J2 ->> in WHERE", "SELECT id FROM docs WHERE doc ->> 'age' > ?", [60]],
  ["J3 -> an array", "SELECT doc -> 'tags' FROM docs", []],
  ["J4 the last member", "SELECT json_extract(doc, '$.note') FROM docs", []],
  ["J5 length and type", "SELECT json_array_length(doc, '$.tags'), json_type(doc, '$.score') FROM docs", []],
  ["J6 three values", "SELECT doc ->> 'name', doc ->> 'age', doc ->> '$.address.city' FROM docs", []],
];

/** Best and median CPU ms per call, the peers taking turns. */
function measure(peers: readonly Peer[], turns: number): { best: number[]; median: number[] } {
  const samples: number[][] = peers.map(() => []);
  for (let s = 0; s < turns; s++) {
    peers.forEach((peer, k) => {
      const start = process.cpuUsage();
      peer();
      const used = process.cpuUsage(start);
      samples[k]!.push((used.user + used.system) / 1000);
    });
  }
  const sorted = samples.map((xs) => xs.sort((a, b) => a - b));
  return { best: sorted.map((xs) => xs[0]!), median: sorted.map((xs) => xs[Math.floor(xs.length / 2)]!) };
}

console.log(`${ROWS} documents, ~${Math.round(docs.reduce((n, d) => n + d.length, 0) / ROWS)} characters each`);
const header = ["query", "storedb CPU ms", "sqlite CPU ms", "storedb/sqlite", "median storedb/sqlite ms"];
const lines: string[][] = [];
for (const [name, sql, params] of QUERIES) {
  const peers = [storedb(sql, params), sqlite(sql, params)];
  const [a, b] = peers.map((p) => p());
  if (a !== b) throw new Error(`${name}: the peers disagree (checksums ${a} and ${b})`);
  const { best, median } = measure(peers, 15);
  lines.push([name, best[0]!.toFixed(1), best[1]!.toFixed(1), `${(best[0]! / best[1]!).toFixed(2)}x`, `${median[0]!.toFixed(1)} / ${median[1]!.toFixed(1)}`]);
}
const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
const fmt = (cells: readonly string[]): string => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join("  ");
console.log(fmt(header));
for (const line of lines) console.log(fmt(line));
