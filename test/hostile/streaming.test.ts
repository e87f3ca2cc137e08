/**
 * Long rows answers stream (`src/server/rows-stream.ts`), against a real
 * server: the body is byte for byte the buffered answer (`JSON.stringify` of
 * the same select run in this process on a copy of the file), sent chunked,
 * while a short answer keeps its content-length; a client that stops
 * reading stops the server's work (no CPU, no memory growth) and keeps its
 * database open, and one that disconnects lets the work and the database go.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Database } from "../../src/database.js";
import { writeBigStore } from "./support/abuse.js";
import { loudHook, ServerProcess, sleep, tempDir } from "./support/server.js";

const ROWS = 300_000;
/**
 * The stalled client's answer: 16,000 rows of 4,000 characters, 64 MB of
 * JSON — more than the kernel's socket buffers here can take (up to 32 MiB
 * received and 4 MiB sent, `tcp_rmem`/`tcp_wmem`), so it cannot be finished
 * into them while the client reads nothing.
 */
const WIDE_ROWS = 16_000;

interface Context {
  server: ServerProcess;
  dataDir: string;
  /** The same database opened in this process, on a copy of its file: the buffered answers. */
  copy: Database;
  copyDir: string;
}

const test = suite<Context>("hostile/streaming", {} as Context);

test.before(
  loudHook(async (context) => {
    context.dataDir = tempDir("stream");
    writeBigStore(context.dataDir, "big", ROWS);
    writeWideStore(context.dataDir);
    // A budget of one open database: a held database must stay open while another is wanted.
    context.server = await ServerProcess.start({ dataDir: context.dataDir, env: { STORE_MAX_OPEN_DATABASES: "1" } });
    context.copyDir = tempDir("stream-copy");
    copyFileSync(path.join(context.dataDir, "big.store"), path.join(context.copyDir, "big.store"));
    context.copy = await Database.open(path.join(context.copyDir, "big.store"));
  }),
);

test.after(async (context) => {
  await context.server?.stop();
  await context.copy?.close();
  if (context.copyDir) rmSync(context.copyDir, { recursive: true, force: true });
});

function writeWideStore(dir: string): void {
  const schema = { name: "t", columns: { id: "integer", s: "text" }, primary_key: { columns: ["id"] } };
  const rows = Array.from({ length: WIDE_ROWS }, (_, i) => JSON.stringify({ id: i, s: `${i}`.padEnd(4_000, "x") }));
  writeFileSync(path.join(dir, "wide.store"), `{"format":"storedb/1","tables":{"t":{"schema":${JSON.stringify(schema)},"rows":[\n${rows.join(",\n")}\n]}}}\n`);
}

/** The buffered answer: the command run in this process, as the JSON text fastify would send. */
async function buffered(copy: Database, command: unknown): Promise<Buffer> {
  return Buffer.from(JSON.stringify(await copy.execute(command)));
}

/** CPU seconds the process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Starts a select on `database` and hands back the response unread (paused) with the request, to read, stall or drop. */
function open(server: ServerProcess, command: unknown, database = "big"): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
  const body = JSON.stringify({ command });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: server.port, method: "POST", path: `/v1/databases/${database}/commands`, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.pause();
        resolve({ res, req });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function readAll(res: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => resolve(Buffer.concat(chunks)));
    res.on("error", reject);
    res.resume();
  });
}

test("a long answer streams the buffered answer's bytes, chunked; a short one keeps its content-length", async ({ server, copy }) => {
  for (const command of [
    { kind: "select", table: "t", columns: "*" },
    { kind: "select", table: "t", columns: ["s", "id"], output: "arrays", where: { type: "comparison", op: ">=", left: { type: "identifier", name: "n" }, right: { type: "literal", value: 500 } } },
    { kind: "sql", sql: "SELECT id, r AS quarter, ? AS tag FROM t ORDER BY n DESC, id LIMIT 100000 OFFSET 7", params: ["é\u{1F600}\"\n"] },
  ]) {
    const { res } = await open(server, command);
    const body = await readAll(res);
    assert.is(res.statusCode, 200);
    assert.is(res.headers["transfer-encoding"], "chunked");
    assert.is(res.headers["content-type"], "application/json; charset=utf-8");
    assert.ok(body.equals(await buffered(copy, command)), `${JSON.stringify(command).slice(0, 80)}: the bytes differ`);
  }
  const short = { kind: "select", table: "t", columns: "*", limit: 10 };
  const { res } = await open(server, short);
  const body = await readAll(res);
  assert.is(res.headers["content-length"], String(body.length));
  assert.ok(body.equals(await buffered(copy, short)));
});

test("a client that stops reading stops the work and keeps its database; one that disconnects lets both go", async ({ server, dataDir }) => {
  const { res, req } = await open(server, { kind: "select", table: "t", columns: "*" }, "wide");
  // Read a little, then stop reading: the socket's buffers fill and the server stops projecting.
  let read = 0;
  await new Promise<void>((resolve) => {
    res.on("data", (chunk: Buffer) => {
      read += chunk.length;
      if (read > 256 * 1024) {
        res.pause();
        resolve();
      }
    });
    res.resume();
  });
  await sleep(300);
  const cpuBefore = cpuSeconds(server.pid);
  const rssBefore = server.rssMiB();
  await sleep(1_000);
  const stalledCpu = cpuSeconds(server.pid) - cpuBefore;
  assert.ok(stalledCpu < 0.15, `the server used ${stalledCpu} s of CPU for a client that reads nothing`);
  assert.ok(server.rssMiB() - rssBefore < 16, "no memory growth while stalled");

  // Another database is wanted under a budget of one: the held wide stays open.
  const lock = path.join(dataDir, "wide.store-lock");
  const other = { command: { kind: "create-table", schema: { name: "x", columns: { id: "integer" }, primary_key: { columns: ["id"] } } } };
  assert.is((await server.request(JSON.stringify(other), { path: "/v1/databases/other/commands" })).status, 200);
  await sleep(1_200);
  assert.ok(existsSync(lock), "wide was closed under its streaming answer");

  // The client goes away: the stream is dropped and wide, no longer held, is closed for the budget.
  req.destroy();
  const deadline = Date.now() + 5_000;
  while (existsSync(lock) && Date.now() < deadline) await sleep(20);
  assert.not.ok(existsSync(lock), "wide is let go once its answer's client left");
  const cpuAfter = cpuSeconds(server.pid);
  await sleep(1_000);
  assert.ok(cpuSeconds(server.pid) - cpuAfter < 0.15, "no work goes on for a client that left");
  assert.is((await server.request(JSON.stringify({ command: { kind: "select", table: "t", columns: ["id"], limit: 1 } }), { path: "/v1/databases/wide/commands" })).status, 200);
  assert.ok(server.alive);
});

test.run();
