/**
 * The `storedb` command as a real process, for the command-line tests.
 *
 * `src/cli/main.ts` is bundled once per test run the way `npm run build`
 * bundles it (split into chunks, `scripts/bundle.mjs`) into a scratch folder
 * under the checkout's `.tmp/` (so Node resolves `node_modules` from there),
 * and each run is `node cli.js <args>` with its own working directory and
 * environment, nothing inherited from `STORE_*`.
 */

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { buildCli, root } from "../../../scripts/bundle.mjs";
import { reapOnExit } from "../../support/reap.js";

let bundle: Promise<string> | undefined;

/** Builds the command once per process; removed when the process exits. */
export function cliBundle(): Promise<string> {
  bundle ??= (async () => {
    mkdirSync(path.join(root, ".tmp"), { recursive: true });
    const dir = mkdtempSync(path.join(root, ".tmp", "cli-test-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    return buildCli(dir);
  })();
  return bundle;
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Written to stdin, which is then closed (stdin is empty otherwise). */
  readonly input?: string;
  readonly timeoutMs?: number;
}

/** The environment without `STORE_*` variables and without colour (NO_COLOR, and no FORCE_COLOR to overrule it). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("STORE_") && key !== "FORCE_COLOR") env[key] = value;
  }
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs `storedb <args>` to its exit. */
export async function runCli(args: readonly string[], options: RunOptions): Promise<RunResult> {
  const child = reapOnExit(spawn(process.execPath, [await cliBundle(), ...args], {
    cwd: options.cwd,
    env: options.env ?? cleanEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  }));
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}
