/**
 * `storedb import` and `storedb export` through real processes: a million
 * CSV rows in and out byte for byte, types inferred or taken from an
 * existing table, JSON Lines both ways, refused batches reported by record,
 * export of a query within its own LIMIT/OFFSET, the progress bar on
 * a terminal and a plain count in a pipe, and the exit codes.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { createHash } from "node:crypto";
import { createReadStream, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../server/support/server-process.js";
import { runCli } from "./support/cli-process.js";
import { writeFixture } from "./support/csv-fixture.js";
import { MODES, openMode, type Mode, type ModeKind } from "./support/modes.js";
import { Terminal } from "./support/pty.js";

const scratch: string[] = [];
const open: Mode[] = [];
test.after(async () => {
  await Promise.all(open.map((mode) => mode.close()));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function modeIn(kind: ModeKind): Promise<Mode> {
  const mode = await openMode(kind, workdir());
  open.push(mode);
  return mode;
}

function workdir(): string {
  const dir = tempDir("cli-transfer");
  scratch.push(dir);
  return dir;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function json(at: string | Mode, sql: string): Promise<Record<string, unknown>> {
  const run = typeof at === "string" ? await runCli(["sql", "shop", sql, "--json"], { cwd: at }) : await at.run(["sql", "shop", sql, "--json"]);
  assert.is(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

test("1,000,000 CSV rows: imported into a new table, exported back byte for byte", async () => {
  const cwd = workdir();
  const input = path.join(cwd, "big.csv");
  await writeFixture(input, 1_000_000);
  const imported = await runCli(["import", "shop", "big", input], { cwd, timeoutMs: 300_000 });
  assert.is(imported.code, 0, imported.stderr);
  assert.is(imported.stdout, "1000000 rows imported into big (table created)\n");
  assert.is(imported.stderr, "", "no progress bar when stderr is not a terminal");
  const schema = await json(cwd, "SELECT id FROM big WHERE id = 999999");
  assert.equal(schema.rows, [{ id: 999999 }]);
  const described = await runCli(["shell", "shop"], { cwd, input: ".schema big\n" });
  assert.match(described.stdout, /id +\| integer[\s\S]*name +\| text[\s\S]*score +\| integer[\s\S]*amount +\| real[\s\S]*active +\| boolean[\s\S]*note +\| text/);

  const output = path.join(cwd, "out.csv");
  const exported = await runCli(["export", "shop", "big"], { cwd, timeoutMs: 300_000 });
  assert.is(exported.code, 0, exported.stderr);
  writeFileSync(output, exported.stdout);
  assert.is(await sha256(output), await sha256(input), "the export is the input, byte for byte");

  // A query's LIMIT/OFFSET holds across the slices of 10,000 rows it is written in.
  const page = await runCli(["export", "shop", "--query", "SELECT id FROM big WHERE active = TRUE ORDER BY id DESC LIMIT 25000 OFFSET 5", "--format", "jsonl"], { cwd });
  assert.is(page.code, 0, page.stderr);
  const ids = page.stdout.trimEnd().split("\n").map((line) => (JSON.parse(line) as { id: number }).id);
  assert.is(ids.length, 25_000);
  assert.is(ids[0], 999_999 - (999_999 % 3) - 15);
  assert.ok(ids.every((id, i) => id % 3 === 0 && (i === 0 || id === (ids[i - 1] as number) - 3)), "no row twice, none skipped across pages");
});

for (const kind of MODES) {
  test(`${kind}: into an existing table: fields converted to its types; a refused batch names its records, earlier batches stay`, async () => {
    const mode = await modeIn(kind);
    const cwd = mode.cwd;
    const made = await mode.run(["sql", "shop", "CREATE TABLE items (id INT PRIMARY KEY, label TEXT NOT NULL, price REAL, ok BOOLEAN, qty INT DEFAULT 1)"]);
    assert.is(made.code, 0, made.stderr);
    const file = path.join(cwd, "items.csv");
    writeFileSync(file, "\ufeffok,id,price,label\r\nTRUE,007,2,\"a, b\"\r\nfalse,8,.5,\"multi\nline\"\r\n,9,,x\r\n");
    const run = await mode.run(["import", "shop", "items", file, "--json"]);
    assert.is(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout), { kind: "import", table: "items", rows: 3, created: false });
    const rows = await json(mode, "SELECT id, label, price, ok, qty FROM items ORDER BY id");
    assert.equal(rows.rows, [
      { id: 7, label: "a, b", price: 2, ok: true, qty: 1 },
      { id: 8, label: "multi\nline", price: 0.5, ok: false, qty: 1 },
      { id: 9, label: "x", price: null, ok: null, qty: 1 },
    ]);

    // Batches of two: the second batch (records 3-4) holds a duplicate key and a bad number.
    const bad = path.join(cwd, "bad.csv");
    writeFileSync(bad, "id,label,price\n10,a,1\n11,b,2\n12,c,x\n7,dup,3\n13,e,4\n");
    const refused = await mode.run(["import", "shop", "items", bad, "--batch", "2", "--json"]);
    assert.is(refused.code, 1);
    const problem = JSON.parse(refused.stderr);
    assert.is(problem.code, "validation_failed");
    assert.match(problem.detail, /records 3–4 was refused \(2 rows before it were imported\)/);
    assert.equal(problem.errors.map((e: { row: number; column: string; code: string }) => [e.row, e.column, e.code]), [[2, "price", "type"]]);
    assert.equal((await json(mode, "SELECT id FROM items WHERE id >= 10 ORDER BY id")).rows, [{ id: 10 }, { id: 11 }]);

    // A batch is sent as several prepared statements: a refused row in a later one is still named by its record.
    const long = path.join(cwd, "long.csv");
    const records = Array.from({ length: 12_000 }, (_, i) => `${1000 + i},l${i},${i === 9_876 ? "oops" : i}`);
    writeFileSync(long, "id,label,price\n" + records.join("\n") + "\n");
    const late = await mode.run(["import", "shop", "items", long, "--json"]);
    assert.is(late.code, 1);
    const lateProblem = JSON.parse(late.stderr);
    assert.match(lateProblem.detail, /^The batch of records 1–12000 was refused \(0 rows before it were imported\): Insert into "items"/);
    assert.is(lateProblem.step, undefined, "the statements are not the user's steps");
    assert.equal(lateProblem.errors.map((e: { row: number; column: string; code: string }) => [e.row, e.column, e.code]), [[9_876, "price", "type"]]);
    assert.equal((await json(mode, "SELECT count(*) AS n FROM items WHERE id >= 1000")).rows, [{ n: 0 }]);

    const unknown = path.join(cwd, "unknown.csv");
    writeFileSync(unknown, "id,label,colour\n20,a,red\n");
    const wrongColumn = await mode.run(["import", "shop", "items", unknown]);
    assert.is(wrongColumn.code, 1);
    assert.match(wrongColumn.stderr, /"colour" is not a column of table items.*\[unknown_column\]/);

    const ragged = path.join(cwd, "ragged.csv");
    writeFileSync(ragged, "id,label\n21,a\n22\n");
    const short = await mode.run(["import", "shop", "items", ragged]);
    assert.is(short.code, 1);
    assert.match(short.stderr, /Record 2 has 1 fields; the header has 2/);
  });

  test(`${kind}: inference keeps what the file says: leading zeros, mixed columns and empty columns stay text`, async () => {
    const mode = await modeIn(kind);
    const cwd = mode.cwd;
    const file = path.join(cwd, "zips.csv");
    writeFileSync(file, "zip,n,mixed,flag,empty,r\n01234,1,1,true,,1\n75001,2,x,false,,2.5\n");
    const run = await mode.run(["import", "shop", "zips", file]);
    assert.is(run.code, 0, run.stderr);
    const described = await mode.run(["shell", "shop"], { input: ".schema zips\n" });
    assert.match(described.stdout, /zip +\| text[\s\S]*n +\| integer[\s\S]*mixed +\| text[\s\S]*flag +\| boolean[\s\S]*empty +\| text[\s\S]*r +\| real/);
    assert.equal((await json(mode, "SELECT zip, r FROM zips")).rows, [{ zip: "01234", r: 1 }, { zip: "75001", r: 2.5 }]);
  });

  test(`${kind}: JSON Lines: a table created from the values' types, exported back the same; mixed types refused before anything is written`, async () => {
    const mode = await modeIn(kind);
    const cwd = mode.cwd;
    const file = path.join(cwd, "events.jsonl");
    const lines = ['{"id":1,"kind":"click","ok":true,"weight":1}', '{"id":2,"kind":null,"ok":false,"weight":2.5}', '{"id":3,"kind":"view","ok":null,"weight":null}'];
    writeFileSync(file, lines.join("\n") + "\n\n");
    const run = await mode.run(["import", "shop", "events", file]);
    assert.is(run.code, 0, run.stderr);
    const exported = await mode.run(["export", "shop", "events", "--format", "jsonl"]);
    assert.is(exported.code, 0, exported.stderr);
    assert.is(exported.stdout, lines.join("\n") + "\n");

    const mixed = path.join(cwd, "mixed.jsonl");
    writeFileSync(mixed, '{"a":1}\n{"a":"x"}\n');
    const refused = await mode.run(["import", "shop", "mixed", mixed]);
    assert.is(refused.code, 1);
    assert.match(refused.stderr, /Record 2: "a" holds text after values of type integer/);
    const none = await mode.run(["sql", "shop", "SELECT a FROM mixed"]);
    assert.match(none.stderr, /\[table_not_found\]/);

    const broken = path.join(cwd, "broken.jsonl");
    writeFileSync(broken, '{"id":4}\n[1]\n');
    const notObject = await mode.run(["import", "shop", "events", broken]);
    assert.is(notObject.code, 1);
    assert.match(notObject.stderr, /Line 2 is not a JSON object/);
  });
}

test("exit codes: usage errors are 2 and touch nothing; a missing table or a bad query is 1 with its position", async () => {
  const cwd = workdir();
  mkdirSync(path.join(cwd, "dir.csv"));
  writeFileSync(path.join(cwd, "rows.txt"), "a\n1\n");
  for (const args of [
    ["import", "shop", "t", "missing.csv"],
    ["import", "shop", "t", "dir.csv"],
    ["import", "shop", "t", "rows.txt"],
    ["import", "shop", "t", "rows.txt", "--format", "xml"],
    ["import", "shop", "t", "rows.txt", "--format", "csv", "--batch", "0"],
    ["export", "shop"],
    ["export", "shop", "t", "--query", "SELECT a FROM t"],
    ["export", "shop", "t", "--format", "xml"],
    ["export", "shop", "--query", "DELETE FROM t"],
  ]) {
    const run = await runCli(args, { cwd });
    assert.is(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
  }
  const imported = await runCli(["import", "shop", "t", "rows.txt", "--format", "csv"], { cwd });
  assert.is(imported.code, 0, imported.stderr);
  const missing = await runCli(["export", "shop", "nope"], { cwd });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /\[table_not_found\]/);
  const syntax = await runCli(["export", "shop", "--query", "SELECT a\nFROM t WHERE"], { cwd });
  assert.is(syntax.code, 1);
  assert.match(syntax.stderr, /\[sql_syntax_error\]\n2 \| FROM t WHERE\n/);
  const empty = await runCli(["export", "shop", "--query", "SELECT a FROM t LIMIT 0"], { cwd });
  assert.is(empty.code, 0, empty.stderr);
  assert.is(empty.stdout, "a\n", "an empty result still has its header");
});

test("url: 30,000 rows through a server, in batches under its body limit, exported back byte for byte", async () => {
  const mode = await modeIn("url");
  const input = path.join(mode.cwd, "mid.csv");
  await writeFixture(input, 30_000);
  const imported = await mode.run(["import", "shop", "mid", input]);
  assert.is(imported.code, 0, imported.stderr);
  assert.is(imported.stdout, "30000 rows imported into mid (table created)\n");
  const exported = await mode.run(["export", "shop", "mid"]);
  assert.is(exported.code, 0, exported.stderr);
  assert.is(exported.stdout, readFileSync(input, "utf8"));
  // The server's request log (written within 50 ms): one line per batch, each a transaction of prepared inserts (the last may be one).
  const batches = (mode.server?.logs() ?? []).filter((line) => line.command === "transaction" || line.command === "sql");
  // ~2 MB of JSON under the client's ~768 kB batches.
  assert.ok(batches.length >= 3, `several batches (${batches.length})`);
  assert.ok(batches.every((line) => line.status === 200));
});

test("on a terminal the import shows a progress bar with rows/s", async () => {
  const cwd = workdir();
  const file = path.join(cwd, "some.csv");
  await writeFixture(file, 20_000);
  const term = await Terminal.start(["import", "shop", "some", file], cwd, cwd);
  try {
    assert.is(await term.exited, 0, term.screen);
    assert.match(term.screen, /importing some \[[=\-█░ ]*\] 100% \| 20,000 rows \| [\d,]+ rows\/s/);
    assert.match(term.screen, /20000 rows imported into some \(table created\)\n$/);
  } finally {
    term.kill();
  }
  assert.ok(readFileSync(file, "utf8").startsWith("id,name,"));
});

test.run();
