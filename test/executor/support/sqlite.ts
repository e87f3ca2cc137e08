/**
 * SQLite (better-sqlite3, in memory) as the differential tests hold
 * storedb to it, and values carried between the two: bound as SQLite
 * stores what storedb stores, read back as storedb answers.
 */
import { createRequire } from "node:module";
import type { Value } from "../../../src/commands/types.js";

export interface SqliteStatement {
  readonly reader: boolean;
  raw(): { all(...params: unknown[]): unknown[][] };
  run(...params: unknown[]): unknown;
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
}

export const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => SqliteDatabase;

/** A value as better-sqlite3 binds it the way storedb reads it: integers as BigInt (a JS number binds as REAL), booleans as 0/1. */
export function sqliteValue(v: Value): unknown {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  return v;
}

/** A result value compared across engines: booleans as SQLite keeps them, -0 as 0. */
export function normal(v: unknown): Value {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v === 0 ? 0 : v;
  return v as Value;
}
