/**
 * Path safety: hostile database names against the real server, with proof
 * that nothing outside the data directory was created, read or changed.
 *
 * Layout under one temp root: `data/` (the server's data directory, holding
 * symlinks that lead out, a dangling one, a FIFO and a directory named like a
 * database) and `sentinel/` (files the server must never touch, one a valid
 * database carrying a marker string). Before the attack every entry under
 * the root is stat-ed without being read; after it, stats (including atime,
 * so a read shows on this relatime mount) and contents must match, the root
 * and the repository hold no new files, and no answer carries the marker.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { shouldRun } from "./support/known-failures.js";
import { codeOf, problemViolations } from "./support/problem.js";
import { loudHook, ROOT, ServerProcess, tempDir, type Reply } from "./support/server.js";
import { isTempName } from "../../src/storage/temp-files.js";

const MARKER = "SENTINEL_d00d_f00d";

const root = tempDir("paths");
const dataDir = path.join(root, "data");
const sentinel = path.join(root, "sentinel");

/** Names matching `^[a-z0-9][a-z0-9_-]{0,63}$` and not a device: accepted, and their file stays inside. */
const VALID = ["a".repeat(64), "a-b", "com0", "con1", "lpt10", "x9_", "0"];

/** Symlinks and special files planted in the data directory, by database name. */
const PLANTED = ["link", "dirlink", "dangling", "relout", "dir", "fifo"];
/** Not a regular file: "no database", or a storage_error for a broken data dir — never a hang or another 5xx. */
const SPECIAL = new Set(["dir", "fifo"]);

const INVALID_STRINGS = [
  "..", ".", "../x", "../../etc/passwd", "../sentinel/victim", "x/..", "..\\..\\x",
  "%2e%2e", "%2e%2e%2fx", "%252e%252e", "..%2f", "%2E%2E%2F%2E%2E%2Fsentinel", "%00", "shop%00", "%2fabs",
  "a/b", "a\\b", "/abs", `${root}/abs`, `${sentinel}/victim`, "C:\\x", "\\\\server\\share", "file:///etc/passwd",
  "x\u0000", "\u0000", "x\u0000.store", "link\u0000",
  "shop.store", "shop.store.store", ".store", ".hidden", ".storedb.lock", "link.store", "victim.store",
  "Shop", "SHOP", "LINK", "\uff53\uff48\uff4f\uff50", "\u0455hop", "sho\u0440", "caf\u00e9", "cafe\u0301", "\u212a", "\ufb01le", "\u015fhop", "li\u0307nk",
  "a".repeat(65), "a".repeat(1000), "", " ", "shop ", " shop", "shop\n", "shop\r\n", "\tshop", "-a", "_a",
  "con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9", "CON", "con.store", "con.txt", "nul.", "com1 ",
  "~", "~root", "$HOME", "*", "?", "shop;rm", "shop|x", "a:b", "\u202eerots.",
];

const NON_STRINGS: unknown[] = [42, null, true, ["shop"], { name: "shop" }, { __proto__: null }];

const COMMANDS: readonly Record<string, unknown>[] = [
  { kind: "create-table", schema: { name: "t", columns: { id: "text" } } },
  { kind: "insert", table: "t", rows: [{ id: "x" }] },
  { kind: "select", table: "t", columns: "*" },
  { kind: "validate" },
  { kind: "describe" },
  { kind: "sql", sql: "SELECT * FROM t" },
  { kind: "drop-table", table: "t", ifExists: true },
];

const VICTIM = `{"format":"storedb/1","tables":{\n"t":{"schema":{"columns":{"id":"text"},"name":"t"},\n"rows":[\n{"id":"${MARKER}"}\n]}}}\n`;
const CONTENTS: Record<string, string> = {
  "sentinel/victim.store": VICTIM,
  "sentinel/secret.txt": `${MARKER} secret\n`,
  "sentinel/abs.store": VICTIM,
  "sentinel/sub/deep.store": VICTIM,
};

