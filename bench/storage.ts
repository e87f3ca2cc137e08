/**
 * Storage benchmark: the durable write path and load, against better-sqlite3
 * on a file (journal_mode=WAL, synchronous=FULL), side by side in one run.
 *
 * For 1k, 10k and 100k rows of a 5-column table:
 * - one durable single-row insert (answered after fsync), storedb vs SQLite;
 * - 64 concurrent inserts (storedb group-commits them) vs 64 sequential,
 *   taken in turns, several times: medians of each, and the speed-up as the
 *   median of each turn's own ratio (a turn's two runs see the same disk and
 *   machine load, so their ratio is steadier than a ratio of medians);
 * - open: the real path, `Database.open` to the first answer (read, verify
 *   the checksum, parse, build and check the engine), fresh each time, in
 *   turns with JSON.parse of the same file's text; and SQLite's open + first
 *   query;
 * - persist: one storedb commit (engine snapshot, serialize with checksum,
 *   atomic replace) step by step, vs the bare JSON.stringify + write + fsync
 *   of the same document; load step by step (read, checksum, parse,
 *   Engine.load), to show where the open time goes. Loading hashes on the
 *   thread pool while it parses, so the steps add up to more than the open;
 * - last, at 100k rows, in turns with JSON.parse: the load floor of this
 *   engine (decode + JSON.parse + row arrays built and type-checked, nothing
 *   else), and the load bound of any engine (what CONTRACT §2 obliges every
 *   loader to do — read, checksum, decode, parse, type-check — with no row
 *   built at all).
 * Targets (issue 4): 64 concurrent ≥50x faster than 64 sequential at every
 * size; persist at 100k ≤2x bare stringify+write+fsync; open (load) of 100k
 * rows ≤1.3x JSON.parse. A checksum over the answers keeps the work observable.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Engine } from "../src/catalog/engine.js";
import { compileRowReader } from "../src/catalog/read-rows.js";
import type { TableSnapshot } from "../src/catalog/types.js";
import type { Result } from "../src/commands/results.js";
import { Database } from "../src/database.js";
import { readStore, StoreWriter } from "../src/storage/format.js";
import { writeAtomically } from "../src/storage/atomic-write.js";
import { sumDocument, sumDocumentOffThread } from "../src/storage/checksum.js";
import { nodeFs } from "../src/storage/fs.js";

/** The slice of better-sqlite3's API used here (the package ships no types). */
interface SqliteDatabase {
  pragma(text: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
  close(): void;
}
const BetterSqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

const SIZES = [1_000, 10_000, 100_000];
const root = mkdtempSync(path.join(os.tmpdir(), "storedb-bench-"));
const digest = createHash("sha256");
const note = (value: unknown) => digest.update(JSON.stringify(value));
let nextId = 10_000_000;

const schema = {
  name: "items",
  columns: { id: "integer", name: "text", qty: "integer", price: "real", active: "boolean" },
  primary_key: { columns: ["id"] },
  required: ["id"],
} as const;
const columns = ["id", "name", "qty", "price", "active"];
/**
 * The least any loader of this file must do before it can answer: decode the
 * text, parse it, and turn each row object into a stored row with its types
 * checked (the engine's compiled reader), with no checksum, no key index and
 * no file read (the file is ASCII, so latin1 decodes it as readStore does).
 * A reader of its own, so its type feedback never reaches the engine's.
 */
const readRows = compileRowReader(columns, ["integer", "text", "integer", "real", "boolean"], [true, false, false, false, false]);
function floorLoad(raw: Buffer): number {
  const document = JSON.parse(raw.toString("latin1")) as { tables: { items: { rows: unknown[] } } };
  const out: unknown[][] = [];
  readRows(document.tables.items.rows, 0, out as never);
  return out.length;
}
/**
 * The least any loader of this file must do under CONTRACT §2, whatever its
 * engine: read the file, verify the checksum (on the thread pool beside the
 * parse, as readStore does), decode, parse, type-check every value and key
 * the rows by primary key. It keeps JSON.parse's row objects as its rows, so
 * no row is built, and skips the unknown-key, required and uniqueness checks:
 * no loader that parses the file with JSON.parse can open it faster.
 */
async function boundLoad(file: string): Promise<number> {
  const bytes = readFileSync(file);
  const verifying = sumDocumentOffThread(bytes).then((sum) => sum.verdict);
  const document = JSON.parse(bytes.toString("latin1")) as { tables: { items: { rows: Record<string, unknown>[] } } };
  const raws = document.tables.items.rows;
  const byKey: Record<string, unknown>[] = [];
  let wrong = 0;
  for (let i = 0; i < raws.length; i++) {
    const r = raws[i]!;
    const { id, name, qty, price, active } = r;
    if (!Number.isSafeInteger(id)) wrong++;
    if (name !== null && typeof name !== "string") wrong++;
    if (qty !== null && !Number.isSafeInteger(qty)) wrong++;
    if (price !== null && !Number.isFinite(price)) wrong++;
    if (active !== null && typeof active !== "boolean") wrong++;
    byKey[id as number] = r;
  }
  if ((await verifying) !== "valid" || wrong > 0) throw new Error("the bound's file is not clean");
  return byKey.length;
}
const rowOf = (i: number) => [i, `item number ${i}`, i % 97, (i % 1000) / 7, i % 2 === 0] as const;
const insert = () => {
  const id = nextId++;
  return { kind: "insert", table: "items", rows: [{ id, name: `item number ${id}`, qty: 1, price: 1.5, active: true }] } as const;
};

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function time<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [ms(start), value];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A `.store` file of n rows written by the storage writer itself. */
function writeStore(file: string, n: number): void {
  const rows = Array.from({ length: n }, (_, i) => rowOf(i));
  const table: TableSnapshot = { schema, columns, rows };
  const fd = openSync(file, "w");
  writeSync(fd, new StoreWriter().write([table]));
  closeSync(fd);
}

function sqliteAt(file: string, n: number): SqliteDatabase {
  const db = new BetterSqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER, price REAL, active INTEGER)");
  const add = db.prepare("INSERT INTO items VALUES (?, ?, ?, ?, ?)");
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const [id, name, qty, price, active] = rowOf(i);
      add.run(id, name, qty, price, active ? 1 : 0);
    }
  })();
  return db;
}

