/**
 * Memory of an opened database (issue 18): the heap a database takes once
 * loaded, beside the size of its `.store` file, and the process's RSS.
 *
 * The database is the executor benchmark's dataset — 100k users (8
 * columns, indexes by_city and by_score) and 300k orders (4 columns, index
 * by_user) — written through the engine (1,000-row inserts) and checkpointed
 * into one document. It is then opened read-only, and one query answered,
 * in a fresh process (`node --expose-gc`), so nothing else lives on its
 * heap: a small database of the same shape is opened first (the code every
 * database shares — the SQL parser, compiled readers and plans — is
 * loaded and optimized before the measurement starts), then the heap is
 * measured after full collections before and after the big open: V8's
 * heap and the array buffers beside it (typed arrays keep their elements
 * outside the heap, and a table keeps its number columns and index links in
 * them). Their growth over the file size is the figure
 * `HEAP_PER_STORED_BYTE` (`src/storage/open-budget.ts`) estimates.
 *
 * `bench/storage.ts` prints it last; `npm run bench -- heap` runs it alone.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command, Value } from "../src/commands/types.js";
import { Database } from "../src/database.js";
import { HEAP_PER_STORED_BYTE } from "../src/storage/open-budget.js";
import { DATASET_SCHEMAS, generateDataset, ORDERS, USERS } from "./dataset.js";

const TARGET = 1.5;
const MB = 1024 * 1024;

export interface HeapFigures {
  readonly fileBytes: number;
  /** Heap used after the open less heap used before it, after full collections: V8's heap and array buffers. */
  readonly heapBytes: number;
  /** The array buffers' part of it. */
  readonly bufferBytes: number;
  /** Resident set growth over the open, once collected (what the process keeps from the system). */
  readonly rssBytes: number;
  /** The resident set's peak during the open over its size before (the text, the parsed document and the rows at once). */
  readonly peakRssBytes: number;
  /** CPU time of the open and first answer, ms. */
  readonly openCpuMs: number;
  readonly rows: number;
}

/** Writes the dataset (the executor benchmark's generator and seed) with `users` and `orders` rows into `file`. */
async function writeDataset(file: string, users: number, orders: number): Promise<void> {
  const dataset = generateDataset(users, orders);
  const db = await Database.open(file);
  for (const command of DATASET_SCHEMAS) await db.execute(command);
  for (const [table, rows] of [["users", dataset.users], ["orders", dataset.orders]] as const) {
    for (let from = 0; from < rows.length; from += 1000) {
      await db.execute({ kind: "insert", table, rows: rows.slice(from, from + 1000) as unknown as Record<string, Value>[] });
    }
  }
  await db.close(); // folds the journal into the document
}

const FIRST_QUERY: Command = { kind: "sql", sql: "SELECT count(*) AS n FROM orders WHERE amount > ?", params: [500] };

/** In the measuring process: open `small` (warm), then measure the open of `big`. */
async function measureHere(small: string, big: string): Promise<HeapFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("the heap measurement needs node --expose-gc");
  const warm = await Database.open(small, { readOnly: true });
  await warm.execute(FIRST_QUERY);
  await warm.close();
  const settle = async (): Promise<NodeJS.MemoryUsage> => {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
    return process.memoryUsage();
  };
  const before = await settle();
  const cpu = process.cpuUsage();
  const db = await Database.open(big, { readOnly: true });
  const answer = await db.execute(FIRST_QUERY);
  const used = process.cpuUsage(cpu);
  const after = await settle();
  const figures: HeapFigures = {
    fileBytes: statSync(big).size,
    heapBytes: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers),
    bufferBytes: after.arrayBuffers - before.arrayBuffers,
    rssBytes: after.rss - before.rss,
    peakRssBytes: process.resourceUsage().maxRSS * 1024 - before.rss,
    openCpuMs: (used.user + used.system) / 1000,
    rows: answer.kind === "rows" ? ((answer.rows[0] as { n: number }).n) : -1,
  };
  await db.close();
  return figures;
}

/** Writes the dataset, then measures its open in a fresh process. */
export async function measureHeap(): Promise<HeapFigures> {
  const root = mkdtempSync(path.join(os.tmpdir(), "storedb-heap-"));
  try {
    const small = path.join(root, "small.store");
    const big = path.join(root, "big.store");
    await writeDataset(small, 100, 300);
    await writeDataset(big, USERS, ORDERS);
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--measure", small, big], { encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").pop() as string) as HeapFigures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function printHeap(h: HeapFigures): void {
  const ratio = h.heapBytes / h.fileBytes;
  const mb = (n: number) => (n / MB).toFixed(1);
  console.log(`\nMemory of an opened database: ${USERS / 1000}k users + ${ORDERS / 1000}k orders (3 indexes), read-only, one query answered, fresh process`);
  console.table([
    {
      ".store MB": mb(h.fileBytes),
      "heap MB": mb(h.heapBytes),
      "of it array buffers": mb(h.bufferBytes),
      "heap/file": `${ratio.toFixed(2)}x`,
      "RSS MB": mb(h.rssBytes),
      "RSS/file": `${(h.rssBytes / h.fileBytes).toFixed(2)}x`,
      "peak RSS MB": mb(h.peakRssBytes),
      "open CPU ms": h.openCpuMs.toFixed(0),
    },
  ]);
  console.log(`HEAP_PER_STORED_BYTE (the open-database budget's estimate): ${HEAP_PER_STORED_BYTE}`);
  console.log(`target heap within ${TARGET}x the file: ${ratio <= TARGET ? "met" : "MISSED"} (${ratio.toFixed(2)}x; answer ${h.rows})`);
}

const self = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (self && process.argv[2] === "--measure") {
  console.log(JSON.stringify(await measureHere(process.argv[3] as string, process.argv[4] as string)));
} else if (self) {
  printHeap(await measureHeap());
}
