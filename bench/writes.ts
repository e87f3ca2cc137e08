/**
 * Writes benchmark (issue 16), storedb against SQLite side by side:
 *
 * 1. A 10-statement transaction over HTTP: storedb's `transaction` command
 *    (ten `sql` steps `UPDATE accounts SET balance = balance + ? WHERE id =
 *    ?`, one durable journal record) against fastify + better-sqlite3
 *    running the same ten statements, prepared, in one SQLite transaction
 *    (file, WAL, synchronous=FULL, so both commit durably). autocannon, 64
 *    connections, the same request bodies to both; every round starts both
 *    servers afresh (a process serves one round) and the order alternates.
 *    Figures: transactions/s and server CPU µs per transaction (median of
 *    the rounds). Target: storedb ahead.
 * 2. `INSERT … ON CONFLICT (id) DO UPDATE SET n = n + excluded.n` of 1,000
 *    rows (half new, half updating) in one command, in process: storedb's
 *    `Database` on a file against better-sqlite3 on a file (WAL, FULL), the
 *    same SQL text, prepared once, rounds interleaved. Figure: ms per
 *    command (median). Target: storedb within 1.5x of SQLite. Beside them,
 *    in the same rounds, the bound of this design: the same command on a
 *    `Database.memory()`, and a bare O_DSYNC write of as many bytes as
 *    storedb's journal record (over preallocated space, through the thread
 *    pool, as the journal writes).
 *
 * Both end by comparing the engines' final rows (a checksum is printed);
 * the HTTP part also checks one answer of each server first.
 * `BENCH_WRITES=transaction` or `=upsert` runs one part alone.
 */

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { constants, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer, root } from "../scripts/bundle.mjs";
import { cpuMs, post, stop, type Server } from "./servers.js";
import { Database } from "../src/database.js";

const ACCOUNTS = 1_000;
const STEPS = 10;
const UPSERT_ROWS = 1_000;
const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PART = process.env.BENCH_WRITES;
/** The upsert is short: many more rounds of it than of the HTTP runs. */
const UPSERT_ROUNDS = ROUNDS * 8;
const here = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);

const MOVE = "UPDATE accounts SET balance = balance + ? WHERE id = ?";

interface SqliteDb {
  pragma(text: string): unknown;
  exec(text: string): void;
  prepare(text: string): { run(...params: unknown[]): unknown; raw(): { all(...params: unknown[]): unknown[][] } };
  transaction<T extends (...args: never[]) => unknown>(fn: T): T;
  close(): void;
}
const Sqlite = require("better-sqlite3") as new (file: string) => SqliteDb;

function sqliteFile(file: string): SqliteDb {
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  return db;
}

/** Ten moves that sum to zero: account `a` gives 9 times, nine others take one each. */
function transactionBody(): unknown {
  const from = Math.floor(Math.random() * ACCOUNTS);
  const commands = Array.from({ length: STEPS }, (_, i) => {
    const id = i === 0 ? from : (from + i * 37) % ACCOUNTS;
    return { kind: "sql", sql: MOVE, params: [i === 0 ? -(STEPS - 1) : 1, id] };
  });
  return { database: "bench", command: { kind: "transaction", commands } };
}

// ---------------------------------------------------------------- the SQLite peer (child mode)

interface SqlStep {
  sql: string;
  params: number[];
}

async function serveSqlite(port: number, dir: string): Promise<void> {
  const { default: Fastify } = await import("fastify");
  const db = sqliteFile(path.join(dir, "bench.sqlite"));
  db.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO accounts (id, balance) VALUES (?, ?)");
  db.transaction(() => {
    for (let id = 0; id < ACCOUNTS; id++) insert.run(id, 100);
  })();
  const statements = new Map<string, ReturnType<SqliteDb["prepare"]>>();
  const prepared = (sql: string) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!;
  const run = db.transaction((steps: SqlStep[]) => steps.map((step) => (prepared(step.sql).run(...step.params) as { changes: number }).changes));
  const app = Fastify({ logger: false });
  app.post("/v1/commands", async (request) => {
    const { command } = request.body as { command: { kind: string; commands?: SqlStep[]; sql?: string } };
    if (command.kind === "sql") return { kind: "rows", columns: ["id", "balance"], rows: prepared(command.sql!).raw().all(), rowCount: ACCOUNTS };
    const changes = run(command.commands!);
    return { kind: "transaction", results: changes.map((n) => ({ kind: "mutation", operation: "update", table: "accounts", rowsAffected: n })) };
  });
  await app.listen({ host: "127.0.0.1", port });
  process.send?.("ready");
}

// ---------------------------------------------------------------- servers and load


