/**
 * The examples in README.md and docs/ run here, so the documentation cannot
 * drift from what storedb does.
 *
 * How to write one: a fenced block with the info string `sh example` or
 * `ts example`, optionally followed (blank lines between at most) by a block
 * `text output` holding exactly what it prints on stdout; or a block
 * `http example` holding one request, followed by a block `http output`
 * holding the response (`http-example.ts` says what is compared; without
 * one, the answer must be a 2xx — for answers that vary, such as a count of
 * journal records the server may already have folded). The examples of
 * one document run in order, as a reader following it would, sharing:
 * - a fresh working directory, with `data/` as the data directory;
 * - a real server serving that `data/`, with an API key; the address
 *   `http://127.0.0.1:3000` in an example stands for that server, and
 *   `STORE_API_KEY` holds its key;
 * - `storedb` on the PATH (the command as `npm run build` bundles it).
 * A `sh` example runs in bash with `set -euo pipefail`; it must exit 0. A
 * `ts` example runs as an ES module under tsx, with `"storedb"` and
 * `"storedb/client"` imports resolved to this checkout's sources; it must
 * not throw. An `http` example is sent to the server with its key. Blocks without the marker (a server that never stops, an
 * excerpt) are left alone.
 */

import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../../scripts/bundle.mjs";
import { cleanEnv, cliBundle } from "../cli/support/cli-process.js";
import { serverEnv, startServer, tempDir, type ServerProcess } from "../server/support/server-process.js";
import { examples, type Example } from "./examples.js";
import { assertResponse, parseRequest, parseResponse, send } from "./http-example.js";
import { reapOnExit } from "../support/reap.js";

const KEY = "docs-example-key-0123456789abcdef0123456789";
const PLACEHOLDER = "http://127.0.0.1:3000";
const IMPORTS: Readonly<Record<string, string>> = {
  storedb: path.join(root, "src/index.ts"),
  "storedb/client": path.join(root, "src/client/entry.ts"),
};

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const child = reapOnExit(spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] }));
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** One document's shared place: working directory, server, PATH with `storedb`, a folder in the checkout for ts files. */
interface Place {
  readonly cwd: string;
  readonly server: ServerProcess;
  readonly env: Record<string, string>;
  readonly scripts: string;
}

async function prepare(): Promise<Place> {
  const cwd = tempDir("docs");
  mkdirSync(path.join(cwd, "data"));
  const server = await startServer(serverEnv(path.join(cwd, "data"), { STORE_API_KEY: KEY }));
  const bin = path.join(cwd, ".bin");
  mkdirSync(bin);
  const shim = path.join(bin, "storedb");
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${await cliBundle()}' "$@"\n`);
  chmodSync(shim, 0o755);
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const scripts = mkdtempSync(path.join(root, ".tmp", "docs-"));
  const env = cleanEnv({ PATH: `${bin}:${process.env.PATH ?? ""}`, STORE_API_KEY: KEY, HOME: cwd });
  return { cwd, server, env, scripts };
}

async function runExample(example: Example, place: Place, index: number): Promise<Run> {
  const code = example.code.replaceAll(PLACEHOLDER, place.server.url);
  if (example.language === "sh") return run("bash", ["-c", `set -euo pipefail\n${code}`], place.cwd, place.env);
  const source = code.replace(/from\s+"(storedb(?:\/client)?)"/g, (whole, name: string) => `from ${JSON.stringify(IMPORTS[name] ?? name)}`);
  const file = path.join(place.scripts, `example-${index}.ts`);
  writeFileSync(file, source);
  // tsx by its full address: the working directory is outside the checkout.
  return run(process.execPath, ["--import", import.meta.resolve("tsx"), file], place.cwd, place.env);
}

const byFile = new Map<string, Example[]>();
for (const example of examples(root)) byFile.set(example.file, [...(byFile.get(example.file) ?? []), example]);

for (const [file, list] of byFile) {
  const doc = suite<{ place?: Place }>(file, {});
  doc.before(async (context) => {
    context.place = await prepare();
  });
  doc.after(async ({ place }) => {
    if (!place) return;
    await place.server.stop();
    rmSync(place.cwd, { recursive: true, force: true });
    rmSync(place.scripts, { recursive: true, force: true });
  });
  for (const [index, example] of list.entries()) {
    if (example.language === "http") {
      doc(`http example at line ${example.line}`, async ({ place }) => {
        const where = `${file}:${example.line}`;
        const response = await send(parseRequest(example.code), (place as Place).server.url, KEY);
        if (example.output !== undefined) assertResponse(response, parseResponse(example.output), where);
        else assert.ok(response.status >= 200 && response.status < 300, `${where}: status ${response.status}, body ${response.body}`);
      });
      continue;
    }
    doc(`${example.language} example at line ${example.line}`, async ({ place }) => {
      const result = await runExample(example, place as Place, index);
      assert.is(result.code, 0, `${file}:${example.line} exited ${result.code}\n${result.stderr}${result.stdout}`);
      if (example.output !== undefined) assert.fixture(result.stdout, example.output, `${file}:${example.line} printed something else`);
    });
  }
  doc.run();
}

const all = [...byFile.values()].flat();
const count = suite("examples");
count("README has examples of the command line and the client, and they are found", () => {
  const readme = byFile.get("README.md") ?? [];
  assert.ok(readme.some((e) => e.language === "sh" && e.code.includes("storedb sql")), "a storedb sql example");
  assert.ok(readme.some((e) => e.language === "ts" && e.code.includes("createClient")), "a client example");
  assert.ok(all.every((e) => e.code.trim() !== ""), "no empty example");
});
count.run();
