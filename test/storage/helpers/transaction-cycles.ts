/**
 * One kill-and-check cycle of the transaction crash test (and the crash
 * soak): start `fixtures/transaction-child.ts` on a data directory, let it
 * write transactions for a while, SIGKILL it, then open the database as a
 * reader and as the next writer and check that every transaction is on
 * disk whole or not at all — each txn in `parts` has all its rows, the
 * running total matches them, `latest` names the last one — and that every
 * acknowledged transaction is there.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { Database } from "../../../src/database.js";
import { partsOf } from "../fixtures/transaction-child.js";

export interface TransactionCycleReport {
  readonly acked: number;
  /** Transactions on disk after the crash. */
  readonly present: number;
  readonly lost: readonly number[];
  /** Transactions present in part. */
  readonly partial: readonly number[];
  readonly problems: readonly string[];
}

export async function transactionCrashCycle(bundle: string, dir: string, first: number, runMs: number, mode: "command" | "library"): Promise<TransactionCycleReport> {
  const child = spawn(process.execPath, [bundle, dir, String(first), mode], { stdio: ["ignore", "pipe", "pipe"] });
  const acked: number[] = [];
  let stderr = "";
  let buffered = "";
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "ready") ready();
      else if (line.startsWith("ack ")) acked.push(Number(line.slice(4)));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await Promise.race([isReady, exited]);
  await Promise.race([new Promise((resolve) => setTimeout(resolve, runMs)), exited]);
  child.kill("SIGKILL");
  await exited;
  if (child.signalCode !== "SIGKILL") return { acked: acked.length, present: 0, lost: [], partial: [], problems: [`child exited early: ${stderr.slice(0, 500)}`] };

  let report: TransactionCycleReport | undefined;
  for (const readOnly of [true, false]) {
    const db = await Database.open(path.join(dir, "crash.store"), { readOnly });
    try {
      report = await check(db, acked);
    } finally {
      await db.close();
    }
    if (report.problems.length > 0 || report.partial.length > 0 || report.lost.length > 0) return report;
  }
  return report!;
}

async function check(db: Database, acked: readonly number[]): Promise<TransactionCycleReport> {
  const problems: string[] = [];
  const validation = await db.execute({ kind: "validate" });
  if (validation.kind !== "validation" || !validation.valid) problems.push(`invalid database: ${JSON.stringify(validation)}`);
  const column = async (table: string, name: string): Promise<number[]> => {
    const result = await db.execute({ kind: "select", table, columns: [name], output: "arrays" });
    return result.kind === "rows" ? (result.rows as unknown as number[][]).map((row) => row[0]!) : [];
  };
  const counts = new Map<number, number>();
  for (const txn of await column("parts", "txn")) counts.set(txn, (counts.get(txn) ?? 0) + 1);
  const partial = [...counts].filter(([txn, count]) => count !== partsOf(txn)).map(([txn]) => txn);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const [n] = await column("totals", "n");
  if (n !== total) problems.push(`totals.n is ${n} but parts holds ${total} rows`);
  const latest = await column("latest", "txn");
  const last = counts.size === 0 ? undefined : Math.max(...counts.keys());
  if (latest[0] !== last) problems.push(`latest is ${JSON.stringify(latest)} but the last transaction present is ${last}`);
  const lost = acked.filter((txn) => !counts.has(txn));
  return { acked: acked.length, present: counts.size, lost, partial, problems };
}