/** The same document as plain objects, for the bare peers. */
function documentOf(n: number): object {
  const objects = Array.from({ length: n }, (_, i) => {
    const [id, name, qty, price, active] = rowOf(i);
    return { id, name, qty, price, active };
  });
  return { checksum: "sha256:" + "0".repeat(64), format: "storedb/1", tables: { items: { schema, rows: objects } } };
}

/** The bare cost the persist target compares with: stringify the document, write it, fsync it. */
function bareStringifyWriteFsync(file: string, doc: object): number {
  const start = process.hrtime.bigint();
  const text = JSON.stringify(doc);
  const fd = openSync(file, "w");
  writeSync(fd, text);
  fsyncSync(fd);
  closeSync(fd);
  return ms(start);
}

interface Row {
  size: number;
  insertMs: number;
  sqliteInsertMs: number;
  concurrent64Ms: number;
  sequential64Ms: number;
  speedup64: number;
  sqlite64Ms: number;
  openMs: number;
  sqliteOpenMs: number;
  parseMs: number;
  snapshotMs: number;
  serializeMs: number;
  diskMs: number;
  persistMs: number;
  bareMs: number;
  readMs: number;
  checksumMs: number;
  decodeParseMs: number;
  engineLoadMs: number;
  bareParseMs: number;
}

