/**
 * Scripts through real processes, each case on a data directory and through
 * a real server (`--url`): `storedb sql` with several statements and with a
 * script on stdin (`-`), the shell fed from a pipe, errors marked at their
 * line in the whole script, and BEGIN … COMMIT / ROLLBACK lowered onto one
 * all-or-nothing transaction — what a failing step leaves is read back by
 * another process.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { rmSync } from "node:fs";
import path from "node:path";
import { serverEnv, startServer, tempDir } from "../server/support/server-process.js";
import { spawn } from "node:child_process";
import { cleanEnv, cliBundle, runCli } from "./support/cli-process.js";
import { API_KEY, MODES, openMode, type Mode, type ModeKind } from "./support/modes.js";

const scratch: string[] = [];
const open: Mode[] = [];
test.after(async () => {
  await Promise.all(open.map((mode) => mode.close()));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function seeded(kind: ModeKind): Promise<Mode> {
  const cwd = tempDir("cli-scripts");
  scratch.push(cwd);
  const mode = await openMode(kind, cwd);
  open.push(mode);
  const create = await mode.run(["sql", "shop", "CREATE TABLE users (id INT PRIMARY KEY, name TEXT NOT NULL)"]);
  assert.is(create.code, 0, create.stderr);
  return mode;
}

/** The users' ids, read by a fresh process: what the database kept. */
async function ids(mode: Mode): Promise<number[]> {
  const run = await mode.run(["sql", "shop", "SELECT id FROM users ORDER BY id", "--json"]);
  assert.is(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { rows: { id: number }[] }).rows.map((row) => row.id);
}

