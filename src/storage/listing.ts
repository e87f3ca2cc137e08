/**
 * The databases of a data directory, listed (`GET /v1/databases`, CONTRACT
 * §12): name, bytes on disk and table names, sorted by name.
 *
 * A database is a `<name>.store` file whose name follows §1 (temp files,
 * the lock and journals are not databases), or a symlink by such a name that
 * stays in the directory (one leading out is "not found", as everywhere).
 *
 * Listing must not load databases — the directory may hold far more data
 * than the server keeps in memory — so the table names come from:
 * - a database the service has open: its own `describe`, run through its
 *   queue like any command, so the names include every acknowledged change
 *   (whether or not the document on disk shows it yet);
 * - any other: a streaming scan of its document (`table-names.ts`),
 *   remembered per file identity (device, inode, size, mtime), so each
 *   version of a file is scanned once. The memo holds names only.
 * `tables` is `null` when the names cannot be known: a document that does
 * not parse (and is not open), or one that cannot be read.
 *
 * `bytes` is the database's footprint on disk: its document plus its
 * journal (`<name>.store-journal`, CONTRACT §2) when there is one.
 *
 * It reads through `node:fs` directly, not the storage's `FileSystem` layer:
 * that has no chunked read, and nothing here writes.
 */

import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Stats } from "node:fs";
import { runChecked } from "../checked.js";
import type { Command } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { DATABASE_NAME_PATTERN } from "../commands/names.js";
import { StoreError } from "../errors.js";
import { readTableNames } from "./table-names.js";

/** One entry of the listing. */
export interface DatabaseSummary {
  readonly name: string;
  /** Bytes on disk: the document, plus its journal when there is one. */
  readonly bytes: number;
  /** Table names, sorted; `null` when they cannot be known (a document that does not parse, an unreadable file). */
  readonly tables: readonly string[] | null;
}

/** An open database, as the listing asks it: a command through its queue. */
export interface OpenDatabase {
  [runChecked](command: Command): Promise<Result>;
}

const DATABASE_NAME = new RegExp(DATABASE_NAME_PATTERN);
const STORE_SUFFIX = ".store";
const DESCRIBE: Command = { kind: "describe" };
/** Documents scanned at once: each scan holds one 64 KiB chunk. */
const PARALLEL_SCANS = 4;

interface Scanned {
  readonly identity: string;
  readonly tables: readonly string[] | null;
}

function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

export class DatabaseListing {
  private readonly scanned = new Map<string, Scanned>();

  /** `dir`: the data directory's real path. */
  constructor(private readonly dir: string) {}

  /** Every database in the directory, sorted by name; `open` returns the service's open database of a name, if any. */
  async list(open: (name: string) => OpenDatabase | undefined): Promise<DatabaseSummary[]> {
    let files: string[];
    try {
      files = await readdir(this.dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code ?? "error";
      throw new StoreError("storage_error", `The data directory could not be listed (${code}).`, { cause: error });
    }
    const names = files
      .filter((file) => file.endsWith(STORE_SUFFIX))
      .map((file) => file.slice(0, -STORE_SUFFIX.length))
      .filter((name) => DATABASE_NAME.test(name))
      .sort();
    const summaries: (DatabaseSummary | null)[] = new Array(names.length).fill(null);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length) {
        const index = next++;
        summaries[index] = await this.summary(names[index]!, open(names[index]!));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_SCANS, names.length) }, worker));
    // Forget files that are gone, so the memo never outgrows the directory.
    const present = new Set(names);
    for (const name of this.scanned.keys()) if (!present.has(name)) this.scanned.delete(name);
    return summaries.filter((summary): summary is DatabaseSummary => summary !== null);
  }

  /** One database's summary; `null` when its file is gone, not a file, or a symlink leading out. */
  private async summary(name: string, db: OpenDatabase | undefined): Promise<DatabaseSummary | null> {
    const file = path.join(this.dir, name + STORE_SUFFIX);
    let document: Stats;
    let target = file;
    try {
      const link = await lstat(file);
      if (link.isSymbolicLink()) {
        target = await realpath(file);
        if (path.dirname(target) !== this.dir) return null;
      }
      document = link.isSymbolicLink() ? await stat(target) : link;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
    if (!document.isFile()) return null;
    const bytes = document.size + (await journalBytes(file));
    const tables = (db === undefined ? undefined : await describedTables(db)) ?? (await this.scannedTables(name, target, document));
    return { name, bytes, tables };
  }

  private async scannedTables(name: string, file: string, document: Stats): Promise<readonly string[] | null> {
    const identity = identityOf(document);
    const known = this.scanned.get(name);
    if (known?.identity === identity) return known.tables;
    let tables: readonly string[] | null;
    try {
      tables = await readTableNames(file);
    } catch {
      // Unreadable now (permissions, a file replaced mid-read): unknown, and not remembered.
      return null;
    }
    this.scanned.set(name, { identity, tables });
    return tables;
  }
}

async function journalBytes(file: string): Promise<number> {
  try {
    return (await stat(`${file}-journal`)).size;
  } catch {
    return 0;
  }
}

/** The tables an open database describes; undefined when it cannot (missing, corrupt, closing): the file decides then. */
async function describedTables(db: OpenDatabase): Promise<readonly string[] | undefined> {
  try {
    const result = await db[runChecked](DESCRIBE);
    return result.kind === "schema" ? result.tables.map((table) => table.name).sort() : undefined;
  } catch {
    return undefined;
  }
}
