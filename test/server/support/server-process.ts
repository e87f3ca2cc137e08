/**
 * Real server processes for the HTTP integration tests.
 *
 * `src/server/main.ts` is bundled once per test run (`buildServer`, the
 * options `npm run build` uses) into a scratch folder under
 * the checkout's `.tmp/`, so Node resolves `node_modules` from there, and
 * each test starts `node server.js` on port 0 with its own data directory.
 * A server is ready when it logs `storedb ready` with the port it got.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildServer, root } from "../../../scripts/bundle.mjs";
import { reapOnExit } from "../../support/reap.js";

let bundle: Promise<string> | undefined;

/** Builds the server bundle once per process; removed when the process exits. */
export function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    mkdirSync(path.join(root, ".tmp"), { recursive: true });
    const dir = mkdtempSync(path.join(root, ".tmp", "server-test-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, "server.js");
    await buildServer(outfile);
    return outfile;
  })();
  return bundle;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `storedb-${prefix}-`));
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  /** Everything the process wrote so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** JSON log lines parsed from stdout. */
  readonly logs: () => Record<string, unknown>[];
  readonly exited: Promise<Exit>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** Base environment: a data dir, an OS-chosen port, quiet enough logs to parse. */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("STORE_")) env[key] = value;
  }
  return { ...env, STORE_DATA_PATH: dataDir, STORE_PORT: "0", STORE_LOG_LEVEL: "info", ...extra };
}

async function launch(env: Record<string, string>): Promise<{ child: ChildProcess; out: string[]; err: string[]; exited: Promise<Exit> }> {
  const out: string[] = [];
  const err: string[] = [];
  const child = reapOnExit(spawn(process.execPath, [await serverBundle()], { env, stdio: ["ignore", "pipe", "pipe"] }));
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => out.push(chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => err.push(chunk));
  const exited = new Promise<Exit>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, out, err, exited };
}

function parseLogs(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Starts a server and resolves once it listens; rejects if it exits first. */
export async function startServer(env: Record<string, string>, timeoutMs = 10_000): Promise<ServerProcess> {
  const { child, out, err, exited } = await launch(env);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err.join("")}${out.join("")}`)), timeoutMs);
    const check = (): void => {
      const ready = parseLogs(out.join("")).find((line) => line.msg === "storedb ready");
      if (ready !== undefined) {
        clearTimeout(timer);
        resolve(Number(ready.port));
      }
    };
    child.stdout!.on("data", check);
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${exit.code ?? exit.signal}) before listening: ${err.join("")}${out.join("")}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out.join(""),
    stderr: () => err.join(""),
    logs: () => parseLogs(out.join("")),
    exited,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a server that is expected to exit by itself (bad configuration, lock held). */
export async function runToExit(env: Record<string, string>, timeoutMs = 10_000): Promise<Exit & { stdout: string; stderr: string }> {
  const { child, out, err, exited } = await launch(env);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  return { ...exit, stdout: out.join(""), stderr: err.join("") };
}

/** POST /v1/commands with a JSON envelope. */
export async function command(
  url: string,
  database: string,
  cmd: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${url}/v1/commands`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ database, command: cmd }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}
