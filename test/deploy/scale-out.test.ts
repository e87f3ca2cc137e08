/**
 * The scale-out topology as `deploy/local.sh` starts it — three storedb
 * processes behind Debian's nginx with `deploy/nginx.conf` — driven through
 * the proxy: 60 databases each land on exactly one instance; SIGKILL one
 * instance and only its databases fail (503 from the proxy) while every
 * other database keeps answering reads and writes; restart it and every
 * acknowledged write is there. Also the proxy's own answers: the envelope
 * route refused with a problem, per-instance routes, request ids passed on.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverBundle, serverEnv, tempDir } from "../server/support/server-process.js";
import { reapOnExit } from "../support/reap.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DATABASES = 60;

interface Instance {
  readonly n: number;
  pid: number;
  readonly port: number;
  readonly data: string;
}

let base = "";
let script: ChildProcess;
let proxy = "";
const instances: Instance[] = [];
const restarted: ChildProcess[] = [];

/** `count` distinct ports nobody listens on now (all held open until every one is chosen, so none repeats). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

test.before(async () => {
  base = tempDir("scale-out");
  const bundle = await serverBundle();
  const ports = await freePorts(4);
  // local.sh sets each instance's data path and port; STORE_* variables from here reach every instance.
  script = reapOnExit(spawn("bash", [path.join(root, "deploy/local.sh"), base], {
    env: { ...serverEnv(base, { STORE_LOG_LEVEL: "warn" }), PROXY_PORT: String(ports[0]), INSTANCE_PORTS: ports.slice(1).join(" "), STOREDB_CMD: `${process.execPath} ${bundle}` },
    stdio: ["ignore", "pipe", "pipe"],
  }), "SIGTERM");
  let out = "";
  let err = "";
  script.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local.sh did not get ready: ${out}${err}`)), 30_000);
    script.once("exit", (code) => reject(new Error(`local.sh exited ${code}: ${out}${err}`)));
    script.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const ready = /^ready (\S+)$/m.exec(out);
      if (ready === null) return;
      clearTimeout(timer);
      proxy = ready[1]!;
      for (const match of out.matchAll(/^instance (\d+) pid (\d+) port (\d+) data (\S+)$/gm)) {
        instances.push({ n: Number(match[1]), pid: Number(match[2]), port: Number(match[3]), data: match[4]! });
      }
      resolve();
    });
  });
});

test.after(async () => {
  for (const child of restarted) child.kill("SIGTERM");
  if (script.exitCode === null) {
    const exited = new Promise((resolve) => script.once("exit", resolve));
    script.kill("SIGTERM");
    await exited;
  }
  await Promise.all(restarted.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : undefined)));
  rmSync(base, { recursive: true, force: true });
});

const names = Array.from({ length: DATABASES }, (_, i) => `db-${String(i).padStart(2, "0")}`);
/** Every acknowledged insert, by database. */
const acknowledged = new Map<string, number[]>(names.map((name) => [name, []]));
let nextId = 0;

