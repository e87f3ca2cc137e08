/**
 * `storedb shell` on a real pseudo-terminal (`support/pty.ts`): prompts,
 * multi-line statements, dot commands, errors marked, Ctrl-C, history kept
 * across runs and recalled with the Up key, transactions (BEGIN … COMMIT,
 * ROLLBACK, one left open); and fed from a pipe, where it stops at the
 * first error with that error's exit code.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../server/support/server-process.js";
import { runCli } from "./support/cli-process.js";
import { MODES, openMode, type Mode } from "./support/modes.js";
import { Terminal } from "./support/pty.js";

const scratch: string[] = [];
const open: Mode[] = [];
test.after(async () => {
  await Promise.all(open.map((mode) => mode.close()));
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function seeded(): Promise<{ cwd: string; home: string }> {
  const cwd = tempDir("cli-shell");
  scratch.push(cwd);
  const home = path.join(cwd, "home");
  mkdirSync(home);
  const setup = await runCli(["shell", "shop"], {
    cwd,
    input: "CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL, age INT);\nINSERT INTO users (id, name, age) VALUES ('1', 'Ada', 36), ('2', 'Grace', NULL);\n",
  });
  assert.is(setup.code, 0, setup.stderr);
  return { cwd, home };
}

test("an interactive session: multi-line statements, dot commands, modes, explain, errors, Ctrl-C", async () => {
  const { cwd, home } = await seeded();
  const term = await Terminal.start(["shell", "shop"], cwd, home);
  try {
    await term.waitFor(/End statements with ;.*\n.*shop> $/s);
    let from = term.screen.length;
    term.type("SELECT id, name\r");
    await term.waitFor(/\n ...> $/, from);
    const rows = await term.line("FROM users ORDER BY id;");
    assert.match(rows, /id \| name\n---\+------\n1  \| Ada\n2  \| Grace\n\(2 rows\)\n/);

    assert.match(await term.line(".tables"), /\nusers\n/);
    assert.match(await term.line(".schema users"), /users\ncolumn \| type +\| notes\n.*\nid +\| text +\| primary key\nname +\| text +\| required\n/);
    await term.line(".mode json");
    assert.match(await term.line("SELECT name FROM users WHERE id = '2';"), /\n\{"kind":"rows","columns":\["name"\],"rows":\[\{"name":"Grace"\}\],"rowCount":1\}\n/);
    await term.line(".mode csv");
    assert.match(await term.line("SELECT id, age FROM users ORDER BY id;"), /\nid,age\n1,36\n2,\n/);
    await term.line(".mode table");
    assert.match(await term.line(".explain on"), /explain on/);
    assert.match(await term.line("SELECT name FROM users WHERE id = '1';"), /statement: select\n[\s\S]*access: primary-key-lookup/);
    await term.line(".explain off");

    const error = await term.line("SELECT name\nFORM users;".replace("\n", "\r"));
    assert.match(error, /error: .*did you mean FROM.*\[sql_syntax_error\]\n2 \| FORM users\n  \|      \^\n/);

    // Ctrl-C drops the statement being typed: the next one runs alone.
    from = term.screen.length;
    term.type("DELETE FROM users\r");
    await term.waitFor(/\.\.\.> $/, from);
    term.type("\x03");
    await term.waitFor(/\^C\n.*shop> $/, from);
    assert.match(await term.line("SELECT id FROM users;"), /\(2 rows\)/);

    assert.match(await term.line(".help"), /\.tables[\s\S]*\.schema \[table\][\s\S]*\.mode \[table\|json\|csv\][\s\S]*\.explain \[on\|off\]/);
    assert.match(await term.line(".nope"), /unknown command \.nope/);
    term.type("\x04");
    assert.is(await term.exited, 0);
  } finally {
    term.kill();
  }
});

test("a transaction: the prompt shows it, statements are checked as typed and queued, COMMIT runs them at once, ROLLBACK and leaving discard", async () => {
  const { cwd, home } = await seeded();
  const term = await Terminal.start(["shell", "shop"], cwd, home);
  try {
    await term.waitFor(/shop> $/);
    assert.match(await term.line("BEGIN;"), /transaction open: each statement is checked now and queued; COMMIT runs them all as one all-or-nothing write and prints their results then \(SELECTs' too\); ROLLBACK discards them\nshop\*> $/);
    assert.match(await term.line("INSERT INTO users (id, name) VALUES ('3', 'Linus');"), /\nqueued\nshop\*> $/);
    // A malformed statement is refused as it is typed; the transaction stays open without it.
    assert.match(await term.line("UPDATE users SET WHERE id = '1';"), /error: .*\[sql_syntax_error\]\n1 \| UPDATE users SET WHERE id = '1'\n {2}\| {18}\^\n[\s\S]*shop\*> $/);
    let from = term.screen.length;
    term.type("SELECT count(*) AS n\r");
    await term.waitFor(/\n {2}\.\.\.> $/, from);
    assert.match(await term.line("FROM users;"), /\nqueued\nshop\*> $/);
    assert.match(await term.line(".help"), /BEGIN opens a transaction \(the prompt shows \*\)[\s\S]*ROLLBACK discards them/);
    const committed = await term.line("COMMIT;");
    assert.match(committed, /1 row inserted into users\nn\n-\n3\n\(1 row\)\ncommitted: 2 statements\nshop> $/);

    await term.line("BEGIN;");
    await term.line("DELETE FROM users;");
    assert.match(await term.line("ROLLBACK;"), /rolled back: 1 statement discarded\nshop> $/);
    assert.match(await term.line("COMMIT;"), /error: No transaction is open: COMMIT ends one begun with BEGIN \[sql_error\]/);

    // A failing step at COMMIT keeps nothing and names the statement.
    await term.line("BEGIN;");
    await term.line("INSERT INTO users (id, name) VALUES ('4', 'Barbara');");
    await term.line("INSERT INTO users (id, name) VALUES ('1', 'again');");
    assert.match(await term.line("COMMIT;"), /error: Transaction step 1: .*\[constraint_violation\]\n1 \| INSERT INTO users \(id, name\) VALUES \('1', 'again'\)\n[\s\S]*transaction rolled back: none of its 2 statements were applied\nshop> $/);

    await term.line("BEGIN;");
    await term.line("DELETE FROM users;");
    from = term.screen.length;
    term.type("\x04");
    assert.match(await term.waitFor(/warning: .*$/m, from), /warning: the open transaction was discarded: its 1 statement was not applied/);
    assert.is(await term.exited, 0);
  } finally {
    term.kill();
  }
  const after = await runCli(["sql", "shop", "SELECT id FROM users ORDER BY id", "--json"], { cwd });
  assert.equal(JSON.parse(after.stdout).rows, [{ id: "1" }, { id: "2" }, { id: "3" }]);
});

test("history is kept across runs, a multi-line statement as one entry, and Up recalls it", async () => {
  const { cwd, home } = await seeded();
  const first = await Terminal.start(["shell", "shop"], cwd, home);
  try {
    await first.waitFor(/shop> $/);
    await first.line("SELECT name\rFROM users WHERE id = '1';");
    await first.line(".quit", /$/);
    assert.is(await first.exited, 0);
  } finally {
    first.kill();
  }
  const saved = readFileSync(path.join(home, ".storedb_history"), "utf8");
  assert.is(saved, '"SELECT name FROM users WHERE id = \'1\';"\n".quit"\n');

  const second = await Terminal.start(["shell", "shop"], cwd, home);
  try {
    await second.waitFor(/shop> $/);
    const from = second.screen.length;
    second.type("\x1b[A\x1b[A");
    await second.waitFor(/SELECT name FROM users WHERE id = '1';$/, from);
    second.type("\r");
    assert.match(await second.waitFor(/\(1 row\)\n.*shop> $/, from), /name\n----\nAda\n/);
    second.type("\x04");
    assert.is(await second.exited, 0);
  } finally {
    second.kill();
  }
});

for (const kind of MODES) {
  test(`${kind}: from a pipe: no prompts, a last statement without ; still runs, the first error stops it with its code`, async () => {
    const { cwd } = await seeded();
    const mode = await openMode(kind, cwd);
    open.push(mode);
    const ok = await mode.run(["shell", "shop"], {
      input: "-- a comment; not a statement\nSELECT id FROM users WHERE name <> 'a;b' /* ; */ AND id = '1';\n.tables\nSELECT id FROM users\nWHERE id = '2'",
    });
    assert.is(ok.code, 0, ok.stderr);
    assert.is(ok.stdout, "id\n--\n1\n(1 row)\nusers\nid\n--\n2\n(1 row)\n");
    const failed = await mode.run(["shell", "shop"], { input: "SELECT id FROM users WHERE id = '1';\nSELECT nope FROM users;\nDELETE FROM users;\n" });
    assert.is(failed.code, 1);
    assert.match(failed.stderr, /\[unknown_column\]/);
    const after = await mode.run(["sql", "shop", "SELECT id FROM users", "--json"]);
    assert.is(JSON.parse(after.stdout).rowCount, 2, "the DELETE after the error never ran");
    const usage = await mode.run(["shell", "shop"], { input: ".mode xml\nDELETE FROM users;\n" });
    assert.is(usage.code, 2);
  });
}

test("url: an interactive session against a server", async () => {
  const { cwd, home } = await seeded();
  const mode = await openMode("url", cwd);
  open.push(mode);
  const term = await Terminal.start(["shell", ...mode.args, "--api-key", mode.env.STORE_API_KEY as string, "shop"], cwd, home);
  try {
    await term.waitFor(new RegExp(`storedb shell on shop \\(${mode.server?.url.replaceAll(".", "\\.")}\\)[\\s\\S]*shop> $`));
    assert.match(await term.line("SELECT name FROM users\rWHERE id = '2';"), /name\n-----\nGrace\n\(1 row\)\n/);
    assert.match(await term.line(".tables"), /\nusers\n/);
    term.type("\x04");
    assert.is(await term.exited, 0);
  } finally {
    term.kill();
  }
});

test.run();