for (const kind of MODES) {
  test(`${kind}: sql runs a script's statements in order, printing each result as the shell does`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "INSERT INTO users VALUES (1, 'Ada');\n-- a comment; not a statement\nINSERT INTO users VALUES (2, 'a;b'); SELECT id, name FROM users ORDER BY id;"]);
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, ["1 row inserted into users", "1 row inserted into users", "id | name", "---+-----", " 1 | Ada", " 2 | a;b", "(2 rows)", ""].join("\n"));
    const json = await mode.run(["sql", "shop", "SELECT count(*) AS n FROM users; DELETE FROM users WHERE id = 2", "--json"]);
    assert.is(json.code, 0, json.stderr);
    assert.equal(json.stdout.trim().split("\n").map((line) => JSON.parse(line).kind), ["rows", "mutation"]);
    assert.equal(await ids(mode), [1]);
  });

  test(`${kind}: one statement with empty ones beside it runs as that one statement, parameters too, its errors marked where it stands`, async () => {
    const mode = await seeded(kind);
    for (const sql of ["SELECT 1 AS a;;", "SELECT 1 AS a; ;", ";;SELECT 1 AS a", "/* x */ ; SELECT 1 AS a", "/* note */\n;\nSELECT 1 AS a;"]) {
      const run = await mode.run(["sql", "shop", sql]);
      assert.is(run.code, 0, `${sql}: ${run.stderr}`);
      assert.is(run.stdout, "a\n-\n1\n(1 row)\n", sql);
    }
    const params = await mode.run(["sql", "shop", ";INSERT INTO users VALUES (?, ?);;", "7", "Ada"]);
    assert.is(params.code, 0, params.stderr);
    assert.equal(await ids(mode), [7]);
    const failed = await mode.run(["sql", "shop", ";;\n ; SELECT nope FROM users;;"]);
    assert.is(failed.code, 1);
    // The engine's position (the unknown name) in the whole script.
    assert.match(failed.stderr, /^error: .*\[unknown_column\]\n2 \|  ; SELECT nope FROM users\n {2}\| {11}\^\n/);
    const json = await mode.run(["sql", "shop", ";;\n ; SELECT nope FROM users;;", "--json"]);
    assert.equal(JSON.parse(json.stderr).statement, { index: 0, line: 2, column: 4 });
  });

  test(`${kind}: the first refused statement stops the script, its error marked at its line in the whole script; the statements before it stay`, async () => {
    const mode = await seeded(kind);
    const script = "INSERT INTO users VALUES (1, 'Ada');\nINSERT INTO users\n  VALUES (2, 'Grace'); SELECT id\nFORM users;\nINSERT INTO users VALUES (3, 'never');";
    const run = await mode.run(["sql", "shop", script]);
    assert.is(run.code, 1);
    assert.is(run.stdout, "1 row inserted into users\n1 row inserted into users\n");
    const lines = run.stderr.split("\n");
    assert.match(lines[0] ?? "", /^error: .* at line 4, column 6 \[sql_syntax_error\]$/);
    assert.is(lines[1], "4 | FORM users");
    assert.is(lines[2], "  |      ^");
    assert.equal(await ids(mode), [1, 2]);

    // A statement's error on its first line, after another statement on that line: the column is the script's.
    const same = await mode.run(["sql", "shop", "SELECT id FROM users;\nSELECT 1; INSERT INTO users VALUES (1, 'again')"]);
    assert.is(same.code, 1);
    assert.match(same.stderr, /\n2 \| SELECT 1; INSERT INTO users VALUES \(1, 'again'\)\n {2}\| {11}\^\n/, "an error without a position marks its statement's start");
    const typed = await mode.run(["sql", "shop", "SELECT id FROM users;\nSELECT 1; SELECT id FROM users WHERE id = 'x'"]);
    assert.is(typed.code, 1);
    assert.match(typed.stderr, /\n2 \| SELECT 1; SELECT id FROM users WHERE id = 'x'\n {2}\| {38}\^\n/, "a binding error is marked where the engine places it, in the whole script");

    // With --json: the engine's problem, and which statement of the script it is about.
    const json = await mode.run(["sql", "shop", "SELECT 1;\n\n  SELECT nope FROM users", "--json"]);
    assert.is(json.code, 1);
    const problem = JSON.parse(json.stderr);
    assert.is(problem.code, "unknown_column");
    assert.equal(problem.statement, { index: 1, line: 3, column: 3 });
  });

  test(`${kind}: BEGIN … COMMIT applies every statement as one transaction, printing their results at COMMIT`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "BEGIN TRANSACTION;\nINSERT INTO users VALUES (1, 'Ada');\nSELECT count(*) AS n FROM users;\nINSERT INTO users VALUES (2, 'Grace');\nCOMMIT;\nSELECT count(*) AS n FROM users;"]);
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, ["1 row inserted into users", "n", "-", "1", "(1 row)", "1 row inserted into users", "committed: 3 statements", "n", "-", "2", "(1 row)", ""].join("\n"));
    assert.equal(await ids(mode), [1, 2]);
    const end = await mode.run(["sql", "shop", "begin; DELETE FROM users WHERE id = 1; end transaction"]);
    assert.is(end.code, 0, end.stderr);
    assert.equal(await ids(mode), [2]);
    const named = await mode.run(["sql", "shop", "BEGIN IMMEDIATE TRANSACTION t; INSERT INTO users VALUES (3, 'c'); COMMIT TRANSACTION t; BEGIN TRANSACTION 'u'; DELETE FROM users; ROLLBACK TRANSACTION \"u\""]);
    assert.is(named.code, 0, named.stderr);
    assert.equal(await ids(mode), [2, 3], "a transaction's name is accepted and ignored, as SQLite ignores it");
  });

  test(`${kind}: a block comment over lines before BEGIN or COMMIT is not part of it; an error marks the statement, not the comment`, async () => {
    const mode = await seeded(kind);
    const header = await mode.run(["sql", "shop", "-"], { input: "/* header\n * comment\n */\nBEGIN;\nINSERT INTO users VALUES (10, 'a');\nCOMMIT;\n" });
    assert.is(header.code, 0, header.stderr);
    assert.is(header.stdout, "1 row inserted into users\ncommitted: 1 statement\n");
    const trailer = await mode.run(["sql", "shop", "BEGIN; INSERT INTO users VALUES (11, 'b'); /* done,\n commit */ COMMIT;"]);
    assert.is(trailer.code, 0, trailer.stderr);
    assert.equal(await ids(mode), [10, 11]);
    const failing = await mode.run(["sql", "shop", "-", "--json"], { input: "SELECT 1;\n/* the next\n   one fails */ INSERT INTO users VALUES (10, 'dup');\n" });
    assert.is(failing.code, 1);
    assert.equal(JSON.parse(failing.stderr).statement, { index: 1, line: 3, column: 17 });
    const marked = await mode.run(["sql", "shop", "SELECT 1;\n/* the next\n   one fails */ INSERT INTO users VALUES (10, 'dup');"]);
    assert.match(marked.stderr, /\n3 \|    one fails \*\/ INSERT INTO users VALUES \(10, 'dup'\)\n {2}\| {17}\^\n/);
  });

  test(`${kind}: a step failing at COMMIT keeps nothing, and names its step and statement`, async () => {
    const mode = await seeded(kind);
    const seed = await mode.run(["sql", "shop", "INSERT INTO users VALUES (1, 'Ada')"]);
    assert.is(seed.code, 0, seed.stderr);
    const script = "BEGIN;\nINSERT INTO users VALUES (2, 'Grace');\nUPDATE users SET name = 'Ada L' WHERE id = 1;\nINSERT INTO users VALUES (1, 'again');\nCOMMIT;\nINSERT INTO users VALUES (9, 'after');";
    const run = await mode.run(["sql", "shop", script]);
    assert.is(run.code, 1);
    assert.is(run.stdout, "");
    assert.match(run.stderr, /^error: Transaction step 2: .*\[constraint_violation\]\n4 \| INSERT INTO users VALUES \(1, 'again'\)\n {2}\| \^\n/);
    assert.match(run.stderr, /duplicate_key/);
    assert.match(run.stderr, /transaction rolled back: none of its 3 statements were applied\n$/);
    assert.equal(await ids(mode), [1]);
    const names = await mode.run(["sql", "shop", "SELECT name FROM users", "--json"]);
    assert.equal(JSON.parse(names.stdout).rows, [{ name: "Ada" }], "the update before the failing step was not kept either");

    const json = await mode.run(["sql", "shop", script, "--json"]);
    assert.is(json.code, 1);
    const problem = JSON.parse(json.stderr);
    assert.is(problem.step, 2);
    assert.is(problem.discarded, 3, "--json says how many statements were discarded, as the table output does");
    assert.equal(problem.statement, { index: 3, line: 4, column: 1 });
  });

  test(`${kind}: ROLLBACK discards; a malformed statement inside a transaction is refused before anything is sent; a script ending inside one applies nothing`, async () => {
    const mode = await seeded(kind);
    const rolled = await mode.run(["sql", "shop", "BEGIN; INSERT INTO users VALUES (1, 'Ada'); ROLLBACK; INSERT INTO users VALUES (2, 'Grace')"]);
    assert.is(rolled.code, 0, rolled.stderr);
    assert.is(rolled.stdout, "1 row inserted into users\n");
    assert.equal(await ids(mode), [2]);

    const malformed = await mode.run(["sql", "shop", "BEGIN;\nINSERT INTO users VALUES (3, 'x');\nINSERT INTO users VALUES (4, 'y') WHERE;\nCOMMIT;"]);
    assert.is(malformed.code, 1);
    assert.match(malformed.stderr, /^error: .*at line 3, column \d+ \[sql_syntax_error\]\n3 \| INSERT INTO users VALUES \(4, 'y'\) WHERE\n/);
    assert.match(malformed.stderr, /transaction rolled back: none of its 1 statement was applied\n$/);

    const unended = await mode.run(["sql", "shop", "BEGIN; INSERT INTO users VALUES (5, 'z')"]);
    assert.is(unended.code, 1);
    assert.match(unended.stderr, /^error: The script ended inside a transaction: its 1 statement was not applied \(end it with COMMIT\) \[sql_error\]\n1 \| BEGIN/);
    const stray = await mode.run(["sql", "shop", "INSERT INTO users VALUES (6, 'w'); COMMIT"]);
    assert.is(stray.code, 1);
    assert.match(stray.stderr, /No transaction is open/);
    const nested = await mode.run(["sql", "shop", "BEGIN; BEGIN; COMMIT"]);
    assert.is(nested.code, 1);
    assert.match(nested.stderr, /^error: A transaction is already open \(BEGIN on line 1\) and transactions do not nest: this BEGIN is refused \[sql_error\]\n/);
    assert.match(nested.stderr, /\ntransaction rolled back: it held no statements yet\n$/);
    const nestedLater = await mode.run(["sql", "shop", "BEGIN; INSERT INTO users VALUES (7, 'v'); BEGIN", "--json"]);
    assert.is(JSON.parse(nestedLater.stderr).discarded, 1);
    const savepoint = await mode.run(["sql", "shop", "BEGIN; ROLLBACK TO x"]);
    assert.is(savepoint.code, 1);
    assert.match(savepoint.stderr, /Expected TRANSACTION or end of input but found 'TO' .*savepoints are not supported/);
    assert.equal(await ids(mode), [2, 6]);
  });

  test(`${kind}: sql - reads the script from stdin, a line at a time`, async () => {
    const mode = await seeded(kind);
    const run = await mode.run(["sql", "shop", "-"], { input: "BEGIN;\r\nINSERT INTO users VALUES (1, 'a\nb');\r\nINSERT INTO users VALUES (2, 'c');\nCOMMIT;\nSELECT count(*) AS n FROM users" });
    assert.is(run.code, 0, run.stderr);
    assert.is(run.stdout, "1 row inserted into users\n1 row inserted into users\ncommitted: 2 statements\nn\n-\n2\n(1 row)\n");
    const failed = await mode.run(["sql", "shop", "-", "--json"], { input: "SELECT 1;\nSELECT 2;\nSELECT nope FROM users;\nDELETE FROM users;\n" });
    assert.is(failed.code, 1);
    assert.equal(JSON.parse(failed.stderr).statement, { index: 2, line: 3, column: 1 });
    assert.equal(await ids(mode), [1, 2]);
  });

  test(`${kind}: the shell fed from a pipe: BEGIN … COMMIT as one transaction; the first error stops it, an open transaction not applied`, async () => {
    const mode = await seeded(kind);
    const ok = await mode.run(["shell", "shop"], { input: "BEGIN;\nINSERT INTO users VALUES (1, 'Ada');\nSELECT name FROM users;\nCOMMIT;\n" });
    assert.is(ok.code, 0, ok.stderr);
    assert.is(ok.stdout, "1 row inserted into users\nname\n----\nAda\n(1 row)\ncommitted: 2 statements\n");
    const failed = await mode.run(["shell", "shop"], { input: "BEGIN;\nINSERT INTO users VALUES (2, 'Grace');\nINSERT INTO users VALUES (1, 'dup');\nCOMMIT;\nINSERT INTO users VALUES (3, 'after');\n" });
    assert.is(failed.code, 1);
    assert.match(failed.stderr, /^error: Transaction step 1: .*\n3 \| INSERT INTO users VALUES \(1, 'dup'\)\n/);
    const unended = await mode.run(["shell", "shop"], { input: "BEGIN;\nINSERT INTO users VALUES (4, 'x');\n" });
    assert.is(unended.code, 1);
    assert.match(unended.stderr, /The script ended inside a transaction/);
    assert.equal(await ids(mode), [1]);
  });
}