async function run(name: string, command: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${proxy}/v1/databases/${name}/commands`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ command }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

async function insert(name: string): Promise<number> {
  const id = ++nextId;
  const answer = await run(name, { kind: "insert", table: "events", rows: [{ id, note: `event ${id}` }] });
  if (answer.status === 200) acknowledged.get(name)!.push(id);
  return answer.status;
}

async function ids(name: string): Promise<{ status: number; ids: number[] }> {
  const answer = await run(name, { kind: "select", table: "events", columns: ["id"], orderBy: [{ column: "id" }], output: "arrays" });
  return { status: answer.status, ids: answer.status === 200 ? (answer.body.rows as number[][]).map(([id]) => id!) : [] };
}

/** The instances whose data directory holds `name`'s file. */
const holders = (name: string) => instances.filter((instance) => existsSync(path.join(instance.data, `${name}.store`)));

test("the topology is up: three instances, the proxy's own health", async () => {
  assert.is(instances.length, 3);
  const health = await fetch(`${proxy}/health`);
  assert.is(health.status, 200);
  assert.equal(await health.json(), { status: "ok" });
  for (const { n } of instances) assert.is((await fetch(`${proxy}/instances/${n}/health`)).status, 200);
});

test("60 databases through the proxy: each file on exactly one instance, every instance used", async () => {
  for (const name of names) {
    const created = await run(name, { kind: "create-table", schema: { name: "events", columns: { id: "integer", note: "text" }, primary_key: { columns: ["id"] } } });
    assert.is(created.status, 200, JSON.stringify(created.body));
    for (let i = 0; i < 2; i++) assert.is(await insert(name), 200);
  }
  const perInstance = new Map<number, string[]>(instances.map(({ n }) => [n, []]));
  for (const name of names) {
    const on = holders(name);
    assert.is(on.length, 1, `${name} is on ${on.map(({ n }) => n).join(", ") || "no instance"}`);
    perInstance.get(on[0]!.n)!.push(name);
  }
  for (const [n, placed] of perInstance) {
    assert.ok(placed.length > 0, `instance ${n} holds no database`);
    // Each instance lists exactly its own, through the proxy's per-instance route.
    const listed = (await (await fetch(`${proxy}/instances/${n}/v1/databases`)).json()) as { databases: { name: string }[] };
    assert.equal(listed.databases.map(({ name }) => name), placed);
    assert.equal(readdirSync(instances[n - 1]!.data).filter((file) => file.endsWith(".store")).length, placed.length);
  }
});

test("the proxy refuses the envelope route with a problem, and passes request ids on", async () => {
  const envelope = await fetch(`${proxy}/v1/commands`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ database: "db-00", command: { kind: "describe" } }) });
  assert.is(envelope.status, 400);
  assert.match(envelope.headers.get("content-type") ?? "", /^application\/problem\+json/);
  const problem = (await envelope.json()) as Record<string, unknown>;
  assert.is(problem.code, "invalid_request");
  assert.match(String(problem.detail), "/v1/databases/{name}/commands");
  const traced = await run("db-00", { kind: "describe" }, { "x-request-id": "trace-0123456789" });
  assert.is(traced.headers.get("x-request-id"), "trace-0123456789");
  const untraced = await run("db-00", { kind: "describe" });
  assert.match(untraced.headers.get("x-request-id") ?? "", /^[0-9a-f]{32}$/, "nginx's $request_id, kept by storedb");
});

test("SIGKILL one instance: only its databases fail (503), the others keep reading and writing; a restart loses no acknowledged write", async () => {
  const victim = instances[1]!;
  const down = new Set(names.filter((name) => holders(name)[0] === victim));
  assert.ok(down.size > 0 && down.size < DATABASES);
  process.kill(victim.pid, "SIGKILL");
  await new Promise((resolve) => setTimeout(resolve, 200));

  for (const name of names) {
    const read = await ids(name);
    const write = await insert(name);
    if (down.has(name)) {
      assert.ok([502, 503].includes(read.status), `${name} read answered ${read.status}`);
      assert.ok([502, 503].includes(write), `${name} write answered ${write}`);
    } else {
      assert.is(read.status, 200, `${name} read`);
      assert.equal(read.ids, acknowledged.get(name)!.slice(0, read.ids.length));
      assert.is(write, 200, `${name} write`);
    }
  }
  // No database moved: nothing was created anywhere while the victim was down.
  for (const name of names) assert.is(holders(name).length, 1, name);

  const child = reapOnExit(spawn(process.execPath, [await serverBundle()], {
    env: serverEnv(victim.data, { STORE_PORT: String(victim.port), STORE_LOG_LEVEL: "warn" }),
    stdio: "ignore",
  }));
  restarted.push(child);
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await fetch(`${proxy}/instances/${victim.n}/health`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const name of names) {
    const read = await ids(name);
    assert.is(read.status, 200, name);
    assert.equal(read.ids, acknowledged.get(name), `${name}: every acknowledged write, nothing else`);
    assert.is(await insert(name), 200);
  }
});

test.run();
