/**
 * A bounded mixed read/write load with autocannon over several databases,
 * then an audit: every acknowledged insert is in its database on disk,
 * and nothing is there that was never sent. Ids are unique per request, so
 * each row on disk traces back to exactly one request.
 *
 * Reads check something too: a primary-key select of an id that was
 * acknowledged before the select was sent must find it (an acknowledged
 * write is visible to every later reader).
 */
import autocannon from "autocannon";
import * as assert from "uvu/assert";
import { databaseOnDisk } from "./disk.js";
import type { ServerProcess } from "./server.js";

export const LOAD_SCHEMA = { name: "w", columns: { id: "text", conn: "integer", payload: "text" }, primary_key: { columns: ["id"] }, required: ["id"] };

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly databases: number;
}

export interface LoadFigures {
  readonly requests: number;
  readonly writesSent: number;
  readonly writesAcked: number;
  readonly readsChecked: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly perSecond: number;
  readonly lost: number;
  readonly unexpected: number;
  /** The server's resident memory before and after the run. */
  readonly rssBeforeMiB: number;
  readonly rssAfterMiB: number;
}

/** The ids stored in one database's `w` table, read straight from its files (no server involved: see `disk.ts`). */
export function idsOnDisk(dataDir: string, database: string, table = "w"): Set<string> {
  return new Set((databaseOnDisk(dataDir, database).get(table) ?? []).map((row) => String(row.id)));
}

export async function prepareLoadDatabases(server: ServerProcess, count: number, prefix = "load"): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (const database of names) {
    const reply = await server.command({ database, command: { kind: "create-table", schema: LOAD_SCHEMA, ifNotExists: true } });
    assert.is(reply.status, 200, `create ${database}: ${reply.text}`);
  }
  return names;
}

export async function runLoad(server: ServerProcess, options: LoadOptions): Promise<LoadFigures> {
  const databases = await prepareLoadDatabases(server, options.databases);
  const rssBeforeMiB = server.rssMiB();
  const tag = Date.now().toString(36);
  let seq = 0;
  const sent = new Map<string, Set<string>>(databases.map((d) => [d, new Set()]));
  const acked = new Map<string, string[]>(databases.map((d) => [d, []]));
  const problems: string[] = [];
  let readsChecked = 0;

  const setupRequest = (request: { body?: string | Buffer }, context: Record<string, unknown>) => {
    const database = databases[Math.floor(Math.random() * databases.length)]!;
    const known = acked.get(database)!;
    const roll = Math.random();
    if (roll < 0.5 || known.length === 0) {
      const id = `${tag}-${++seq}`;
      sent.get(database)!.add(id);
      context.write = { database, id };
      request.body = JSON.stringify({ database, command: { kind: "insert", table: "w", rows: [{ id, conn: seq % 64, payload: "p".repeat(seq % 200) }] } });
    } else {
      const id = known[Math.floor(Math.random() * known.length)]!;
      context.read = { database, id };
      request.body =
        roll < 0.75
          ? JSON.stringify({ database, command: { kind: "select", table: "w", columns: ["id", "conn"], where: { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } } } })
          : JSON.stringify({ database, command: { kind: "sql", sql: "SELECT id, conn FROM w WHERE id = ?", params: [id] } });
    }
    return request;
  };

  const onResponse = (status: number, body: string, context: Record<string, unknown>) => {
    const write = context.write as { database: string; id: string } | undefined;
    const read = context.read as { database: string; id: string } | undefined;
    if (status !== 200) {
      if (problems.length < 20) problems.push(`${status} ${body.slice(0, 200)}`);
      return;
    }
    if (write) acked.get(write.database)!.push(write.id);
    if (read) {
      readsChecked += 1;
      const rows = (JSON.parse(body) as { rows: { id: string }[] }).rows;
      if (rows.length !== 1 || rows[0]?.id !== read.id) problems.push(`acknowledged id ${read.id} in ${read.database} not visible: ${body.slice(0, 200)}`);
    }
  };

  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/v1/commands`,
    connections: options.connections,
    duration: options.seconds,
    timeout: 20,
    headers: { "content-type": "application/json" },
    requests: [{ method: "POST", setupRequest, onResponse }],
  });

  // Let requests cut off at the deadline finish on the server before reading files.
  await new Promise((r) => setTimeout(r, 500));
  let lost = 0;
  let unexpected = 0;
  let writesSent = 0;
  let writesAcked = 0;
  for (const database of databases) {
    const onDisk = idsOnDisk(server.dataDir, database);
    const sentHere = sent.get(database)!;
    writesSent += sentHere.size;
    writesAcked += acked.get(database)!.length;
    for (const id of acked.get(database)!) if (!onDisk.has(id)) lost += 1;
    for (const id of onDisk) if (!sentHere.has(id)) unexpected += 1;
    const valid = await server.command({ database, command: { kind: "validate" } });
    assert.is(valid.status, 200, valid.text);
    assert.ok((valid.json as { valid: boolean }).valid, `${database} valid after the load: ${valid.text}`);
  }
  assert.equal(problems, [], `requests failed under load:\n${problems.join("\n")}\nserver log:\n${server.log.slice(-3000)}`);
  return {
    requests: result.requests.total,
    writesSent,
    writesAcked,
    readsChecked,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    perSecond: result.requests.average,
    lost,
    unexpected,
    rssBeforeMiB,
    rssAfterMiB: server.rssMiB(),
  };
}
