/** Scratch data directories under os.tmpdir() and what tests read back from them. */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "../../../src/commands/types.js";
import type { Result } from "../../../src/commands/results.js";
import { Database } from "../../../src/database.js";
import { DataDirectory } from "../../../src/storage/data-directory.js";
import { readStore } from "../../../src/storage/format.js";

export function scratchDir(label: string): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), `storedb-${label}-`)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * What a database holds on disk — its document and the journal that
 * continues it, read as a reader beside a writer reads them — as comparable
 * text: "missing", or its tables and rows. Throws if invalid.
 */
export async function fingerprint(file: string): Promise<string> {
  if (!existsSync(file)) return "missing";
  const db = await Database.open(file, { readOnly: true });
  try {
    const validation = await db.execute({ kind: "validate" });
    if (validation.kind !== "validation" || !validation.valid) throw new Error(`invalid database: ${JSON.stringify(validation)}`);
    const schema = await db.execute({ kind: "describe" });
    const tables: [string, unknown][] = [];
    for (const { name } of schema.kind === "schema" ? schema.tables : []) {
      const rows = await db.execute({ kind: "select", table: name, columns: "*" });
      tables.push([name, rows.kind === "rows" ? rows.rows : null]);
    }
    return JSON.stringify(tables);
  } finally {
    await db.close();
  }
}

/** What the `.store` document alone holds (no journal), like `fingerprint`. Throws if invalid. */
export async function documentFingerprint(file: string): Promise<string> {
  if (!existsSync(file)) return "missing";
  const read = await readStore(readFileSync(file));
  if (read.problems.length > 0 || read.tables === undefined) throw new Error(`invalid file: ${JSON.stringify(read.problems)}`);
  return JSON.stringify(read.tables.map((t) => [t.name, t.rows]));
}

/** Runs commands on database `name` of `dir` with the real fs, then closes the directory. */
export async function seed(dir: string, name: string, commands: readonly Command[]): Promise<void> {
  const data = await DataDirectory.open(dir);
  try {
    for (const command of commands) await data.execute(name, command);
  } finally {
    await data.close();
  }
}

/** The error code a promise rejects with, or "ok". */
export async function outcome(promise: Promise<Result>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Waits until `what` holds, looking every 10 ms; throws after `ms`. */
export async function until(what: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await what()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out after ${ms} ms`);
}

export const usersTable: Command = {
  kind: "create-table",
  schema: { name: "users", columns: { id: "text", name: "text" }, primary_key: { columns: ["id"] } },
};

export const threeUsers: Command = {
  kind: "insert",
  table: "users",
  rows: [
    { id: "1", name: "Ada" },
    { id: "2", name: "Bo" },
    { id: "3", name: "Cy" },
  ],
};

export const eq = (name: string, value: string) =>
  ({ type: "comparison", op: "=", left: { type: "identifier", name }, right: { type: "literal", value } }) as const;
