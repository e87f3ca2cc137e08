/**
 * HTTP benchmark: storedb's service against the ceiling of its HTTP stack
 * and against a conventional peer, with autocannon on loopback.
 *
 * The servers are child processes, so the load generator (this process)
 * does not share their event loop:
 * - `bare`: a fastify route that parses the same JSON body and returns the
 *   same point-select answer from a constant — the most any fastify service
 *   can do on this machine.
 * - `sqlite`: fastify + better-sqlite3 answering the same point select with
 *   a prepared statement (file database, WAL, synchronous=FULL so its
 *   inserts are durable like ours).
 * - `storedb`: the real service (`src/server/main.ts`, bundled as
 *   `npm run build` does), default log level (one JSON line per request),
 *   on a scratch data directory; and once more with that line off
 *   (STORE_LOG_LEVEL=warn), since the peers log nothing.
 * Servers run on one core and the load generator on the other (`taskset`,
 * when present). Each run is bounded in time with 64 connections; ids are random over the
 * seeded table; point selects run in interleaved rounds (median and best,
 * plus the server's CPU time per request read from /proc, which a busy
 * machine disturbs less than throughput). Before timing, one answer of each
 * server is compared with storedb's and a checksum of the answers is printed.
 *
 * Every round starts every server afresh, and a process serves one round
 * only: identical servers in different processes settled at levels up to
 * ±6% apart here (four processes of one bare route: 16.5, 18.3, 16.8 and
 * 18.5 µs of CPU per request, each steady within itself), so rounds on one
 * process per server compared process draws, not servers.
 *
 * Both forms are measured, and each against the peers given the same request
 * bodies: the JSON form's body is bigger, and parsing it is the HTTP stack's
 * cost, not storedb's.
 *
 * storedb answers each form on both command routes, the envelope and the
 * path route (§12), measured on the same process per round in alternating
 * order: the two must cost the same within noise. Then the path route
 * through nginx (deploy/nginx.conf) against direct, again on one storedb
 * process per round, so the proxy's cost is known; and, in process, what
 * the metrics add per request against prom-client's own counting.
 *
 * Targets: storedb point selects ≥ 80% of `bare` and ahead of `sqlite`;
 * durable single-row inserts over 64 connections at ≥ 4x the rate of
 * `sqlite` (one transaction per request; issue 14); no non-2xx answers
 * anywhere.
 */

import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Counter, Histogram, Registry } from "prom-client";
import { buildServer, root } from "../scripts/bundle.mjs";
import { cpuMs, post, stop, type Server } from "./servers.js";
import { LATENCY_BUCKETS, ServiceMetrics } from "../src/server/metrics.js";

const ROWS = 10_000;
const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const INSERT_ROUNDS = Number(process.env.BENCH_INSERT_ROUNDS ?? 3);
const INSERT_PEER = "insert 1 row — fastify + better-sqlite3 (sync=FULL)";
const INSERT_STOREDB = "insert 1 row — storedb (durable before 2xx)";
const here = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);

function user(id: number): { id: number; name: string; email: string } {
  return { id, name: `user ${id}`, email: `user${id}@example.com` };
}

function pointAnswer(id: number): string {
  return JSON.stringify({ kind: "rows", columns: ["id", "name", "email"], rows: [user(id)], rowCount: 1 });
}

// ---------------------------------------------------------------- peers (child mode)

/** The id a point select asks for, in either form: SQL `params[0]`, or the JSON command's `where` literal. */
interface PointCommand {
  kind: string;
  params?: number[];
  where?: { right?: { value?: number } };
  rows?: { id: number; name: string }[];
}
const idOf = (command: PointCommand): number => command.params?.[0] ?? command.where?.right?.value ?? 1;

async function serveBare(port: number): Promise<void> {
  const { default: Fastify } = await import("fastify");
  const app = Fastify({ logger: false });
  app.post("/v1/commands", async (request, reply) => {
    const { command } = request.body as { command: PointCommand };
    reply.type("application/json").send(pointAnswer(idOf(command)));
  });
  await app.listen({ host: "127.0.0.1", port });
  process.send?.("ready");
}