test("parameters go with one statement: with a script, or a script on stdin, they are a usage error (exit 2) and nothing runs", async () => {
  const mode = await seeded("data");
  const script = await mode.run(["sql", "shop", "INSERT INTO users VALUES (?, 'a'); SELECT 1", "1"]);
  assert.is(script.code, 2);
  assert.match(script.stderr, /parameters go with one statement, and this script has 2/);
  const stdin = await mode.run(["sql", "shop", "-", "1"], { input: "INSERT INTO users VALUES (?, 'a')" });
  assert.is(stdin.code, 2);
  const control = await mode.run(["sql", "shop", "BEGIN", "1"]);
  assert.is(control.code, 2);
  assert.match(control.stderr, /parameters go with one statement that is not a transaction statement/);
  const one = await mode.run(["sql", "shop", "INSERT INTO users VALUES (?, 'a');", "1"]);
  assert.is(one.code, 0, one.stderr);
  assert.equal(await ids(mode), [1]);
});

test("the shell fed from a pipe counts every line, dot commands' too: errors are marked at their line", async () => {
  const mode = await seeded("data");
  const run = await mode.run(["shell", "shop"], { input: ".mode csv\n.mode table\nSELECT 1 AS a;\nSELECT 1 +;\n" });
  assert.is(run.code, 1);
  assert.match(run.stderr, /^error: .* at line 4, column 11 \[sql_syntax_error\]\n4 \| SELECT 1 \+\n/);
  const unended = await mode.run(["shell", "shop"], { input: ".mode csv\n\n.tables\nBEGIN;\nINSERT INTO users VALUES (1, 'a');\n" });
  assert.is(unended.code, 1);
  assert.match(unended.stderr, /^error: The script ended inside a transaction: .*\n4 \| BEGIN\n/);
});