async function startSqlite(port: number, dir: string): Promise<Server> {
  const child = spawn(process.execPath, ["--import", "tsx", here, "serve-sqlite", String(port), dir], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`sqlite peer exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function startStoredb(bundle: string, port: number, dir: string): Promise<Server> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, NODE_ENV: "production", STORE_DATA_PATH: dir, STORE_PORT: String(port), STORE_LOG_LEVEL: "warn" },
    stdio: ["ignore", openSync(`${dir}.log`, "w"), "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) {
      await post(url, { database: "bench", command: { kind: "sql", sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)" } });
      await post(url, { database: "bench", command: { kind: "insert", table: "accounts", rows: Array.from({ length: ACCOUNTS }, (_, id) => ({ id, balance: 100 })) } });
      return { child, url };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("storedb did not start");
}




interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
const autocannon = require("autocannon") as (options: Record<string, unknown>) => Promise<AutocannonResult>;

interface Run {
  readonly perSecond: number;
  readonly cpuUs: number;
  readonly bad: number;
}

async function measure(server: Server): Promise<Run> {
  const before = cpuMs(server.child.pid!);
  const result = await autocannon({
    url: `${server.url}/v1/commands`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ method: "POST", headers: { "content-type": "application/json" }, setupRequest: (r: Record<string, unknown>) => ({ ...r, body: JSON.stringify(transactionBody()) }) }],
  });
  const used = cpuMs(server.child.pid!) - before;
  return { perSecond: result.requests.average, cpuUs: (used * 1000) / Math.max(1, result.requests.total), bad: result.non2xx + result.errors };
}

/** The balances a server holds, hashed; they must sum to the start (every transaction moves zero in total). */
async function balances(server: Server, hash: ReturnType<typeof createHash>): Promise<number> {
  const text = await post(server.url, { database: "bench", command: { kind: "sql", sql: "SELECT id, balance FROM accounts ORDER BY id" } });
  const rows = (JSON.parse(text) as { rows: (Record<string, number> | number[])[] }).rows.map((row) => (Array.isArray(row) ? row[1]! : row.balance!));
  hash.update(String(rows.length));
  return rows.reduce((sum, balance) => sum + balance, 0);
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function httpTransactions(hash: ReturnType<typeof createHash>): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-writes-"));
  const outfile = path.join(root, ".tmp", "bench-writes", "server.js");
  mkdirSync(path.dirname(outfile), { recursive: true });
  await buildServer(outfile);
  const runs: Record<"storedb" | "sqlite", Run[]> = { storedb: [], sqlite: [] };
  let port = 20_000 + Math.floor(Math.random() * 20_000);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order: ("storedb" | "sqlite")[] = round % 2 === 0 ? ["storedb", "sqlite"] : ["sqlite", "storedb"];
      for (const who of order) {
        const dir = path.join(scratch, `${who}-${round}`);
        mkdirSync(dir);
        const server = who === "storedb" ? await startStoredb(outfile, port++, dir) : await startSqlite(port++, dir);
        try {
          await post(server.url, transactionBody());
          runs[who].push(await measure(server));
          const sum = await balances(server, hash);
          if (sum !== ACCOUNTS * 100) throw new Error(`${who}: balances sum to ${sum}, not ${ACCOUNTS * 100}`);
        } finally {
          await stop(server);
        }
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(path.dirname(outfile), { recursive: true, force: true });
  }
  const line = (who: "storedb" | "sqlite") =>
    `${who.padEnd(32)} ${median(runs[who].map((r) => r.perSecond)).toFixed(0).padStart(8)} tx/s  ${median(runs[who].map((r) => r.cpuUs)).toFixed(0).padStart(6)} µs CPU/tx`;
  console.log(`10-statement transaction over HTTP, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s (fresh processes per round)`);
  console.log(line("storedb"));
  console.log(line("sqlite").replace("sqlite".padEnd(32), "fastify + better-sqlite3 (FULL)".padEnd(32)));
  const ratio = median(runs.storedb.map((r, i) => r.perSecond / runs.sqlite[i]!.perSecond));
  const bad = [...runs.storedb, ...runs.sqlite].reduce((sum, r) => sum + r.bad, 0);
  console.log(`target: storedb ahead — ${ratio.toFixed(2)}x the peer's transactions/s (median of the rounds' ratios); non-2xx + errors = ${bad}`);
}

// ---------------------------------------------------------------- 1,000-row upsert, in process

const UPSERT = `INSERT INTO counters (id, n) VALUES ${Array.from({ length: UPSERT_ROWS }, () => "(?, ?)").join(", ")} ON CONFLICT (id) DO UPDATE SET n = n + excluded.n`;

/** Rows whose ids are half taken (the even ones, seeded below) and half new on the first run; later runs update all. */
function upsertParams(round: number): number[] {
  const params: number[] = [];
  for (let i = 0; i < UPSERT_ROWS; i++) params.push(round * UPSERT_ROWS + i, 1);
  return params;
}

type Upserter = "storedb" | "sqlite" | "memory" | "floor";

/** A file of `bytes` zeros, durable, opened O_DSYNC: what the journal's preallocated space is. */
async function floorFile(file: string, bytes: number): Promise<FileHandle> {
  const created = await open(file, "w");
  await created.write(Buffer.alloc(bytes), 0, bytes, 0);
  await created.sync();
  await created.close();
  return open(file, constants.O_WRONLY | constants.O_DSYNC);
}

async function upserts(hash: ReturnType<typeof createHash>): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-upsert-"));
  const ours = await Database.open(path.join(scratch, "bench.store"));
  const memory = Database.memory();
  const theirs = sqliteFile(path.join(scratch, "bench.sqlite"));
  const floor = await floorFile(path.join(scratch, "floor"), 64 << 20);
  try {
    for (const db of [ours, memory]) await db.sql("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    theirs.exec("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    // Half of every batch's ids exist already: batch k covers ids [k·1000, k·1000 + 1000), the seed every other id up to the end.
    const seedRows = Array.from({ length: (UPSERT_ROUNDS + 1) * UPSERT_ROWS / 2 }, (_, i) => ({ id: i * 2, n: 0 }));
    for (const db of [ours, memory]) await db.execute({ kind: "insert", table: "counters", rows: seedRows });
    const seed = theirs.prepare("INSERT INTO counters (id, n) VALUES (?, ?)");
    theirs.transaction(() => seedRows.forEach((row) => seed.run(row.id, row.n)))();
    const statement = theirs.prepare(UPSERT);
    const times: Record<Upserter, number[]> = { storedb: [], sqlite: [], memory: [], floor: [] };
    const cpu: Record<Upserter, number[]> = { storedb: [], sqlite: [], memory: [], floor: [] };
    const journalBytes = async (): Promise<number> => {
      const v = await ours.execute({ kind: "validate" });
      return v.kind === "validation" ? (v.journal?.bytes ?? 0) : 0;
    };
    // The floor writes as many bytes as storedb's journal record of the command took (measured in round 0, where storedb goes first).
    let record = 0;
    let at = 0;
    const all: Upserter[] = ["storedb", "sqlite", "memory", "floor"];
    for (let round = 0; round < UPSERT_ROUNDS; round++) {
      const params = upsertParams(round);
      const order = all.map((_, i) => all[(i + round) % all.length]!);
      if (round % 2 === 1) order.reverse();
      for (const who of order) {
        const before = round === 0 && who === "storedb" ? await journalBytes() : 0;
        const bytes = Buffer.alloc(record, 0x20);
        const started = process.hrtime.bigint();
        const used = process.cpuUsage();
        if (who === "storedb") await ours.sql(UPSERT, params);
        else if (who === "memory") await memory.sql(UPSERT, params);
        else if (who === "sqlite") statement.run(...params);
        else {
          await floor.write(bytes, 0, bytes.length, at);
          at += bytes.length;
        }
        times[who].push(Number(process.hrtime.bigint() - started) / 1e6);
        const spent = process.cpuUsage(used);
        cpu[who].push((spent.user + spent.system) / 1000);
        if (round === 0 && who === "storedb") record = (await journalBytes()) - before;
      }
    }
    const other = theirs.prepare("SELECT id, n FROM counters ORDER BY id").raw().all();
    for (const db of [ours, memory]) {
      const mine = await db.sql("SELECT id, n FROM counters ORDER BY id");
      const text = JSON.stringify(mine.kind === "rows" ? (mine.rows as Record<string, number>[]).map((r) => [r.id, r.n]) : []);
      if (text !== JSON.stringify(other)) throw new Error("the upserts left different rows");
      if (db === ours) hash.update(text);
    }
    const line = (label: string, who: Upserter) => `${label.padEnd(40)} ${median(times[who]).toFixed(2).padStart(8)} ms  ${median(cpu[who]).toFixed(2).padStart(8)} ms CPU`;
    const [a, b] = [median(times.storedb), median(times.sqlite)];
    console.log(`\nINSERT … ON CONFLICT (id) DO UPDATE of ${UPSERT_ROWS} rows in one command (half new), in process, files (WAL, FULL), ${UPSERT_ROUNDS} rounds`);
    console.log("(wall time includes each engine's fsync, which a busy disk stretches; CPU time, threads included, does not)");
    console.log(line("storedb (Database.sql)", "storedb"));
    console.log(line("better-sqlite3 (prepared)", "sqlite"));
    console.log(line("storedb in memory (Database.memory)", "memory"));
    console.log(line(`floor: one O_DSYNC write of ${record} B`, "floor"));
    console.log(`target: within 1.5x of SQLite — ${(a / b).toFixed(2)}x wall, ${(median(cpu.storedb) / median(cpu.sqlite)).toFixed(2)}x CPU`);
    console.log(`bound: in memory + the record's write = ${(median(times.memory) + median(times.floor)).toFixed(2)} ms, ${((median(times.memory) + median(times.floor)) / b).toFixed(2)}x SQLite`);
  } finally {
    await ours.close();
    await memory.close();
    await floor.close();
    theirs.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log("figures from a shared machine are provisional");
  const hash = createHash("sha256");
  if (PART !== "upsert") await httpTransactions(hash);
  if (PART !== "transaction") await upserts(hash);
  console.log(`checksum ${hash.digest("hex").slice(0, 16)}`);
}

if (process.argv[2] === "serve-sqlite") await serveSqlite(Number(process.argv[3]), process.argv[4]!);
else await main();