async function serveSqlite(port: number, dir: string): Promise<void> {
  const { default: Fastify } = await import("fastify");
  const Sqlite = require("better-sqlite3") as new (file: string) => {
    pragma(text: string): unknown;
    exec(text: string): void;
    prepare(text: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
    transaction<T extends (...args: never[]) => void>(fn: T): T;
  };
  const db = new Sqlite(path.join(dir, "bench.sqlite"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT); CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT)");
  const insertUser = db.prepare("INSERT INTO users (id, name, email) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let id = 1; id <= ROWS; id++) {
      const row = user(id);
      insertUser.run(row.id, row.name, row.email);
    }
  })();
  const select = db.prepare("SELECT id, name, email FROM users WHERE id = ?");
  const insertEvent = db.prepare("INSERT INTO events (id, name) VALUES (?, ?)");
  const app = Fastify({ logger: false });
  app.post("/v1/commands", async (request) => {
    const { command } = request.body as { command: PointCommand };
    if (command.kind === "insert") {
      const row = command.rows![0]!;
      insertEvent.run(row.id, row.name);
      return { kind: "mutation", operation: "insert", table: "events", rowsAffected: 1 };
    }
    const row = select.get(idOf(command));
    return { kind: "rows", columns: ["id", "name", "email"], rows: row === undefined ? [] : [row], rowCount: row === undefined ? 0 : 1 };
  });
  await app.listen({ host: "127.0.0.1", port });
  process.send?.("ready");
}

// ---------------------------------------------------------------- driver

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = require("autocannon") as Autocannon;


/**
 * The load generator (this process) and the server under test each get a core of their own when
 * `taskset` is there: sharing one made a server's CPU per request swing by ±2 µs between runs.
 */
const PINNED = process.env.BENCH_PINNED === "1";
const SERVER_CPU = "1";
const DRIVER_CPU = "0";
function onServerCpu(command: string, args: string[]): [string, string[]] {
  return PINNED ? ["taskset", ["-c", SERVER_CPU, command, ...args]] : [command, args];
}

function startPeer(kind: "bare" | "sqlite", port: number, dir: string): Promise<Server> {
  const [command, args] = onServerCpu(process.execPath, ["--import", "tsx", here, `serve-${kind}`, String(port), dir]);
  const child = spawn(command, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", () => resolve({ child, url: `http://127.0.0.1:${port}` }));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/** Bundles the service as `npm run build` does, beside the checkout's node_modules (so its imports resolve); removed at exit. */
async function storedbBundle(): Promise<string> {
  const outfile = path.join(root, ".tmp", "bench-http", "server.js");
  process.once("exit", () => rmSync(path.dirname(outfile), { recursive: true, force: true }));
  mkdirSync(path.dirname(outfile), { recursive: true });
  await buildServer(outfile);
  return outfile;
}

async function startStoredb(bundle: string, port: number, dir: string, logLevel: string): Promise<Server> {
  const [command, args] = onServerCpu(process.execPath, [bundle]);
  const child = spawn(command, args, {
    env: { ...process.env, NODE_ENV: "production", STORE_DATA_PATH: dir, STORE_PORT: String(port), STORE_LOG_LEVEL: logLevel },
    // Logs go to a file: written (the server pays for them) but not read by this process while it measures.
    stdio: ["ignore", openSync(`${dir}.log`, "w"), "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("storedb did not start");
}


async function seedStoredb(url: string): Promise<void> {
  await post(url, { database: "bench", command: { kind: "create-table", schema: { name: "users", columns: { id: "integer", name: "text", email: "text" }, primary_key: { columns: ["id"] } } } });
  await post(url, { database: "bench", command: { kind: "create-table", schema: { name: "events", columns: { id: "integer", name: "text" }, primary_key: { columns: ["id"] } } } });
  for (let start = 1; start <= ROWS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ROWS - start + 1) }, (_, i) => user(start + i));
    await post(url, { database: "bench", command: { kind: "insert", table: "users", rows } });
  }
}

/** The two command routes: the envelope names the database in its body, the path route in its URL. */
const ROUTES = { envelope: "/v1/commands", path: "/v1/databases/bench/commands" } as const;

const sqlBody = (id: number) => ({ database: "bench", command: { kind: "sql", sql: "SELECT id, name, email FROM users WHERE id = ?", params: [id] } });
const jsonBody = (id: number) => ({
  database: "bench",
  command: {
    kind: "select",
    table: "users",
    columns: ["id", "name", "email"],
    where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } },
  },
});
let nextEvent = 0;
const insertBody = () => ({ database: "bench", command: { kind: "insert", table: "events", rows: [{ id: ++nextEvent, name: `event ${nextEvent}` }] } });

