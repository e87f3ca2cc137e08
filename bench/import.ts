/**
 * Import benchmark: `storedb import` of a 1,000,000-row CSV file against
 * Debian's `sqlite3` command-line shell and its `.import`, side by side.
 *
 * The same generated file (`test/cli/support/csv-fixture.ts`, 6 columns,
 * ~60 MB) goes in four ways, in interleaved rounds, each a fresh process on
 * a fresh database:
 * - into a new table: `storedb import` creates it with inferred types (it
 *   reads the file twice); sqlite3 creates all-TEXT columns from the header;
 * - into an existing typed table (storedb converts each field to its
 *   column's type; sqlite3 `.import --skip 1` into a table with declared
 *   types and their affinity conversions).
 * Both are whole commands end to end — start-up, reading, parsing, writing,
 * and durable on disk when the process exits (storedb: one durable journal
 * append per batch of 50,000 rows, then one checkpoint writing the whole
 * `.store` document; sqlite3: `.import` wraps the whole file in one
 * transaction, BEGIN … COMMIT, with its default synchronous=FULL). Figures:
 * median wall time and rows/s, median CPU time (user + system, robust where
 * wall time is not on a busy machine), and storedb's rate as a ratio of
 * sqlite3's. The checksums: each database's count(*), sum(id) and
 * sum(score) after the last round (all four must agree), and the SHA-256 of
 * storedb's export of the table, which must equal the input's.
 *
 * Beside them, each round, the floor (`bench/import-floor.ts`, bundled):
 * the least work in this runtime from the CSV bytes to the rows in memory
 * (`floor: rows`), and to a durable document of them written the way
 * storedb's design writes (`floor: durable`: a journal line per batch,
 * then the document), each as a fraction of sqlite3's CPU.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { buildCli, bundleOptions, root } from "../scripts/bundle.mjs";
import { writeFixture } from "../test/cli/support/csv-fixture.js";

const ROWS = 1_000_000;
const ROUNDS = 3;
const TYPED = "CREATE TABLE t (id INTEGER, name TEXT, score INTEGER, amount REAL, active TEXT, note TEXT)";

interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Runs `command` under sh and returns its wall time and the CPU time of everything it ran (the shell's cutime + cstime). */
function timed(command: string, cwd: string): Run {
  const started = performance.now();
  const run = spawnSync("sh", ["-c", `${command} >/dev/null && cat /proc/$$/stat`], { cwd, encoding: "utf8", maxBuffer: 1 << 20 });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`${command} failed (${run.status}): ${run.stderr}`);
  const fields = run.stdout.slice(run.stdout.lastIndexOf(")") + 2).split(" ");
  return { wallMs, cpuMs: (Number(fields[13]) + Number(fields[14])) * 10 };
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function sqliteAvailable(): boolean {
  return spawnSync("sqlite3", ["--version"], { encoding: "utf8" }).status === 0;
}

