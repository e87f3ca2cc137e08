/**
 * `storedb sql` and `storedb validate` through real processes, each case on
 * a data directory and through a real server (`--url`): results as tables
 * and as JSON, parameters, errors with the position marked, and the exit
 * codes scripts rely on.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../server/support/server-process.js";
import { cleanEnv, runCli } from "./support/cli-process.js";
import { API_KEY, MODES, openMode, type Mode, type ModeKind } from "./support/modes.js";

const scratch: string[] = [];
const open: Mode[] = [];
test.after(async () => {
  await Promise.all(open.map((mode) => mode.close()));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function workdir(): string {
  const dir = tempDir("cli-sql");
  scratch.push(dir);
  return dir;
}

async function seeded(kind: ModeKind): Promise<Mode> {
  const mode = await openMode(kind, workdir());
  open.push(mode);
  const create = await mode.run(["sql", "shop", "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL, age INT)"]);
  assert.is(create.code, 0, create.stderr);
  assert.is(create.stdout, "table users created\n");
  const insert = await mode.run(["sql", "shop", "INSERT INTO users (id, name, age) VALUES (?, ?, ?), ('2', 'Grace', NULL)", '"1"', "Ada", "36"]);
  assert.is(insert.code, 0, insert.stderr);
  assert.is(insert.stdout, "2 rows inserted into users\n");
  return mode;
}

for (const kind of MODES) {
  test(`${kind}: sql prints rows as an aligned table with a count`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "SELECT id, name, age FROM users ORDER BY id"]);
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, ["id | name  | age", "---+-------+-----", "1  | Ada   |   36", "2  | Grace | NULL", "(2 rows)", ""].join("\n"));
    assert.is(run.stderr, "");
  });

  test(`${kind}: --json prints the result exactly as the server answers it`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "SELECT name FROM users WHERE age >= ?", "30", "--json"]);
    assert.is(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout), { kind: "rows", columns: ["name"], rows: [{ name: "Ada" }], rowCount: 1 });
  });

  test(`${kind}: a mutation with RETURNING prints its rows above its sentence (the shell's csv mode: the rows alone); an upsert counts each outcome`, async () => {
    const mode = await seeded(kind);
    const insert = await mode.run(["sql", "shop", "INSERT INTO users (id, name) VALUES ('3', 'Linus') RETURNING id, name, age"]);
    assert.is(insert.code, 0, insert.stderr);
    assert.is(insert.stdout, ["id | name  | age", "---+-------+-----", "3  | Linus | NULL", "1 row inserted into users", ""].join("\n"));
    const update = await mode.run(["shell", "shop"], { input: ".mode csv\nUPDATE users SET age = age + 1 WHERE age IS NOT NULL RETURNING name, age;\n" });
    assert.is(update.code, 0, update.stderr);
    assert.is(update.stdout, "name,age\nAda,37\n");
    const upsert = await mode.run(["sql", "shop", "INSERT INTO users (id, name) VALUES ('1', 'Ada L'), ('4', 'Barbara') ON CONFLICT (id) DO UPDATE SET name = excluded.name"]);
    assert.is(upsert.code, 0, upsert.stderr);
    assert.is(upsert.stdout, "1 row inserted into users, 1 updated, 0 ignored\n");
    const ignore = await mode.run(["sql", "shop", "INSERT OR IGNORE INTO users (id, name) VALUES ('2', 'x'), ('5', 'Edsger')"]);
    assert.is(ignore.code, 0, ignore.stderr);
    assert.is(ignore.stdout, "1 row inserted into users, 0 updated, 1 ignored\n");
    const replace = await mode.run(["sql", "shop", "REPLACE INTO users (id, name) VALUES ('2', 'Grace H'), ('6', 'Frances')"]);
    assert.is(replace.code, 0, replace.stderr);
    assert.is(replace.stdout, "1 row inserted into users, 1 replaced\n");
    const copy = await mode.run(["sql", "shop", "CREATE TABLE named AS SELECT id, name FROM users"]);
    assert.is(copy.code, 0, copy.stderr);
    assert.is(copy.stdout, "table named created\n");
  });

  test(`${kind}: a syntax error exits 1 and marks the position under the statement's line`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "SELECT id\nFORM users"]);
    assert.is(run.code, 1);
    assert.is(run.stdout, "");
    const lines = run.stderr.split("\n");
    assert.match(lines[0] ?? "", /^error: .*\[sql_syntax_error\]$/);
    assert.is(lines[1], "2 | FORM users");
    // FORM reads as an alias of the select item, so the parse stops at `users` (the message suggests FROM).
    assert.is(lines[2], "  |      ^");
  });

  test(`${kind}: an unknown column marks its position under the statement's line`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "SELECT id\nFROM users WHERE nmae = 'x'"]);
    assert.is(run.code, 1);
    const lines = run.stderr.split("\n");
    assert.match(lines[0] ?? "", /^error: .*\[unknown_column\]$/);
    assert.is(lines[1], "2 | FROM users WHERE nmae = 'x'");
    assert.is(lines[2], "  |                  ^");
  });

  test(`${kind}: with --json an error is its problem details on stderr`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "SELECT id FROM users WHERE id = ?", "--json"]);
    assert.is(run.code, 1);
    const problem = JSON.parse(run.stderr);
    assert.is(problem.status, 400);
    assert.is(problem.code, "sql_error");
    const dup = await mode.run(["sql", "shop", "INSERT INTO users (id, name) VALUES ('1', 'again')", "--json"]);
    assert.is(dup.code, 1);
    assert.is(JSON.parse(dup.stderr).code, "constraint_violation");
    const missing = await mode.run(["sql", "nosuch", "SELECT a FROM t"]);
    assert.is(missing.code, 1);
    assert.match(missing.stderr, /\[database_not_found\]/);
    const badName = await mode.run(["sql", "../etc", "SELECT a FROM t"]);
    assert.is(badName.code, 1);
    assert.match(badName.stderr, /\[invalid_name\]/);
  });

  test(`${kind}: parameters are JSON scalars or text; a refused value exits 1, a malformed one 2`, async () => {
    const mode = await seeded(kind);
    const text = await mode.run(["sql", "shop", "SELECT name FROM users WHERE id = ?", "1", "--json"]);
    assert.is(text.code, 1, "the number 1 compared with a text column");
    assert.is(JSON.parse(text.stderr).code, "type_mismatch");
    const quoted = await mode.run(["sql", "shop", "SELECT name FROM users WHERE id = ?", '"1"', "--json"]);
    assert.is(quoted.code, 0, quoted.stderr);
    assert.equal(JSON.parse(quoted.stdout).rows, [{ name: "Ada" }]);
    const negative = await mode.run(["sql", "shop", "SELECT name FROM users WHERE age > ?", "--json", "--", "-1"]);
    assert.is(negative.code, 0, negative.stderr);
    assert.is(JSON.parse(negative.stdout).rowCount, 1);
    const huge = await mode.run(["sql", "shop", "SELECT name FROM users WHERE age > ?", "1e400"]);
    assert.is(huge.code, 2);
    assert.match(huge.stderr, /parameter 1: 1e400 is not a finite number/);
  });

  test(`${kind}: validate — valid exits 0; a file damaged by hand is reported with its problems and exits 1`, async () => {
    const mode = await seeded(kind);
    const ok = await mode.run(["validate", "shop"]);
    assert.is(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^valid( \(\d+ journal records? not yet checkpointed into the \.store file\))?\n$/);
    writeFileSync(path.join(mode.cwd, "data", "bad.store"), '{"format":"storedb/1","tables":{"t":{"schema":{"name":"t","columns":{"id":"integer"}},"rows":[{"id":"x"}]}}}');
    const bad = await mode.run(["validate", "bad"]);
    assert.is(bad.code, 1);
    assert.match(bad.stdout, /^invalid: 1 problem\n/);
    assert.match(bad.stdout, /\| type \|/);
    const json = await mode.run(["validate", "bad", "--json"]);
    assert.is(json.code, 1);
    assert.is(JSON.parse(json.stdout).valid, false);
    const other = await mode.run(["sql", "bad", "SELECT id FROM t"]);
    assert.is(other.code, 1);
    assert.match(other.stderr, /\[database_corrupt\]/);
  });
}

test("url: checkpoint folds the journal into the .store file, which alone then holds every row", async () => {
  const mode = await seeded("url");
  const more = await mode.run(["sql", "shop", "INSERT INTO users (id, name) VALUES ('3', 'Hedy')"]);
  assert.is(more.code, 0, more.stderr);
  const run = await mode.run(["checkpoint", "shop"]);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /^checkpoint: \d+ journal records? folded into the document\n$/);
  const json = await mode.run(["checkpoint", "shop", "--json"]);
  assert.equal(JSON.parse(json.stdout), { kind: "checkpoint", journalRecords: 0 });
  // The .store file alone, copied elsewhere, is the whole database.
  const copy = workdir();
  mkdirSync(path.join(copy, "data"));
  copyFileSync(path.join(mode.cwd, "data", "shop.store"), path.join(copy, "data", "shop.store"));
  const rows = await runCli(["sql", "shop", "SELECT id FROM users ORDER BY id", "--json"], { cwd: copy });
  assert.equal(JSON.parse(rows.stdout).rows, [{ id: "1" }, { id: "2" }, { id: "3" }]);
});

test("url and data: a database a server holds is locked to a command on its data directory (exit 1, database_locked)", async () => {
  const mode = await seeded("url");
  const local = await runCli(["sql", "shop", "SELECT id FROM users", "--json"], { cwd: mode.cwd });
  assert.is(local.code, 1, local.stdout);
  assert.is(JSON.parse(local.stderr).code, "database_locked");
  const remote = await mode.run(["sql", "shop", "SELECT id FROM users", "--json"]);
  assert.is(remote.code, 0, remote.stderr);
});

test("data: --data names the data directory; STORE_DATA_PATH is the default", async () => {
  const cwd = workdir();
  const elsewhere = path.join(cwd, "elsewhere");
  const made = await runCli(["sql", "inv", "CREATE TABLE t (k INT PRIMARY KEY)", "--data", elsewhere], { cwd });
  assert.is(made.code, 0, made.stderr);
  const viaEnv = await runCli(["sql", "inv", "SELECT k FROM t", "--json"], { cwd, env: cleanEnv({ STORE_DATA_PATH: elsewhere }) });
  assert.is(viaEnv.code, 0, viaEnv.stderr);
  assert.is(JSON.parse(viaEnv.stdout).rowCount, 0);
  const missing = await runCli(["sql", "inv", "SELECT k FROM t"], { cwd });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /\[database_not_found\]/);
});

test("url: the key comes from --api-key or STORE_API_KEY; a wrong one is refused (exit 1), no server is no answer (exit 3)", async () => {
  const mode = await seeded("url");
  const url = mode.server?.url as string;
  const flag = await runCli(["sql", "shop", "SELECT id FROM users", "--url", url, "--api-key", API_KEY, "--json"], { cwd: mode.cwd });
  assert.is(flag.code, 0, flag.stderr);
  const wrong = await runCli(["sql", "shop", "SELECT id FROM users", "--url", url, "--json"], { cwd: mode.cwd, env: cleanEnv({ STORE_API_KEY: "wrong" }) });
  assert.is(wrong.code, 1);
  assert.is(JSON.parse(wrong.stderr).code, "unauthorized");
  const nobody = await runCli(["sql", "shop", "SELECT id FROM users", "--url", "http://127.0.0.1:9", "--json"], { cwd: mode.cwd });
  assert.is(nobody.code, 3, nobody.stderr);
  assert.is(JSON.parse(nobody.stderr).code, "connection_failed");
});

test("usage errors exit 2 and send nothing", async () => {
  const cwd = workdir();
  for (const args of [["sql"], ["sql", "shop"], ["frobnicate"], ["sql", "shop", "SELECT 1", "--nope"], ["sql", "shop", "x", "--data", "d", "--url", "http://127.0.0.1:1"], ["sql", "shop", "x", "--api-key", "k"], ["sql", "shop", "x", "--url", "ftp://host"]]) {
    const run = await runCli(args, { cwd });
    assert.is(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assert.is(run.stdout, "", args.join(" "));
    assert.ok(run.stderr.length > 0, args.join(" "));
  }
  const help = await runCli(["--help"], { cwd });
  assert.is(help.code, 0);
  for (const name of ["serve", "sql", "shell", "validate", "checkpoint", "import", "export"]) assert.match(help.stdout, new RegExp(`\\n  ${name} `));
  const version = await runCli(["--version"], { cwd });
  assert.is(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

test.run();
