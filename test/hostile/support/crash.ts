/**
 * Crash under load: writers hammer several databases with single-row and
 * three-row inserts (unique ids) and deletes of acknowledged rows; the
 * server is killed with SIGKILL at a random moment, restarted on the same
 * data directory, and audited:
 *
 * - every database validates (`validate` → valid) and its file parses;
 * - every insert ever acknowledged, in any cycle, is present (unless a
 *   delete of it was sent), and every acknowledged delete stays deleted;
 * - nothing is present that was never sent;
 * - a three-row insert is all there or not there at all.
 *
 * The writers use their own keep-alive client rather than autocannon, so a
 * dropped connection mid-cycle is simply "not acknowledged".
 */
import http from "node:http";
import * as assert from "uvu/assert";
import { idsOnDisk, prepareLoadDatabases } from "./load.js";
import { ServerProcess, sleep } from "./server.js";

export interface CrashOptions {
  readonly cycles: number;
  readonly writers: number;
  readonly databases: number;
  /** Each cycle kills the server after a random time in this range (ms). */
  readonly killAfterMs: readonly [number, number];
  readonly dataDir: string;
  readonly log?: (line: string) => void;
}

export interface CrashFigures {
  readonly cycles: number;
  readonly acked: number;
  readonly sent: number;
  readonly deletesAcked: number;
  readonly lost: number;
  /** Rows whose delete was acknowledged, present again after a crash. */
  readonly resurrected: number;
  readonly unexpected: number;
  readonly tornBatches: number;
}

function post(agent: http.Agent, port: number, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: "127.0.0.1", port, method: "POST", path: "/v1/commands", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      },
    );
    req.setTimeout(15_000, () => req.destroy());
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

export async function crashCycles(options: CrashOptions): Promise<CrashFigures> {
  const sent = new Set<string>();
  const acked = new Map<string, string>(); // id → database
  const batches: { database: string; ids: string[] }[] = [];
  const deletable: { database: string; id: string }[] = [];
  const deleteSent = new Set<string>();
  const deleteAcked = new Set<string>();
  let server = await ServerProcess.start({ dataDir: options.dataDir });
  const databases = await prepareLoadDatabases(server, options.databases, "crash");
  let seq = 0;
  let lost = 0;
  let unexpected = 0;
  let torn = 0;
  let resurrected = 0;
  try {
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: options.writers });
      let stop = false;
      const failures: string[] = [];
      const port = server.port;
      const writer = async (w: number): Promise<void> => {
        while (!stop) {
          const database = databases[(w + seq) % databases.length]!;
          // Every seventh operation deletes a row acknowledged earlier: an acknowledged delete must stay deleted.
          const victim = seq % 7 === 0 ? deletable.pop() : undefined;
          if (victim !== undefined) {
            seq += 1;
            deleteSent.add(victim.id);
            const where = { type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: victim.id } };
            const status = await post(agent, port, JSON.stringify({ database: victim.database, command: { kind: "delete", table: "w", where } }));
            if (status === 200) deleteAcked.add(victim.id);
            else if (status === 0) await sleep(5);
            else {
              failures.push(`cycle ${cycle}: a delete answered ${status}`);
              stop = true;
            }
            continue;
          }
          const many = seq % 5 === 0;
          const ids = Array.from({ length: many ? 3 : 1 }, () => `c${cycle}-w${w}-${++seq}`);
          for (const id of ids) sent.add(id);
          if (many) batches.push({ database, ids });
          const status = await post(agent, port, JSON.stringify({ database, command: { kind: "insert", table: "w", rows: ids.map((id) => ({ id, conn: w, payload: "x".repeat(w * 3) })) } }));
          if (status === 200) {
            for (const id of ids) acked.set(id, database);
            if (!many) deletable.push({ database, id: ids[0]! });
          }
          else if (status === 0) await sleep(5); // the server is gone; spin slowly until told to stop
          else {
            failures.push(`cycle ${cycle}: an insert answered ${status}`);
            stop = true;
          }
        }
      };
      const running = Array.from({ length: options.writers }, (_, w) => writer(w));
      const [lo, hi] = options.killAfterMs;
      await sleep(lo + Math.random() * (hi - lo));
      await server.kill("SIGKILL");
      stop = true;
      await Promise.all(running);
      agent.destroy();
      assert.equal(failures, [], "inserts before the crash");

      server = await ServerProcess.start({ dataDir: options.dataDir });
      lost = 0;
      unexpected = 0;
      torn = 0;
      resurrected = 0;
      const present = new Set<string>();
      for (const database of databases) {
        const valid = await server.command({ database, command: { kind: "validate" } });
        assert.is(valid.status, 200, `validate ${database} after crash ${cycle}: ${valid.text}`);
        assert.ok((valid.json as { valid: boolean }).valid, `${database} invalid after crash ${cycle}: ${valid.text}`);
        for (const id of idsOnDisk(options.dataDir, database)) present.add(`${database}/${id}`);
        const read = await server.command({ database, command: { kind: "select", table: "w", columns: ["id"], output: "arrays" } });
        assert.is((read.json as { rowCount: number }).rowCount, idsOnDisk(options.dataDir, database).size, "the server reads what the file holds");
      }
      for (const [id, database] of acked) if (!deleteSent.has(id) && !present.has(`${database}/${id}`)) lost += 1;
      for (const id of deleteAcked) if (present.has(`${acked.get(id)}/${id}`)) resurrected += 1;
      for (const key of present) if (!sent.has(key.slice(key.indexOf("/") + 1))) unexpected += 1;
      for (const { database, ids } of batches) {
        const here = ids.filter((id) => present.has(`${database}/${id}`)).length;
        if (here !== 0 && here !== ids.length) torn += 1;
      }
      options.log?.(`cycle ${cycle}: ${acked.size} inserts and ${deleteAcked.size} deletes acknowledged so far, ${present.size} rows on disk, lost ${lost}, resurrected ${resurrected}, unexpected ${unexpected}, torn ${torn}`);
      assert.is(lost, 0, `acknowledged writes lost after crash ${cycle}`);
      assert.is(unexpected, 0, `rows nobody sent after crash ${cycle}`);
      assert.is(torn, 0, `multi-row inserts half applied after crash ${cycle}`);
      assert.is(resurrected, 0, `acknowledged deletes undone by crash ${cycle}`);
    }
  } finally {
    await server.kill();
  }
  return { cycles: options.cycles, acked: acked.size, sent: sent.size, deletesAcked: deleteAcked.size, lost, resurrected, unexpected, tornBatches: torn };
}