test("a statement is sent as the script's exact text: line breaks in strings stay \\r\\n or \\r, in an argument, on stdin and in the shell", async () => {
  const mode = await seeded("data");
  const arg = await mode.run(["sql", "shop", "INSERT INTO users VALUES (4, 'p\r\nq'); SELECT length(name) AS n FROM users WHERE id = 4"]);
  assert.is(arg.code, 0, arg.stderr);
  assert.is(arg.stdout, "1 row inserted into users\nn\n-\n4\n(1 row)\n");
  const stdin = await mode.run(["sql", "shop", "-", "--json"], { input: "SELECT hex('x\ry') AS h;\r\nSELECT hex('a\r\nb') AS h\r\n;\rSELECT nope\rFROM users;" });
  assert.is(stdin.code, 1);
  assert.equal(stdin.stdout.trim().split("\n").map((line) => JSON.parse(line).rows[0].h), ["780D79", "610D0A62"]);
  assert.equal(JSON.parse(stdin.stderr).statement, { index: 2, line: 6, column: 1 }, "a lone \\r ends a line, as the engine counts them");
  const shell = await mode.run(["shell", "shop"], { input: ".mode csv\r\nSELECT hex('a\r\nb') AS h;\nSELECT hex('c\rd') AS h;" });
  assert.is(shell.code, 0, shell.stderr);
  assert.is(shell.stdout, "h\n610D0A62\nh\n630D64\n");
});

