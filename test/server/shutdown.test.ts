/**
 * Graceful shutdown of a real server process (CONTRACT §8), driven over raw
 * sockets so the test controls exactly when a request is in flight: its
 * headers are sent and its body held back across the signal.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { command, serverEnv, startServer, tempDir, type ServerProcess } from "./support/server-process.js";

const scratch: string[] = [];
test.after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A client connection that collects every byte until the server closes it. */
class Connection {
  private readonly chunks: Buffer[] = [];
  readonly closed: Promise<void>;
  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => this.chunks.push(chunk));
    this.closed = new Promise((resolve) => socket.on("close", () => resolve()));
    socket.on("error", () => undefined);
  }
  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }
  write(text: string): void {
    this.socket.write(text);
  }
  /** The responses received, split by Content-Length. */
  responses(): RawResponse[] {
    let text = Buffer.concat(this.chunks).toString("utf8");
    const out: RawResponse[] = [];
    while (text.length > 0) {
      const end = text.indexOf("\r\n\r\n");
      if (end === -1) break;
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      out.push({ status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(end + 4, end + 4 + length) });
      text = text.slice(end + 4 + length);
    }
    return out;
  }
}

function post(body: string): { head: string; body: string } {
  return {
    head: `POST /v1/commands HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n`,
    body,
  };
}

const insert = (id: number) => JSON.stringify({ database: "shop", command: { kind: "insert", table: "events", rows: [{ id, name: `event ${id}` }] } });

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function startWithTable(extra: Record<string, string> = {}): Promise<{ server: ServerProcess; dir: string }> {
  const dir = tempDir("shutdown");
  scratch.push(dir);
  const server = await startServer(serverEnv(dir, extra));
  const created = await command(server.url, "shop", { kind: "create-table", schema: { name: "events", columns: { id: "integer", name: "text" }, primary_key: { columns: ["id"] } } }, { connection: "close" });
  assert.is(created.status, 200);
  return { server, dir };
}

function rowsOnDisk(dir: string): { id: number }[] {
  const file = JSON.parse(readFileSync(path.join(dir, "shop.store"), "utf8")) as { tables: Record<string, { rows: { id: number }[] }> };
  return file.tables.events!.rows;
}

test("SIGTERM: in-flight requests finish and are on disk, a pipelined one gets 503, idle keep-alive does not hold the exit, exit 0", async () => {
  const { server, dir } = await startWithTable();
  const idle = await Connection.open(server.port);
  idle.write("GET /health HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n");
  await until(() => idle.responses().length === 1, "the idle connection's answer");

  const inFlight: Connection[] = [];
  const requests = Array.from({ length: 8 }, (_, i) => post(insert(i + 1)));
  for (const request of requests) {
    const connection = await Connection.open(server.port);
    connection.write(request.head + request.body.slice(0, 10));
    inFlight.push(connection);
  }
  // A round trip on another connection after the partial requests: their headers are parsed by now.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.is((await fetch(`${server.url}/health`, { headers: { connection: "close" } })).status, 200);

  server.child.kill("SIGTERM");
  await until(() => server.logs().some((line) => line.msg === "shutting down"), "the shutdown log line");
  server.child.kill("SIGINT"); // a second signal must not cut the drain short
  await until(() => server.logs().some((line) => line.msg === "already shutting down; waiting for in-flight requests"), "the second-signal line");
  await idle.closed; // closed by the server, not waited out

  const pipelined = post(insert(100));
  const finishedAt = Date.now();
  inFlight.forEach((connection, i) => connection.write(requests[i]!.body.slice(10) + (i === 0 ? pipelined.head + pipelined.body : "")));
  const exit = await server.exited;
  assert.equal(exit, { code: 0, signal: null });
  assert.ok(Date.now() - finishedAt < 4000, `exit took ${Date.now() - finishedAt} ms after the last body`);
  await Promise.all(inFlight.map((connection) => connection.closed));

  for (const [i, connection] of inFlight.entries()) {
    const responses = connection.responses();
    assert.is(responses[0]?.status, 200, `in-flight request ${i}: ${responses[0]?.body}`);
    if (i === 0) {
      assert.is(responses.length, 2, "the pipelined request is answered");
      assert.is(responses[1]!.status, 503);
      assert.is(responses[1]!.headers["retry-after"], "5");
      assert.match(responses[1]!.headers["content-type"] ?? "", /^application\/problem\+json/);
      assert.is((JSON.parse(responses[1]!.body) as { code: string }).code, "shutting_down");
    } else {
      assert.is(responses.length, 1);
    }
  }
  assert.equal(
    rowsOnDisk(dir).map((row) => row.id).sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  assert.ok(server.logs().some((line) => line.msg === "stopped"));
});

test("requests racing a SIGTERM: each answer is 2xx or 503, and every 2xx insert is on disk", async () => {
  const { server, dir } = await startWithTable();
  const statuses: number[] = [];
  let failures = 0;
  let next = 1000;
  const worker = async (): Promise<void> => {
    for (;;) {
      const id = next++;
      try {
        const answer = await fetch(`${server.url}/v1/commands`, { method: "POST", headers: { "content-type": "application/json" }, body: insert(id) });
        statuses.push(answer.status);
        await answer.arrayBuffer();
        if (answer.status === 200) acknowledged.push(id);
        if (answer.status === 503) return;
      } catch {
        failures += 1; // the listener is gone: refused before any request was sent
        return;
      }
    }
  };
  const acknowledged: number[] = [];
  const workers = Array.from({ length: 16 }, worker);
  await until(() => statuses.length >= 50, "some traffic");
  server.child.kill("SIGTERM");
  await Promise.all(workers);
  const exit = await server.exited;
  assert.equal(exit, { code: 0, signal: null });
  for (const status of statuses) assert.ok(status === 200 || status === 503, String(status));
  const onDisk = new Set(rowsOnDisk(dir).map((row) => row.id));
  for (const id of acknowledged) assert.ok(onDisk.has(id), `acknowledged insert ${id} is on disk`);
  assert.ok(onDisk.size <= acknowledged.length + failures + 16, "nothing unexpected was written");
});

test("a drain that cannot finish is cut at STORE_SHUTDOWN_TIMEOUT_MS (exit 1)", async () => {
  const { server } = await startWithTable({ STORE_SHUTDOWN_TIMEOUT_MS: "400" });
  const stuck = await Connection.open(server.port);
  const request = post(insert(1));
  stuck.write(request.head + request.body.slice(0, 5)); // never finished
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = Date.now();
  server.child.kill("SIGTERM");
  const exit = await server.exited;
  const took = Date.now() - started;
  assert.equal(exit, { code: 1, signal: null });
  assert.ok(took >= 350 && took < 4000, `took ${took} ms`);
  assert.ok(server.logs().some((line) => line.msg === "shutdown timed out; exiting with work unfinished"));
  stuck.socket.destroy();
});

test.run();