/** nginx's master and worker processes (the workers are the master's children). */
function processTree(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return [pid, ...(children === "" ? [] : children.split(" ").map(Number))];
}

/**
 * Point selects (SQL form, path route) on one fresh storedb per round, directly and through nginx with
 * deploy/nginx.conf, alternating; nginx runs on the server's core, so what it costs shows in the rate.
 * Undefined (and said so) when nginx is not installed.
 */
async function proxyRounds(bundle: string, data: string, scratch: string, port: () => number, running: Set<Server>): Promise<string | undefined> {
  const nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((candidate) => existsSync(candidate));
  if (nginx === undefined) return "through nginx: not measured (nginx is not installed)";
  const direct: Run[] = [];
  const proxy: Run[] = [];
  const proxyCpu: number[] = [];
  const body = () => ({ command: sqlBody(randomId()).command });
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startStoredb(bundle, port(), data, "info");
    running.add(server);
    const prefix = mkdtempSync(path.join(scratch, "nginx-"));
    mkdirSync(path.join(prefix, "tmp"));
    const proxyPort = port();
    const upstream = `127.0.0.1:${new URL(server.url).port}`;
    const conf = readFileSync(path.join(root, "deploy/nginx.conf"), "utf8").replace("listen 8080;", `listen 127.0.0.1:${proxyPort};`);
    writeFileSync(path.join(prefix, "nginx.conf"), conf);
    writeFileSync(
      path.join(prefix, "upstreams.conf"),
      `upstream storedb_databases { hash $storedb_database consistent; server ${upstream} max_fails=0; keepalive 32; }\nupstream storedb_any { server ${upstream}; keepalive 8; }\nupstream storedb_1 { server ${upstream} max_fails=0; }\n`,
    );
    const [command, args] = onServerCpu(nginx, ["-p", prefix, "-c", "nginx.conf", "-g", "daemon off;"]);
    const child = spawn(command, args, { stdio: ["ignore", openSync(path.join(prefix, "access.log"), "w"), "inherit"] });
    const proxyServer: Server = { child, url: `http://127.0.0.1:${proxyPort}` };
    running.add(proxyServer);
    for (let attempt = 0; attempt < 100 && !(await fetch(`${proxyServer.url}/health`).then((r) => r.ok, () => false)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await load(server.url, ROUTES.path, body, 1);
    await load(proxyServer.url, ROUTES.path, body, 1);
    const order = round % 2 === 0 ? ["direct", "proxy"] : ["proxy", "direct"];
    for (const which of order) {
      if (which === "direct") {
        direct.push(await measure(server, ROUTES.path, body, SECONDS));
      } else {
        const pids = processTree(child.pid!);
        const before = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
        const run = await measure({ child: server.child, url: proxyServer.url }, ROUTES.path, body, SECONDS);
        proxyCpu.push(((pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - before) * 1000) / Math.max(1, run.result.requests.total));
        proxy.push(run);
      }
    }
    await stop(proxyServer);
    running.delete(proxyServer);
    await stop(server);
    running.delete(server);
  }
  const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rate = (runs: Run[]) => middle(runs.map((run) => run.result.requests.average));
  const bad = [...direct, ...proxy].reduce((sum, run) => sum + run.result.non2xx + run.result.errors + run.result.timeouts, 0);
  const ratio = middle(proxy.map((run, i) => run.result.requests.average / direct[i]!.result.requests.average));
  return (
    `through nginx (SQL point select, path route, ${ROUNDS} rounds, nginx on the server's core): direct ${rate(direct).toFixed(0)}/s, ` +
    `through nginx ${rate(proxy).toFixed(0)}/s (${ratio.toFixed(2)}x, median of the rounds' ratios); storedb CPU ${middle(direct.map((run) => run.cpuPerRequestUs)).toFixed(1)} µs/request direct, ` +
    `${middle(proxy.map((run) => run.cpuPerRequestUs)).toFixed(1)} through nginx, nginx itself ${middle(proxyCpu).toFixed(1)} µs/request; p50 ${direct.at(-1)!.result.latency.p50} ms direct, ${proxy.at(-1)!.result.latency.p50} ms through nginx; non-2xx + errors = ${bad}`
  );
}


interface Run {
  readonly result: AutocannonResult;
  /** Server CPU time per answered request, in µs: robust where throughput is not, on a shared machine. */
  readonly cpuPerRequestUs: number;
  /**
   * Busy shares of one core, server and load generator (this process): when the
   * generator's is near 100% it, not the server, bounds the throughput, and
   * servers of different cost answer at the same rate.
   */
  readonly serverBusy: number;
  readonly driverBusy: number;
}

async function measure(server: Server, route: string, makeBody: () => unknown, seconds: number): Promise<Run> {
  const before = cpuMs(server.child.pid!);
  const driverBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await load(server.url, route, makeBody, seconds);
  const used = cpuMs(server.child.pid!) - before;
  const driver = process.cpuUsage(driverBefore);
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    result,
    cpuPerRequestUs: (used * 1000) / Math.max(1, result.requests.total),
    serverBusy: used / elapsedMs,
    driverBusy: (driver.user + driver.system) / 1000 / elapsedMs,
  };
}