test("with --url, a transaction larger than the server's body limit applies nothing and says so; on a data directory it runs", async () => {
  const cwd = tempDir("cli-scripts");
  scratch.push(cwd);
  const script = ["BEGIN;", ...Array.from({ length: 20 }, (_, i) => `INSERT INTO users VALUES (${i}, '${"x".repeat(300)}');`), "COMMIT;"].join("\n");
  const server = await startServer(serverEnv(path.join(cwd, "data"), { STORE_API_KEY: API_KEY, STORE_MAX_BODY_BYTES: "4096" }));
  try {
    const env = cleanEnv({ STORE_API_KEY: API_KEY });
    const create = await runCli(["sql", "--url", server.url, "shop", "CREATE TABLE users (id INT PRIMARY KEY, name TEXT NOT NULL)"], { cwd, env });
    assert.is(create.code, 0, create.stderr);
    const run = await runCli(["sql", "--url", server.url, "shop", "-"], { cwd, env, input: script });
    assert.is(run.code, 1);
    assert.match(run.stderr, /^error: The transaction's 20 statements exceed the server's body limit of 4096 bytes: split it into smaller transactions, or raise the limit \(the server's STORE_MAX_BODY_BYTES\) \[payload_too_large\]\n1 \| BEGIN;?\n/);
    assert.match(run.stderr, /transaction rolled back: none of its 20 statements were applied\n$/);
    const count = await runCli(["sql", "--url", server.url, "shop", "SELECT count(*) AS n FROM users"], { cwd, env });
    assert.match(count.stdout, /\n0\n/);
  } finally {
    await server.stop();
  }
  const local = await runCli(["sql", "shop", "-"], { cwd, env: cleanEnv(), input: script });
  assert.is(local.code, 0, local.stderr);
  assert.match(local.stdout, /committed: 20 statements\n$/);
});

/** Runs `storedb <args>` with `input` on stdin, closing its stdout once the first output arrives (as `| head -1` would). */
async function closingStdout(mode: Mode, args: readonly string[], input: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [await cliBundle(), ...args], { cwd: mode.cwd, env: mode.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout.once("data", () => child.stdout.destroy());
  child.stdin.on("error", () => {});
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stderr };
}

test("stdout closed mid-script: sql and the shell stop before their next statement and exit 1; what ran stays applied", async () => {
  const mode = await seeded("data");
  const inserts = Array.from({ length: 3000 }, (_, i) => `INSERT INTO users VALUES (${i}, 'u');`).join("\n");
  for (const args of [["sql", "shop", "-"], ["shell", "shop"]]) {
    const reset = await mode.run(["sql", "shop", "DELETE FROM users"]);
    assert.is(reset.code, 0, reset.stderr);
    const run = await closingStdout(mode, args, inserts);
    assert.is(run.code, 1, `${args[0]}: ${run.stderr}`);
    assert.match(run.stderr, /^error: stdout was closed \(its reader stopped reading\), so the script stopped: the statements before this point stay applied\n$/);
    const kept = (await ids(mode)).length;
    assert.ok(kept > 0 && kept < 3000, `${args[0]}: ${kept} of 3000 applied`);
  }
});

test("a transaction holds at most 1,000 statements: the next is refused, and nothing of it is applied", async () => {
  const mode = await seeded("data");
  const inserts = Array.from({ length: 1001 }, (_, i) => `INSERT INTO users VALUES (${i}, 'u');`);
  const run = await mode.run(["sql", "shop", "-"], { input: ["BEGIN;", ...inserts, "COMMIT;"].join("\n") });
  assert.is(run.code, 1);
  assert.match(run.stderr, /^error: A transaction holds at most 1,000 statements .*\[sql_error\]\n1002 \| INSERT INTO users VALUES \(1000, 'u'\)\n/);
  assert.equal(await ids(mode), []);
  const fits = await mode.run(["sql", "shop", "-"], { input: ["BEGIN;", ...inserts.slice(0, 1000), "COMMIT;"].join("\n") });
  assert.is(fits.code, 0, fits.stderr);
  assert.match(fits.stdout, /committed: 1000 statements\n$/);
});

test.run();
