/**
 * `storedb serve` is the service: configured by the STORE_* variables as
 * before (`--data` sets the data directory), answering, and draining on
 * SIGTERM with exit 0; a bad variable still stops it at once with exit 1.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../server/support/server-process.js";
import { cleanEnv, cliBundle, runCli } from "./support/cli-process.js";
import { reapOnExit } from "../support/reap.js";

const scratch: string[] = [];
test.after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

test("serve listens, answers commands, and exits 0 on SIGTERM", async () => {
  const cwd = tempDir("cli-serve");
  scratch.push(cwd);
  const child = reapOnExit(spawn(process.execPath, [await cliBundle(), "serve", "--data", "mine"], {
    cwd,
    env: cleanEnv({ STORE_PORT: "0" }),
    stdio: ["ignore", "pipe", "pipe"],
  }));
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${stdout}`)), 15_000);
    child.stdout.on("data", () => {
      const ready = stdout.split("\n").find((line) => line.includes('"storedb ready"'));
      if (ready !== undefined) {
        clearTimeout(timer);
        resolve(JSON.parse(ready).port as number);
      }
    });
  });
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  assert.equal(await health.json(), { status: "ok" });
  const created = await fetch(`http://127.0.0.1:${port}/v1/commands`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ database: "shop", command: { kind: "sql", sql: "CREATE TABLE t (k INT PRIMARY KEY)" } }),
  });
  assert.is(created.status, 200);
  assert.ok(existsSync(path.join(cwd, "mine", "shop.store")), "--data named the data directory");
  child.kill("SIGTERM");
  assert.is(await exited, 0);
});

test("serve with an invalid variable exits 1 naming it, before loading the service", async () => {
  const cwd = tempDir("cli-serve");
  scratch.push(cwd);
  const run = await runCli(["serve"], { cwd, env: cleanEnv({ STORE_PORT: "abc" }) });
  assert.is(run.code, 1);
  assert.match(run.stderr, /STORE_PORT/);
  assert.not.ok(existsSync(path.join(cwd, "data")), "nothing was created");
});

test.run();