async function measure(n: number): Promise<Row> {
  const dir = mkdtempSync(path.join(root, `n${n}-`));
  const file = path.join(dir, "items.store");
  writeStore(file, n);
  const bareDocument = documentOf(n);

  // Open, the real path to the first answer, fresh each time, in turns with JSON.parse of the same text.
  const text = readFileSync(file, "utf8");
  const opens: number[] = [];
  const parses: number[] = [];
  for (let r = 0; r < (n >= 100_000 ? 9 : 15); r++) {
    global.gc?.();
    const [t, [opened, result]] = await time(async () => {
      const d = await Database.open(file);
      return [d, await d.execute({ kind: "select", table: "items", columns: ["id"], limit: 1 })] as const;
    });
    note(result);
    opens.push(t);
    await opened.close();
    global.gc?.();
    const [p, parsed] = await time(() => JSON.parse(text) as { tables: object });
    note(Object.keys(parsed.tables));
    parses.push(p);
  }
  const live = await Database.open(file);

  // Where persist and load time goes, interleaved with the bare peers so both see the same machine load.
  const engine = Engine.load([{ name: "items", schema, rows: (JSON.parse(text) as { tables: { items: { rows: unknown[] } } }).tables.items.rows }]);
  const writer = new StoreWriter();
  const parts = { snapshot: [] as number[], serialize: [] as number[], disk: [] as number[], bare: [] as number[] };
  const loads = { read: [] as number[], checksum: [] as number[], parse: [] as number[], engine: [] as number[], bareParse: [] as number[] };
  for (let r = 0; r < 5; r++) {
    global.gc?.();
    const [s1, snapshot] = await time(() => engine.snapshot());
    const [s2, bytes] = await time(() => writer.write(snapshot));
    const [s3] = await time(() => writeAtomically(nodeFs, path.join(dir, "persist.store"), bytes));
    parts.snapshot.push(s1);
    parts.serialize.push(s2);
    parts.disk.push(s3);
    parts.bare.push(bareStringifyWriteFsync(path.join(dir, "bare.json"), bareDocument));
    global.gc?.();
    const [l1, stored] = await time(() => readFileSync(file));
    const [l2, verdict] = await time(() => sumDocument(stored).verdict);
    const [l3, read] = await time(() => readStore(stored));
    const [l4, loaded] = await time(() => Engine.load(read.tables!));
    const [l5] = await time(() => JSON.parse(text) as unknown);
    note([verdict, read.problems.length, loaded.problems.length]);
    loads.read.push(l1);
    loads.checksum.push(l2);
    loads.parse.push(l3);
    loads.engine.push(l4);
    loads.bareParse.push(l5);
  }

  // One durable insert at a time.
  const repeats = n >= 100_000 ? 8 : 20;
  const singles: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const [t, result] = await time(() => live.execute(insert()));
    note(result);
    singles.push(t);
  }
  // 64 sequential and 64 concurrent inserts, in turns.
  const sequential: number[] = [];
  const concurrent: number[] = [];
  for (let r = 0; r < (n >= 100_000 ? 5 : 15); r++) {
    const [s] = await time(async () => {
      for (let i = 0; i < 64; i++) note(await live.execute(insert()));
    });
    sequential.push(s);
    const [c, results] = await time(() => Promise.all(Array.from({ length: 64 }, () => live.execute(insert()))));
    note(results.map((x: Result) => x.kind));
    concurrent.push(c);
  }
  await live.close();

  const sqlite = sqliteAt(path.join(dir, "items.sqlite"), n);
  const add = sqlite.prepare("INSERT INTO items VALUES (?, ?, ?, ?, ?)");
  const sqliteSingles: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const [t] = await time(() => add.run(nextId++, "x", 1, 1.5, 1));
    sqliteSingles.push(t);
  }
  const [sqlite64] = await time(() => {
    for (let i = 0; i < 64; i++) add.run(nextId++, "x", 1, 1.5, 1);
  });
  sqlite.close();
  const [sqliteOpen] = await time(() => {
    const again = new BetterSqlite(path.join(dir, "items.sqlite"));
    note(again.prepare("SELECT id FROM items LIMIT 1").get());
    again.close();
  });

  rmSync(dir, { recursive: true, force: true });
  return {
    size: n,
    insertMs: median(singles),
    sqliteInsertMs: median(sqliteSingles),
    concurrent64Ms: median(concurrent),
    sequential64Ms: median(sequential),
    speedup64: median(sequential.map((s, i) => s / concurrent[i]!)),
    sqlite64Ms: sqlite64,
    openMs: median(opens),
    sqliteOpenMs: sqliteOpen,
    parseMs: median(parses),
    snapshotMs: median(parts.snapshot),
    serializeMs: median(parts.serialize),
    diskMs: median(parts.disk),
    persistMs: median(parts.snapshot.map((x, i) => x + parts.serialize[i]! + parts.disk[i]!)),
    bareMs: median(parts.bare),
    readMs: median(loads.read),
    checksumMs: median(loads.checksum),
    decodeParseMs: median(loads.parse),
    engineLoadMs: median(loads.engine),
    bareParseMs: median(loads.bareParse),
  };
}

/**
 * The floor and the bound at the largest size, in turns with JSON.parse,
 * after everything else: beside the opens, their garbage and type feedback
 * made them slower.
 */
async function measureFloorAndBound(n: number): Promise<{ floorMs: number; boundMs: number; parseMs: number }> {
  const file = path.join(mkdtempSync(path.join(root, `floor-`)), "items.store");
  writeStore(file, n);
  const raw = readFileSync(file);
  const text = raw.toString("utf8");
  const floors: number[] = [];
  const bounds: number[] = [];
  const parses: number[] = [];
  for (let r = 0; r < 9; r++) {
    global.gc?.();
    const [fl, floorRows] = await time(() => floorLoad(raw));
    note(floorRows);
    floors.push(fl);
    global.gc?.();
    const [b, boundRows] = await time(() => boundLoad(file));
    note(boundRows);
    bounds.push(b);
    global.gc?.();
    const [p, parsed] = await time(() => JSON.parse(text) as { tables: object });
    note(Object.keys(parsed.tables));
    parses.push(p);
  }
  return { floorMs: median(floors), boundMs: median(bounds), parseMs: median(parses) };
}