async function load(url: string, route: string, makeBody: () => unknown, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: `${url}${route}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request: Record<string, unknown>) => ({ ...request, body: JSON.stringify(makeBody()) }),
      },
    ],
  });
}

const randomId = () => 1 + Math.floor(Math.random() * ROWS);


/**
 * What the metrics add to a request, in process: storedb's tally (`ServiceMetrics.record`) against
 * prom-client's own `inc` + `observe` with the same labels, over the same label mix as the HTTP runs.
 */
async function metricsCost(): Promise<void> {
  const N = 2_000_000;
  const kinds = ["sql", "select", "insert", "sql"];
  const route = "/v1/databases/:name/commands";
  const ours = new ServiceMetrics(() => ({ openDatabases: 1, journalBytes: 0, storedBytes: 0 }));
  const registry = new Registry();
  const counter = new Counter({ name: "requests_total", help: "-", labelNames: ["route", "kind", "status"], registers: [registry] });
  const histogram = new Histogram({ name: "duration_seconds", help: "-", labelNames: ["route", "kind"], buckets: [...LATENCY_BUCKETS], registers: [registry] });
  const results: Record<string, number[]> = { storedb: [], "prom-client": [] };
  for (let round = 0; round < 5; round++) {
    let started = process.hrtime.bigint();
    for (let i = 0; i < N; i++) ours.record(route, kinds[i & 3]!, 200, (i % 100) * 1e-5);
    results.storedb!.push(Number(process.hrtime.bigint() - started) / N);
    started = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      const kind = kinds[i & 3]!;
      counter.inc({ route, kind, status: 200 });
      histogram.observe({ route, kind }, (i % 100) * 1e-5);
    }
    results["prom-client"]!.push(Number(process.hrtime.bigint() - started) / N);
  }
  const best = (name: string) => Math.min(...results[name]!);
  const exposition = await ours.text();
  const checksum = createHash("sha256").update(exposition.slice(0, exposition.indexOf("storedb_open_databases"))).digest("hex").slice(0, 16);
  console.log(
    `\nmetrics per request, in process (best of 5 x ${N}): storedb's tally ${best("storedb").toFixed(0)} ns, prom-client inc + observe ${best("prom-client").toFixed(0)} ns (${(best("prom-client") / best("storedb")).toFixed(1)}x); exposition checksum ${checksum}`,
  );
}