async function main(): Promise<void> {
  if (!sqliteAvailable()) {
    console.log("sqlite3 is not installed (apt-get install sqlite3; .ci/run installs it): no peer to compare with");
    process.exitCode = 1;
    return;
  }
  const work = mkdtempSync(path.join(os.tmpdir(), "storedb-bench-import-"));
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const bundleDir = mkdtempSync(path.join(root, ".tmp", "bench-import-"));
  process.once("exit", () => {
    rmSync(work, { recursive: true, force: true });
    rmSync(bundleDir, { recursive: true, force: true });
  });
  const cli = await buildCli(bundleDir);
  const floor = path.join(bundleDir, "import-floor.js");
  await build({ ...bundleOptions, entryPoints: [path.join(root, "bench", "import-floor.ts")], outfile: floor, logLevel: "error" });
  const csv = path.join(work, "rows.csv");
  await writeFixture(csv, ROWS);
  const storedb = (args: string) => `${quote(process.execPath)} ${quote(cli)} ${args}`;

  const runs = new Map<string, Run[]>();
  const record = (name: string, run: Run): void => void runs.set(name, [...(runs.get(name) ?? []), run]);
  const fresh = (name: string): string => {
    const dir = path.join(work, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    return dir;
  };

  console.log(`${ROWS.toLocaleString("en-US")} rows, ${ROUNDS} interleaved rounds, a fresh process and database each run (figures on a shared machine are provisional)`);
  for (let round = 0; round < ROUNDS; round++) {
    let dir = fresh("storedb-new");
    record("storedb, new table", timed(storedb(`import shop t ${quote(csv)} --data data`), dir));
    dir = fresh("sqlite-new");
    record("sqlite3, new table", timed(`sqlite3 t.db ${quote(`.import --csv ${csv} t`)}`, dir));
    dir = fresh("storedb-typed");
    spawnSync(process.execPath, [cli, "sql", "shop", TYPED.replace("active TEXT", "active BOOLEAN"), "--data", "data"], { cwd: dir });
    record("storedb, existing table", timed(storedb(`import shop t ${quote(csv)} --data data`), dir));
    dir = fresh("sqlite-typed");
    spawnSync("sqlite3", ["t.db", TYPED], { cwd: dir });
    record("sqlite3, existing table", timed(`sqlite3 t.db ${quote(`.import --csv --skip 1 ${csv} t`)}`, dir));
    for (const stage of ["rows", "durable"]) {
      dir = fresh(`floor-${stage}`);
      record(`floor: ${stage}`, timed(`${quote(process.execPath)} ${quote(floor)} ${stage} ${quote(csv)} .`, dir));
    }
    console.log(`round ${round + 1}: ${[...runs].map(([name, list]) => `${name} ${((list[round] as Run).wallMs / 1000).toFixed(2)} s`).join(", ")}`);
  }

  console.log("\nrun".padEnd(28) + "wall s".padStart(9) + "rows/s".padStart(12) + "cpu s".padStart(9) + "   rows/s vs sqlite3 (median wall; cpu)");
  for (const [name, list] of runs) {
    const wall = median(list.map((r) => r.wallMs));
    const cpu = median(list.map((r) => r.cpuMs));
    const peer = runs.get(name.startsWith("floor") ? "sqlite3, new table" : name.replace("storedb", "sqlite3"));
    const ratio = (name.startsWith("storedb") || name.startsWith("floor")) && peer ? `${(median(peer.map((r) => r.wallMs)) / wall).toFixed(2)}x; ${(median(peer.map((r) => r.cpuMs)) / cpu).toFixed(2)}x` : "";
    console.log(name.padEnd(27) + (wall / 1000).toFixed(2).padStart(9) + Math.round(ROWS / (wall / 1000)).toLocaleString("en-US").padStart(12) + (cpu / 1000).toFixed(2).padStart(9) + "   " + ratio);
  }

  // CAST: sqlite3 creates a new table's columns as TEXT, and sums text as reals.
  const SUMS = "SELECT count(*), sum(CAST(id AS INTEGER)), sum(CAST(score AS INTEGER)) FROM t";
  const storedbSums = (dir: string): string => {
    const run = spawnSync(process.execPath, [cli, "sql", "shop", SUMS, "--data", "data", "--json"], { cwd: path.join(work, dir), encoding: "utf8" });
    return (JSON.parse(run.stdout) as { rows: Record<string, unknown>[] }).rows.map((row) => Object.values(row).join("|")).join();
  };
  const sqliteSums = (dir: string): string => spawnSync("sqlite3", ["t.db", SUMS], { cwd: path.join(work, dir), encoding: "utf8" }).stdout.trim();
  const sums = [storedbSums("storedb-new"), sqliteSums("sqlite-new"), storedbSums("storedb-typed"), sqliteSums("sqlite-typed")];
  const exported = spawnSync(process.execPath, [cli, "export", "shop", "t", "--data", "data"], { cwd: path.join(work, "storedb-typed"), maxBuffer: 1 << 30 });
  const ours = createHash("sha256").update(exported.stdout).digest("hex");
  const input = createHash("sha256").update(readFileSync(csv)).digest("hex");
  console.log(`\nchecksum count|sum(id)|sum(score): ${sums.join(", ")}${new Set(sums).size === 1 ? " (all equal)" : " (DIFFER)"}`);
  console.log(`checksum: storedb export sha256 ${ours.slice(0, 16)} ${ours === input ? "= input" : `!= input ${input.slice(0, 16)}`}`);
  console.log("sqlite3 .import: one transaction for the whole file; storedb: one durable commit per 50,000-row batch, one checkpoint at the end");
  console.log("floor: rows = the CSV read into row arrays, nothing else; durable = that, a journal line per batch and the document (floors against sqlite3's new table)");
  if (ours !== input || new Set(sums).size !== 1) process.exitCode = 1;
}

await main();