const f = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const rows: Row[] = [];
for (const n of SIZES) rows.push(await measure(n));
const limits = await measureFloorAndBound(SIZES[SIZES.length - 1]!);
rmSync(root, { recursive: true, force: true });

console.log("\nDurable writes (ms, median; storedb answers after fsync of file and directory)");
console.table(
  rows.map((r) => ({
    rows: r.size,
    "storedb insert": f(r.insertMs),
    "sqlite insert": f(r.sqliteInsertMs),
    "storedb 64 seq": f(r.sequential64Ms),
    "storedb 64 concurrent": f(r.concurrent64Ms),
    "seq/concurrent": f(r.speedup64) + "x",
    "sqlite 64 seq": f(r.sqlite64Ms),
  })),
);
console.log("Open (ms, median): storedb Database.open to the first answer, vs JSON.parse of the same text; and SQLite");
console.table(
  rows.map((r) => ({
    rows: r.size,
    "storedb open": f(r.openMs),
    "JSON.parse": f(r.parseMs),
    "open/parse": f(r.openMs / r.parseMs) + "x",
    "sqlite open": f(r.sqliteOpenMs),
  })),
);
console.log("Load, step by step (ms, median of 5): read; checksum alone on the main thread (opening hashes on the thread pool, overlapped with the parse); readStore (decode + parse, checksum overlapped); Engine.load (rows, checks, keys); vs JSON.parse of the same text");
console.table(
  rows.map((r) => ({
    rows: r.size,
    read: f(r.readMs),
    "checksum alone": f(r.checksumMs),
    readStore: f(r.decodeParseMs),
    "Engine.load": f(r.engineLoadMs),
    "JSON.parse": f(r.bareParseMs),
    "readStore/parse": f(r.decodeParseMs / r.bareParseMs) + "x",
    "Engine.load/parse": f(r.engineLoadMs / r.bareParseMs) + "x",
  })),
);
console.log("Persist, step by step (ms, median of 5): snapshot + serialize (incl. checksum) + temp/write/fsync/rename/fsync(dir), vs bare stringify + write + fsync");
console.table(
  rows.map((r) => ({
    rows: r.size,
    "engine.snapshot": f(r.snapshotMs),
    serialize: f(r.serializeMs),
    disk: f(r.diskMs),
    persist: f(r.persistMs),
    bare: f(r.bareMs),
    "persist/bare": f(r.persistMs / r.bareMs) + "x",
  })),
);
console.log(
  `Load floor at ${SIZES[SIZES.length - 1]} rows (ms, median of 9): decode + JSON.parse + row arrays built and type-checked, nothing else — the least this engine's loader does before it answers: ${f(limits.floorMs)} vs JSON.parse ${f(limits.parseMs)} (${f(limits.floorMs / limits.parseMs)}x)`,
);
console.log(
  `Load bound at ${SIZES[SIZES.length - 1]} rows (same turns): read + checksum (thread pool, beside the parse) + decode + JSON.parse + every value type-checked + rows keyed, no row built — the least any loader does under CONTRACT §2: ${f(limits.boundMs)} vs JSON.parse ${f(limits.parseMs)} (${f(limits.boundMs / limits.parseMs)}x)`,
);
const big = rows[rows.length - 1]!;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
console.log(`target 64 concurrent >=50x faster than 64 sequential at every size: ${verdict(rows.every((r) => r.speedup64 >= 50))} (${rows.map((r) => f(r.speedup64) + "x").join(", ")})`);
console.log(`target persist at 100k <=2x bare: ${verdict(big.persistMs / big.bareMs <= 2)} (${f(big.persistMs / big.bareMs)}x)`);
console.log(`target load (open to first answer) of 100k <=1.3x JSON.parse: ${verdict(big.openMs / big.parseMs <= 1.3)} (${f(big.openMs / big.parseMs)}x; Engine.load alone ${f(big.engineLoadMs / big.bareParseMs)}x; this engine's floor ${f(limits.floorMs / limits.parseMs)}x; any engine's bound ${f(limits.boundMs / limits.parseMs)}x)`);
console.log(`checksum ${digest.digest("hex").slice(0, 16)}`);