async function main(): Promise<void> {
  await metricsCost();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "storedb-bench-http-"));
  const running = new Set<Server>();
  let nextPort = 31801;
  const data = path.join(scratch, "data");
  try {
    const bundle = await storedbBundle();
    type Role = "bare" | "sqlite" | "storedb" | "quiet";
    /** A fresh server of `role`; storedb and its quiet twin share one seeded data directory, never at once. */
    const start = async (role: Role): Promise<Server> => {
      const port = nextPort++;
      const server =
        role === "bare" || role === "sqlite"
          ? await startPeer(role, port, mkdtempSync(path.join(scratch, `${role}-`)))
          : await startStoredb(bundle, port, data, role === "quiet" ? "warn" : "info");
      running.add(server);
      return server;
    };
    const retire = async (server: Server): Promise<void> => {
      await stop(server);
      running.delete(server);
    };
    const seeding = await start("storedb");
    await seedStoredb(seeding.url);
    await retire(seeding);

    // Point selects: ROUNDS interleaved rounds, each on fresh processes, warmed up first; the median and
    // best round are reported, because this machine's two cores are shared and one round can land on a
    // neighbour's burst. Each form is compared with the peers given the very same request bodies (the JSON
    // form's body is 2.7x the SQL one, and parsing it is part of the HTTP stack's cost).
    // storedb answers on both command routes, the envelope (`/v1/commands`) and the path (`/v1/databases/bench/commands`,
    // the body without `database`): measured on the same process in each round, in alternating order, so their
    // difference is the route's, not a process draw's.
    type Form = "SQL" | "JSON";
    type Route = "envelope" | "path";
    interface SelectRun {
      readonly name: string;
      readonly form: Form;
      readonly role: Role;
      readonly route: Route;
    }
    const bodyOf = (form: Form, route: Route) => () => {
      const body = form === "SQL" ? sqlBody(randomId()) : jsonBody(randomId());
      return route === "envelope" ? body : { command: body.command };
    };
    const selects: SelectRun[] = [];
    for (const form of ["SQL", "JSON"] as const) {
      selects.push({ name: `point select, ${form} form — bare fastify route (ceiling)`, form, role: "bare", route: "envelope" });
      selects.push({ name: `point select, ${form} form — fastify + better-sqlite3`, form, role: "sqlite", route: "envelope" });
      selects.push({ name: `point select, ${form} form — storedb`, form, role: "storedb", route: "envelope" });
      selects.push({ name: `point select, ${form} form — storedb, path route`, form, role: "storedb", route: "path" });
    }
    // The same service with its per-request log line off, to show what that line costs (the peers log nothing).
    selects.push({ name: "point select, SQL form — storedb, request log off", form: "SQL", role: "quiet", route: "envelope" });
    const rounds = new Map<string, Run[]>(selects.map(({ name }) => [name, []]));
    const roles: Role[] = ["bare", "sqlite", "storedb", "quiet"];
    // Same question, same answer, everywhere (parsed: key order and spacing may differ).
    const hash = createHash("sha256");
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < roles.length; i++) {
        const role = roles[(i + round) % roles.length]!;
        const server = await start(role);
        if (round === 0) await compareAnswers(server, hash);
        const runs = selects.filter((run) => run.role === role);
        if (round % 2 === 1) runs.reverse();
        for (const { form, route } of runs) await load(server.url, ROUTES[route], bodyOf(form, route), 1);
        for (const { name, form, route } of runs) rounds.get(name)!.push(await measure(server, ROUTES[route], bodyOf(form, route), SECONDS));
        await retire(server);
      }
    }
    // Through nginx (deploy/nginx.conf, the one instance as every upstream) against direct, on the same storedb
    // process in each round, in alternating order: what the proxy costs a point select.
    const proxied = await proxyRounds(bundle, data, scratch, () => nextPort++, running);

    // Durable single-row inserts (storedb: one journal append per group, checkpoints in the background; the peer:
    // one transaction per request), in interleaved rounds on fresh processes, each round's ids new.
    const inserts: [string, Role][] = [
      [INSERT_PEER, "sqlite"],
      [INSERT_STOREDB, "storedb"],
    ];
    for (const [name] of inserts) rounds.set(name, []);
    for (let round = 0; round < INSERT_ROUNDS; round++) {
      for (let i = 0; i < inserts.length; i++) {
        const [name, role] = inserts[(i + round) % inserts.length]!;
        const server = await start(role);
        nextEvent = (round + 1) * 10_000_000;
        await load(server.url, ROUTES.envelope, insertBody, 1);
        rounds.get(name)!.push(await measure(server, ROUTES.envelope, insertBody, SECONDS));
        await retire(server);
      }
    }

    const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const median = (name: string) => middle(rounds.get(name)!.map((r) => r.result.requests.average));
    const cpu = (name: string) => middle(rounds.get(name)!.map((r) => r.cpuPerRequestUs));
    const best = (name: string) => Math.max(...rounds.get(name)!.map((r) => r.result.requests.average));
    const busy = (name: string, of: "serverBusy" | "driverBusy") => `${(middle(rounds.get(name)!.map((r) => r[of])) * 100).toFixed(0)}%`;
    const peer = (form: Form, role: Role) => selects.find((run) => run.form === form && run.role === role && run.route === "envelope")!.name;
    const placement = PINNED ? `servers pinned to CPU ${SERVER_CPU}, load generator to CPU ${DRIVER_CPU}` : "not pinned (no taskset)";
    console.log(`\n${CONNECTIONS} connections, ${ROUNDS} rounds x ${SECONDS} s per point-select run, a fresh process per server and round, ${ROWS} rows, loopback, ${os.cpus().length} CPUs, ${placement}, load average ${os.loadavg()[0]!.toFixed(1)}\n`);
    console.log("run".padEnd(58) + "median/s".padStart(10) + "best/s".padStart(9) + "cpu µs/req".padStart(11) + "server".padStart(7) + "driver".padStart(7) + "p50 ms".padStart(8) + "p99 ms".padStart(8) + "non-2xx".padStart(9) + "errors".padStart(8) + "   vs bare  vs sqlite (median, same form)");
    let bad = 0;
    for (const [name, runs] of rounds) {
      const worst = runs.reduce((a, r) => a + r.result.non2xx, 0);
      const errors = runs.reduce((a, r) => a + r.result.errors + r.result.timeouts, 0);
      bad += worst + errors;
      const last = runs.at(-1)!.result;
      const run = selects.find((select) => select.name === name);
      const versus =
        run === undefined
          ? ""
          : `${((median(name) / median(peer(run.form, "bare"))) * 100).toFixed(0).padStart(7)}%  ${(median(name) / median(peer(run.form, "sqlite"))).toFixed(2).padStart(7)}x`;
      console.log(
        name.padEnd(58) +
          median(name).toFixed(0).padStart(10) +
          best(name).toFixed(0).padStart(9) +
          cpu(name).toFixed(1).padStart(11) +
          busy(name, "serverBusy").padStart(7) +
          busy(name, "driverBusy").padStart(7) +
          String(last.latency.p50).padStart(8) +
          String(last.latency.p99).padStart(8) +
          String(worst).padStart(9) +
          String(errors).padStart(8) +
          "  " +
          versus,
      );
    }
    const verdicts = (["SQL", "JSON"] as const).map((form) => {
      const ours = median(peer(form, "storedb"));
      return `${form} ${((ours / median(peer(form, "bare"))) * 100).toFixed(0)}% of bare, ${(ours / median(peer(form, "sqlite"))).toFixed(2)}x fastify + better-sqlite3`;
    });
    console.log(`\ntargets (medians): point selects >= 80% of bare and ahead of fastify + better-sqlite3: ${verdicts.join("; ")}; non-2xx + errors = ${bad}`);
    const insertRatio = median(INSERT_STOREDB) / median(INSERT_PEER);
    console.log(
      `target durable single-row inserts, ${CONNECTIONS} connections, >= 4x fastify + better-sqlite3: ${insertRatio >= 4 ? "met" : "MISSED"} (${median(INSERT_STOREDB).toFixed(0)}/s against ${median(INSERT_PEER).toFixed(0)}/s, ${insertRatio.toFixed(2)}x; medians of ${INSERT_ROUNDS} rounds)`,
    );
    const cpus = (["SQL", "JSON"] as const).map(
      (form) => `${form}: bare ${cpu(peer(form, "bare")).toFixed(1)}, fastify + better-sqlite3 ${cpu(peer(form, "sqlite")).toFixed(1)}, storedb ${cpu(peer(form, "storedb")).toFixed(1)}`,
    );
    console.log(`server CPU µs per point select (median, robust to a busy machine): ${cpus.join("; ")}; storedb SQL without the request log line ${cpu(peer("SQL", "quiet")).toFixed(1)}`);
    // Paired per round (one process serves both routes in a round): the median of path/envelope ratios.
    const pathVersusEnvelope = (["SQL", "JSON"] as const).map((form) => {
      const envelope = rounds.get(peer(form, "storedb"))!;
      const byPath = rounds.get(selects.find((run) => run.form === form && run.route === "path")!.name)!;
      const ratio = (of: (run: Run) => number) => middle(byPath.map((run, i) => of(run) / of(envelope[i]!)));
      return `${form} ${ratio((run) => run.result.requests.average).toFixed(3)}x requests/s, ${ratio((run) => run.cpuPerRequestUs).toFixed(3)}x CPU µs/request`;
    });
    console.log(`path route against the envelope route (storedb, same process per round, median of the rounds' ratios): ${pathVersusEnvelope.join("; ")}`);
    console.log("server, driver: median busy share of one core during the runs (the driver near 100% bounds every server's rate alike)");
    if (proxied !== undefined) console.log(proxied);
    console.log(`checksum ${hash.digest("hex").slice(0, 16)}`);
  } catch (error) {
    const log = `${data}.log`;
    const errors = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"level":50')) : [];
    if (errors.length > 0) console.error(`storedb logged:\n${errors.slice(-3).join("\n")}`);
    throw error;
  } finally {
    await Promise.all([...running].map(stop));
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Checks that `server` answers the same as the expected point select, in both forms; hashes the answers. */
async function compareAnswers(server: Server, hash: ReturnType<typeof createHash>): Promise<void> {
  for (const id of [1, 4242, ROWS]) {
    const expected = JSON.stringify(JSON.parse(pointAnswer(id)));
    for (const body of [sqlBody(id), jsonBody(id)]) {
      const answer = await post(server.url, body);
      if (JSON.stringify(JSON.parse(answer)) !== expected) throw new Error(`answers differ for id ${id}: ${answer}`);
      hash.update(answer);
    }
  }
}

/** Runs this benchmark again on the driver's core, its servers on the other, when the machine allows. */
function pinnedRerun(): boolean {
  if (PINNED || os.cpus().length < 2 || spawnSync("taskset", ["-c", DRIVER_CPU, "true"]).status !== 0) return false;
  const run = spawnSync("taskset", ["-c", DRIVER_CPU, process.execPath, ...process.execArgv, here], { stdio: "inherit", env: { ...process.env, BENCH_PINNED: "1" } });
  process.exitCode = run.status ?? 1;
  return true;
}

const mode = process.argv[2];
if (mode === "serve-bare") await serveBare(Number(process.argv[3]));
else if (mode === "serve-sqlite") await serveSqlite(Number(process.argv[3]), process.argv[4]!);
else if (!pinnedRerun()) await main();
