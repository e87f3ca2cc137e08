/**
 * One writer per database file, through real processes (CONTRACT §10):
 * a library process and a second library process, a server and a library
 * process — whichever comes second gets `database_locked` (HTTP 423) at
 * once; a reader beside a writer in another process follows its writes;
 * and a SIGKILLed owner's lock never blocks the next writer.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Database } from "../../src/database.js";
import { ServerProcess } from "../hostile/support/server.js";
import { bundleChild } from "./helpers/crash-cycles.js";
import { outcome } from "./helpers/scratch.js";

let bundle = "";
let dir = "";
test.before(async () => {
  bundle = await bundleChild("library-writer");
});
test.after(() => rmSync(path.dirname(bundle), { recursive: true, force: true }));
test.before.each(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-locks-"));
});
test.after.each(() => rmSync(dir, { recursive: true, force: true }));

interface Writer {
  readonly child: ChildProcess;
  readonly acked: number[];
  readonly exited: Promise<void>;
}

/** A library process writing `file`, once it holds the database and has its table. */
async function libraryWriter(file: string, mode: "writing" | "idle" = "writing"): Promise<Writer> {
  const child = spawn(process.execPath, [bundle, file, ...(mode === "idle" ? ["idle"] : [])], { stdio: ["ignore", "pipe", "inherit"] });
  const acked: number[] = [];
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (line === "ready") resolve();
        else if (line.startsWith("ack ")) acked.push(Number(line.slice(4)));
      }
    });
    void exited.then(() => reject(new Error("the writer exited before it was ready")));
  });
  return { child, acked, exited };
}

async function kill(writer: Writer): Promise<void> {
  writer.child.kill("SIGKILL");
  await writer.exited;
}

const ids = async (db: Database): Promise<number[]> => {
  const rows = await db.execute({ kind: "select", table: "w", columns: ["id"], output: "arrays" });
  return rows.kind === "rows" ? rows.rows.map((r) => (r as number[])[0]!) : [];
};
const until = async (what: () => Promise<boolean>): Promise<void> => {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) if (await what()) return;
  assert.unreachable("timed out");
};

test("library + library: the second writer is refused at once; a reader follows the first; once it is SIGKILLed the next writer opens with every acknowledged write", async () => {
  const file = path.join(dir, "shop.store");
  const writer = await libraryWriter(file);
  try {
    const started = Date.now();
    try {
      await Database.open(file);
      assert.unreachable("the database is held");
    } catch (error) {
      assert.is((error as { code?: string }).code, "database_locked");
      assert.match((error as Error).message, new RegExp(`process ${writer.child.pid} on `));
    }
    assert.ok(Date.now() - started < 1000, "at once");
    const reader = await Database.open(file, { readOnly: true });
    const first = (await ids(reader)).length;
    await until(async () => (await ids(reader)).length > first + 20);
    const seen = await ids(reader);
    assert.equal(seen, Array.from({ length: seen.length }, (_, i) => i), "in order, each once");
    assert.is(await outcome(reader.execute({ kind: "insert", table: "w", rows: [{ id: -1 }] })), "database_locked");
    await reader.close();
  } finally {
    await kill(writer);
  }
  const next = await Database.open(file);
  const stored = new Set(await ids(next));
  assert.equal(writer.acked.filter((id) => !stored.has(id)), [], "acknowledged writes lost");
  await next.close();
});

test("server + library: whichever holds a database first, the other gets database_locked (423 over HTTP); a dead library's lock does not block the server", async () => {
  const server = await ServerProcess.start({ dataDir: dir });
  try {
    // The server holds "shop": a library writer is refused, a reader is not.
    const created = await server.command({ database: "shop", command: { kind: "create-table", schema: { name: "w", columns: { id: "integer" } } } });
    assert.is(created.status, 200, created.text);
    assert.is((await server.command({ database: "shop", command: { kind: "insert", table: "w", rows: [{ id: 1 }] } })).status, 200);
    assert.is(await outcome(Database.open(path.join(dir, "shop.store")) as never), "database_locked");
    const reader = await Database.open(path.join(dir, "shop.store"), { readOnly: true });
    assert.equal(await ids(reader), [1]);
    await reader.close();

    // A library process holds "lib": the server refuses it with 423, and takes it once the process is gone.
    const writer = await libraryWriter(path.join(dir, "lib.store"), "idle");
    try {
      const refused = await server.command({ database: "lib", command: { kind: "select", table: "w", columns: "*" } });
      assert.is(refused.status, 423, refused.text);
      assert.is((refused.json as { code: string }).code, "database_locked");
      assert.match(String(refused.headers["content-type"]), /^application\/problem\+json/);
    } finally {
      await kill(writer);
    }
    const taken = await server.command({ database: "lib", command: { kind: "insert", table: "w", rows: [{ id: 7 }] } });
    assert.is(taken.status, 200, taken.text);
  } finally {
    await server.stop();
  }
});

test.run();
