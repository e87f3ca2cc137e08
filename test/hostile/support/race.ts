/**
 * Racing clients. Writers send conflicting commands at the same moment.
 * Commands on one database are serializable (CONTRACT §2), so exactly one of
 * each race wins and the others get the §7 conflict: one create-table of a
 * new database (the file is created once), one insert per primary key (and
 * the stored row is the winner's), one drop of a table. Readers racing a
 * batch writer see whole batches only.
 */
import * as assert from "uvu/assert";
import { codeOf, problemViolations } from "./problem.js";
import type { Reply, ServerProcess } from "./server.js";

const SCHEMA = { name: "r", columns: { id: "integer", who: "integer" }, primary_key: { columns: ["id"] } };

function tally(replies: readonly Reply[], loser: string, what: string, dataDir: string): number {
  const winners = replies.map((r, i) => (r.status === 200 ? i : -1)).filter((i) => i >= 0);
  assert.is(winners.length, 1, `${what}: ${winners.length} winners (${replies.map((r) => r.status).join(",")})`);
  for (const r of replies) {
    if (r.status === 200) continue;
    assert.is(codeOf(r), loser, `${what}: a loser answered ${r.status} ${r.text.slice(0, 200)}`);
    assert.equal(problemViolations(r, { dataDir }), [], what);
  }
  return winners[0]!;
}

export async function raceWriters(server: ServerProcess, clients: number, rounds: number): Promise<number> {
  let requests = 0;
  for (let round = 0; round < rounds; round++) {
    const database = `race${round}`;
    const creates = await Promise.all(Array.from({ length: clients }, () => server.command({ database, command: { kind: "create-table", schema: SCHEMA } })));
    requests += clients;
    tally(creates, "table_exists", `create-table race ${round}`, server.dataDir);

    const inserts = await Promise.all(Array.from({ length: clients }, (_, who) => server.command({ database, command: { kind: "insert", table: "r", rows: [{ id: 1, who }] } })));
    requests += clients;
    const winner = tally(inserts, "constraint_violation", `insert race ${round}`, server.dataDir);
    const stored = await server.command({ database, command: { kind: "select", table: "r", columns: "*" } });
    assert.equal((stored.json as { rows: unknown[] }).rows, [{ id: 1, who: winner }], `the winner's row, once (round ${round})`);

    const drops = await Promise.all(Array.from({ length: clients }, () => server.command({ database, command: { kind: "drop-table", table: "r" } })));
    requests += clients;
    tally(drops, "table_not_found", `drop-table race ${round}`, server.dataDir);
  }
  return requests;
}

/**
 * Readers racing a writer: the writer inserts `batches` inserts of `size`
 * rows each while readers count rows; every count a reader sees is a whole
 * number of batches (a reader never sees half a mutation).
 */
export async function tornReads(server: ServerProcess, batches: number, size: number, readers: number): Promise<number> {
  const database = "torn";
  await server.command({ database, command: { kind: "create-table", schema: SCHEMA } });
  let done = false;
  const seen: number[] = [];
  const reader = async (): Promise<void> => {
    while (!done) {
      const reply = await server.command({ database, command: { kind: "select", table: "r", columns: ["id"], output: "arrays" } });
      assert.is(reply.status, 200, reply.text);
      seen.push((reply.json as { rowCount: number }).rowCount);
    }
  };
  const reading = Array.from({ length: readers }, reader);
  for (let b = 0; b < batches; b++) {
    const rows = Array.from({ length: size }, (_, i) => ({ id: b * size + i, who: b }));
    const reply = await server.command({ database, command: { kind: "insert", table: "r", rows } });
    assert.is(reply.status, 200, reply.text);
  }
  done = true;
  await Promise.all(reading);
  const torn = seen.filter((count) => count % size !== 0);
  assert.equal(torn, [], `readers saw half a batch: ${torn.slice(0, 5).join(", ")}`);
  return seen.length;
}