interface Entry {
  readonly kind: string;
  readonly size: number;
  readonly mode: number;
  readonly ino: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly atimeNs: bigint;
  readonly link?: string;
}

/** Every entry under `dir` (outside the data directory), stat-ed without following links or reading files. */
function snapshot(dir: string, rel = "", out = new Map<string, Entry>()): Map<string, Entry> {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const key = path.join(rel, name);
    if (full === dataDir) continue;
    const st = lstatSync(full, { bigint: true });
    const kind = st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
    out.set(key, {
      kind,
      size: Number(st.size),
      mode: Number(st.mode),
      ino: Number(st.ino),
      mtimeNs: st.mtimeNs,
      ctimeNs: st.ctimeNs,
      atimeNs: kind === "file" ? st.atimeNs : 0n,
      ...(kind === "link" ? { link: readlinkSync(full) } : {}),
    });
    if (kind === "dir") snapshot(full, key, out);
  }
  return out;
}

function plant(): void {
  mkdirSync(path.join(sentinel, "sub"), { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  for (const [rel, text] of Object.entries(CONTENTS)) writeFileSync(path.join(root, rel), text);
  symlinkSync(path.join(sentinel, "victim.store"), path.join(dataDir, "link.store"));
  symlinkSync(sentinel, path.join(dataDir, "dirlink.store"));
  symlinkSync(path.join(sentinel, "created-through-link.store"), path.join(dataDir, "dangling.store"));
  symlinkSync("../sentinel/victim.store", path.join(dataDir, "relout.store"));
  execFileSync("mkfifo", [path.join(dataDir, "fifo.store")]);
  mkdirSync(path.join(dataDir, "dir.store"));
}

const repoStoreFiles = (): string[] => readdirSync(ROOT).filter((f) => f.endsWith(".store"));

const test = suite<{ server: ServerProcess; before: Map<string, Entry>; repoBefore: string[]; replies: Reply[] }>("hostile/path-safety", {} as never);

test.before(loudHook(async (context) => {
  plant();
  context.repoBefore = repoStoreFiles();
  // Stats settle before the server starts; atime granularity is 1 ns on ext4 but be safe.
  await new Promise((r) => setTimeout(r, 20));
  context.before = snapshot(root);
  context.replies = [];
  context.server = await ServerProcess.start({ dataDir });
}));

test.after(async (context) => {
  await context.server?.kill();
  rmSync(root, { recursive: true, force: true });
});

async function attack(context: { server: ServerProcess; replies: Reply[] }, database: unknown): Promise<Reply[]> {
  const out: Reply[] = [];
  for (const command of COMMANDS) {
    const reply = await context.server.command({ database, command }, { timeoutMs: 8_000 });
    out.push(reply);
    context.replies.push(reply);
  }
  return out;
}

test(`${INVALID_STRINGS.length} invalid string names are rejected with 400 invalid_name on every command`, async (context) => {
  assert.ok(INVALID_STRINGS.length + NON_STRINGS.length + PLANTED.length + VALID.length >= 40);
  for (const name of INVALID_STRINGS) {
    const replies = await attack(context, name);
    for (const reply of replies) {
      const v = problemViolations(reply, { status: 400, codes: ["invalid_name"], dataDir, echo: [name] });
      assert.equal(v, [], `${JSON.stringify(name)}: ${v.join("; ")}`);
    }
  }
});

test("names that are not strings are rejected with 400", async (context) => {
  for (const name of NON_STRINGS) {
    for (const reply of await attack(context, name)) {
      const v = problemViolations(reply, { status: 400, codes: ["invalid_name", "invalid_request"], dataDir, echo: [JSON.stringify(name)] });
      assert.equal(v, [], `${JSON.stringify(name)}: ${v.join("; ")}`);
    }
  }
});

async function plantedName(context: { server: ServerProcess; replies: Reply[] }, name: string): Promise<void> {
  const replies = await attack(context, name);
  const [create, , select, validate, describe] = replies;
  for (const reply of replies) {
    const storageError = SPECIAL.has(name) && reply.status === 500 && codeOf(reply) === "storage_error";
    assert.ok(reply.status < 500 || storageError, `${name}: answered ${reply.status} ${reply.text}`);
    if (reply.status >= 400) assert.equal(problemViolations(reply, { dataDir }), [], `${name}: ${reply.text}`);
  }
  for (const reply of [select!, validate!, describe!]) {
    // Before create-table these are "no database"; after a contained create-table, a fresh marker-free one.
    if (reply.status === 404) assert.is(codeOf(reply), "database_not_found", `${name}: ${reply.text}`);
    else assert.ok(reply.status === 200 || SPECIAL.has(name), `${name}: ${reply.status} ${reply.text}`);
  }
  if (create!.status === 200) {
    // Contained: the name now holds a plain file inside the data dir, not a write through the link.
    const st = lstatSync(path.join(dataDir, `${name}.store`));
    assert.ok(st.isFile(), `${name}.store after create-table is a ${st.isSymbolicLink() ? "symlink" : "non-file"}`);
  }
  const other = await context.server.command({ database: "a-b", command: { kind: "validate" } }, { timeoutMs: 5_000 });
  assert.ok(other.status === 404 || other.status === 200, "other databases still answer");
}

for (const name of PLANTED.filter((n) => n !== "fifo")) {
  test(`planted ${name}.store (symlink out, dangling link, directory) reads as no database, and nothing is written through it`, (context) => plantedName(context, name));
}

(shouldRun("path-safety/fifo") ? test : test.skip)("a FIFO named like a database is answered in time, not read forever", (context) => plantedName(context, "fifo"));

test(`${VALID.length} valid names are served and their files stay inside the data dir`, async (context) => {
  for (const name of VALID) {
    const replies = await attack(context, name);
    assert.equal(replies.map((r) => r.status), [200, 200, 200, 200, 200, 200, 200], `${name}: ${replies.map((r) => r.text).join("\n")}`);
    assert.ok(lstatSync(path.join(dataDir, `${name}.store`)).isFile(), `${name}.store is a file in the data dir`);
  }
});

test("nothing outside the data dir was created, read or changed, and no answer carries the sentinel", async (context) => {
  assert.ok(context.server.alive, "server alive");
  const after = snapshot(root);
  assert.equal([...after.keys()], [...context.before.keys()], "the same entries outside the data dir");
  for (const [key, entry] of context.before) assert.equal(after.get(key), entry, `${key} unchanged (stat, atime included)`);
  for (const [rel, text] of Object.entries(CONTENTS)) assert.is(readFileSync(path.join(root, rel), "utf8"), text, `${rel} content`);
  assert.equal(repoStoreFiles(), context.repoBefore, "no .store file appeared in the server's working directory");
  const allowed = new Set([...VALID, ...PLANTED].flatMap((n) => [`${n}.store`, `${n}.store-journal`, `${n}.store-lock`]));
  // The FIFO case may have been skipped or may still hang a read: leave it to its own test.
  // A background checkpoint may be writing a database's temp file (document or journal) right now.
  for (const name of readdirSync(dataDir)) {
    const transient = isTempName(name, [...allowed]);
    assert.ok(allowed.has(name) || transient || name.startsWith(".storedb"), `unexpected entry in the data dir: ${JSON.stringify(name)}`);
  }
  for (const reply of context.replies) assert.not.ok(reply.text.includes(MARKER), `an answer carries the sentinel: ${reply.text.slice(0, 200)}`);
  // Planted links still point where they did (or were replaced by a contained file).
  for (const [name, target] of [["link", path.join(sentinel, "victim.store")], ["relout", "../sentinel/victim.store"]] as const) {
    const st = lstatSync(path.join(dataDir, `${name}.store`));
    if (st.isSymbolicLink()) assert.is(readlinkSync(path.join(dataDir, `${name}.store`)), target);
  }
});

test.run();
