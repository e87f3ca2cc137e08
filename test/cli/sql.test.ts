/**
 * `storedb sql` and `storedb validate` on a data directory, through real
 * processes: results as tables and as JSON, parameters, errors with the
 * position marked, and the exit codes scripts rely on.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../server/support/server-process.js";
import { cleanEnv, runCli } from "./support/cli-process.js";

const scratch: string[] = [];
test.after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function workdir(): string {
  const dir = tempDir("cli-sql");
  scratch.push(dir);
  return dir;
}

async function seeded(): Promise<string> {
  const cwd = workdir();
  const create = await runCli(["sql", "shop", "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL, age INT)"], { cwd });
  assert.is(create.code, 0, create.stderr);
  assert.is(create.stdout, "table users created\n");
  const insert = await runCli(["sql", "shop", "INSERT INTO users (id, name, age) VALUES (?, ?, ?), ('2', 'Grace', NULL)", '"1"', "Ada", "36"], { cwd });
  assert.is(insert.code, 0, insert.stderr);
  assert.is(insert.stdout, "2 rows inserted into users\n");
  return cwd;
}

test("sql prints rows as an aligned table with a count, in ./data by default", async () => {
  const cwd = await seeded();
  const run = await runCli(["sql", "shop", "SELECT id, name, age FROM users ORDER BY id"], { cwd });
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, ["id | name  | age", "---+-------+-----", "1  | Ada   |   36", "2  | Grace | NULL", "(2 rows)", ""].join("\n"));
  assert.is(run.stderr, "");
});

test("--json prints the result exactly as the server answers it", async () => {
  const cwd = await seeded();
  const run = await runCli(["sql", "shop", "SELECT name FROM users WHERE age >= ?", "30", "--json"], { cwd });
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout), { kind: "rows", columns: ["name"], rows: [{ name: "Ada" }], rowCount: 1 });
});

test("--data names the data directory; STORE_DATA_PATH is the default", async () => {
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

test("a syntax error exits 1 and marks the position under the statement's line", async () => {
  const cwd = await seeded();
  const run = await runCli(["sql", "shop", "SELECT id\nFORM users"], { cwd });
  assert.is(run.code, 1);
  assert.is(run.stdout, "");
  const lines = run.stderr.split("\n");
  assert.match(lines[0] ?? "", /^error: .*\[sql_syntax_error\]$/);
  assert.is(lines[1], "2 | FORM users");
  assert.is(lines[2], "  | ^");
});

test("with --json an error is its problem details on stderr", async () => {
  const cwd = await seeded();
  const run = await runCli(["sql", "shop", "SELECT id FROM users WHERE id = ?", "--json"], { cwd });
  assert.is(run.code, 1);
  const problem = JSON.parse(run.stderr);
  assert.is(problem.status, 400);
  assert.is(problem.code, "sql_error");
  const dup = await runCli(["sql", "shop", "INSERT INTO users (id, name) VALUES ('1', 'again')", "--json"], { cwd });
  assert.is(dup.code, 1);
  assert.is(JSON.parse(dup.stderr).code, "constraint_violation");
});

test("parameters are JSON scalars or text; a refused value exits 1, a malformed one 2", async () => {
  const cwd = await seeded();
  const text = await runCli(["sql", "shop", "SELECT name FROM users WHERE id = ?", "1", "--json"], { cwd });
  assert.is(text.code, 1, "the number 1 compared with a text column");
  assert.is(JSON.parse(text.stderr).code, "type_mismatch");
  const quoted = await runCli(["sql", "shop", "SELECT name FROM users WHERE id = ?", '"1"', "--json"], { cwd });
  assert.is(quoted.code, 0, quoted.stderr);
  assert.equal(JSON.parse(quoted.stdout).rows, [{ name: "Ada" }]);
  const negative = await runCli(["sql", "shop", "SELECT name FROM users WHERE age > ?", "--json", "--", "-1"], { cwd });
  assert.is(negative.code, 0, negative.stderr);
  assert.is(JSON.parse(negative.stdout).rowCount, 1);
  const huge = await runCli(["sql", "shop", "SELECT name FROM users WHERE age > ?", "1e400"], { cwd });
  assert.is(huge.code, 2);
  assert.match(huge.stderr, /parameter 1: 1e400 is not a finite number/);
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
  for (const name of ["serve", "sql", "validate"]) assert.match(help.stdout, new RegExp(`\\n  ${name} `));
  const version = await runCli(["--version"], { cwd });
  assert.is(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

test("an invalid database name is refused (exit 1), never a path", async () => {
  const cwd = workdir();
  const run = await runCli(["sql", "../etc", "SELECT a FROM t"], { cwd });
  assert.is(run.code, 1);
  assert.match(run.stderr, /\[invalid_name\]/);
});

test("validate: valid exits 0; a damaged file is reported with its problems and exits 1", async () => {
  const cwd = await seeded();
  const ok = await runCli(["validate", "shop"], { cwd });
  assert.is(ok.code, 0, ok.stderr);
  assert.is(ok.stdout, "valid\n");
  writeFileSync(path.join(cwd, "data", "bad.store"), '{"format":"storedb/1","tables":{"t":{"schema":{"name":"t","columns":{"id":"integer"}},"rows":[{"id":"x"}]}}}');
  const bad = await runCli(["validate", "bad"], { cwd });
  assert.is(bad.code, 1);
  assert.match(bad.stdout, /^invalid: 1 problem\n/);
  assert.match(bad.stdout, /\| type \|/);
  const json = await runCli(["validate", "bad", "--json"], { cwd });
  assert.is(json.code, 1);
  assert.is(JSON.parse(json.stdout).valid, false);
  const other = await runCli(["sql", "bad", "SELECT id FROM t"], { cwd });
  assert.is(other.code, 1);
  assert.match(other.stderr, /\[database_corrupt\]/);
});

test("--url with nothing listening exits 3 (no answer), not 1", async () => {
  const cwd = workdir();
  const run = await runCli(["sql", "shop", "SELECT id FROM users", "--url", "http://127.0.0.1:9", "--json"], { cwd });
  assert.is(run.code, 3, run.stderr);
  assert.is(JSON.parse(run.stderr).code, "connection_failed");
});

test.run();
