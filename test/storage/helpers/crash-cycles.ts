/**
 * Kill-and-check cycles for the crash test and `scripts/soak-crash.ts`.
 *
 * The child (fixtures/crash-child.ts) is bundled once with esbuild, so each
 * start costs a plain `node` start rather than a TypeScript compile. Each
 * cycle starts it on the same data directory in one of its modes (appends
 * only, checkpoints running, dying between a checkpoint's rename and its
 * journal reset, or appends through the library with blocking writes), lets it write for a random time, kills it with SIGKILL
 * (unless it killed itself), then opens the database in this process and
 * checks that it is valid and holds every acknowledged row exactly once.
 * The next child meets the dead one's locks and temp files, so every cycle
 * also exercises stale-lock takeover and leftover cleanup.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Database } from "../../../src/database.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Bundles a child program of `fixtures/` (the crash child unless named). */
export async function bundleChild(fixture = "crash-child"): Promise<string> {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), "storedb-crash-bundle-")), `${fixture}.mjs`);
  await build({
    entryPoints: [path.join(here, `../fixtures/${fixture}.ts`)],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    // CommonJS dependencies inside an ESM bundle need a real `require`.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return out;
}

export type CrashMode = "appends" | "checkpoints" | "rename" | "blocking";

export interface CycleReport {
  readonly acked: number;
  readonly stored: number;
  readonly lost: readonly number[];
  /** Ids stored more than once: a record applied twice. */
  readonly doubled: readonly number[];
  /** The child killed itself between a checkpoint's rename and its journal reset. */
  readonly renamed: boolean;
  readonly problems: readonly string[];
}

/** Starts the child on `dir` and resolves once it holds the directory and has its table. */
export async function startChild(bundle: string, dir: string, firstId: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bundle, dir, String(firstId), "appends"], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      if (chunk.startsWith("ready")) resolve();
    });
    child.once("close", () => reject(new Error("the child exited before it was ready")));
  });
  return child;
}

/** One cycle: run the child for `runMs` after it is ready (or until it kills itself), SIGKILL it, check the database. */
export async function crashCycle(bundle: string, dir: string, firstId: number, runMs: number, mode: CrashMode = "appends"): Promise<CycleReport> {
  const child = spawn(process.execPath, [bundle, dir, String(firstId), mode], { stdio: ["ignore", "pipe", "pipe"] });
  const acked: number[] = [];
  let renamed = false;
  let stderr = "";
  let buffered = "";
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "ready") ready();
      else if (line === "renamed") renamed = true;
      else if (line.startsWith("ack ")) acked.push(Number(line.slice(4)));
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  await Promise.race([isReady, exited]);
  await Promise.race([new Promise((resolve) => setTimeout(resolve, runMs)), exited]);
  child.kill("SIGKILL");
  await exited;
  if (child.signalCode !== "SIGKILL") return { acked: acked.length, stored: 0, lost: [], doubled: [], renamed, problems: [`child exited early: ${stderr.slice(0, 500)}`] };

  // Read-only first (it cuts nothing: what the disk holds), then as the next writer would.
  const problems: string[] = [];
  for (const readOnly of [true, false]) {
    const db = await Database.open(path.join(dir, "crash.store"), { readOnly });
    const validation = await db.execute({ kind: "validate" });
    if (validation.kind !== "validation" || !validation.valid) problems.push(`invalid database: ${JSON.stringify(validation)}`);
    const rows = await db.execute({ kind: "select", table: "acks", columns: ["id"], output: "arrays" });
    await db.close();
    const ids = rows.kind === "rows" ? rows.rows.map((r) => (r as unknown[])[0] as number) : [];
    const stored = new Set(ids);
    const doubled = ids.filter((id, i) => ids.indexOf(id) !== i);
    const lost = acked.filter((id) => !stored.has(id));
    if (!readOnly || lost.length > 0 || doubled.length > 0 || problems.length > 0) return { acked: acked.length, stored: stored.size, lost, doubled, renamed, problems };
  }
  throw new Error("unreachable");
}
