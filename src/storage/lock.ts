/**
 * Owner locks: one server process owns a data directory (`DirectoryLock`,
 * the file `.storedb.lock`), and one process writes a database
 * (`DatabaseLock`, `<name>.store-lock` beside the document, CONTRACT §10) —
 * the server takes it when it opens a database, `Database.open` when it
 * opens a file, and whoever comes second is refused at once. Neither name
 * ends in `.store`, and neither is a temp file, so no cleanup removes one.
 *
 * Both are a `FileLock`: a file created atomically by hard-linking a
 * fully written temp file to that name (the link fails if a lock exists, and
 * a lock is never seen half-written; on a file system without hard links it
 * is created with O_EXCL and a young unreadable lock counts as held). It records who holds it: pid, the
 * process's start time (from /proc/<pid>/stat) and the boot id, plus the
 * host name. A lock is stale when its owner is provably gone: another boot,
 * no such pid, or a pid now held by a different process (a container's pid 1
 * after a restart has the same pid but a different start time). A lock from
 * another host name (another container sharing the volume) cannot be checked
 * that way, so its holder refreshes the lock's mtime every few seconds and it
 * is stale once that heartbeat stops.
 *
 * A stale lock is taken over by renaming it aside and checking that what was
 * moved is the lock judged stale, so two starting processes cannot both win.
 */

import { readFile, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { StoreError } from "../errors.js";
import type { FileSystem } from "./fs.js";
import { tempPathFor } from "./temp-files.js";

export const LOCK_NAME = ".storedb.lock";
/** A database's lock: `shop.store-lock` beside `shop.store`. */
export const databaseLockPath = (document: string) => `${document}-lock`;
const HEARTBEAT_MS = 2_000;
const FOREIGN_STALE_MS = 10_000;
const FRESH_UNREADABLE_MS = 2_000;
/** link() failures meaning "this file system has no hard links". */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

export interface LockOwner {
  readonly pid: number;
  /** Start time of the process in clock ticks since boot; `null` where /proc is unavailable. */
  readonly start: string | null;
  readonly boot: string | null;
  readonly host: string;
}

async function procText(file: string): Promise<string | null> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
export async function processStart(pid: number): Promise<string | null> {
  const stat = await procText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

export async function currentOwner(): Promise<LockOwner> {
  return {
    pid: process.pid,
    start: await processStart(process.pid),
    boot: await procText("/proc/sys/kernel/random/boot_id"),
    host: os.hostname(),
  };
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

type Verdict = "stale" | "live";

async function judge(owner: LockOwner, me: LockOwner, mtimeMs: number): Promise<Verdict> {
  if (owner.boot !== null && me.boot !== null && owner.boot !== me.boot) return "stale";
  if (owner.host !== me.host) return Date.now() - mtimeMs > FOREIGN_STALE_MS ? "stale" : "live";
  if (owner.pid === me.pid && owner.start === me.start) return "live";
  if (!pidExists(owner.pid)) return "stale";
  if (owner.start !== null) {
    const start = await processStart(owner.pid);
    if (start !== null && start !== owner.start) return "stale";
  }
  return "live";
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== "number" || typeof value.host !== "string") return null;
    return { pid: value.pid, start: value.start ?? null, boot: value.boot ?? null, host: value.host };
  } catch {
    return null;
  }
}

/** What a lock guards, as its refusals say it. */
interface LockKind {
  /** A live process holds it; `who` is "this process" or "process <pid> on <host>". */
  held(who: string): StoreError;
  /** It could not be taken for another reason (an I/O error, a lock changing hands). */
  failed(detail: string, cause?: unknown): StoreError;
}

const DIRECTORY: LockKind = {
  held: (who) => new StoreError("storage_error", `The data directory is in use by ${who}: only one storedb server may use a data directory at a time.`),
  failed: (detail, cause) => new StoreError("storage_error", `The data directory lock could not be taken (${detail}).`, { cause }),
};

const DATABASE: LockKind = {
  held: (who) =>
    new StoreError("database_locked", `The database is being written by ${who}: one process writes a database at a time (open it read-only to read beside the writer).`),
  failed: (detail, cause) => new StoreError("storage_error", `The database's lock could not be taken (${detail}).`, { cause }),
};

function whoOf(owner: LockOwner, me: LockOwner): string {
  return owner.pid === me.pid && owner.host === me.host ? "this process" : `process ${owner.pid} on ${owner.host}`;
}

/** A held owner lock; see the header. */
export class FileLock {
  private heartbeat: NodeJS.Timeout | undefined;

  private constructor(
    private readonly fs: FileSystem,
    private readonly file: string,
  ) {
    this.heartbeat = setInterval(() => void this.touch(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes the lock `file` or throws at once (`kind`'s errors) when a live process holds it. */
  static async acquire(fs: FileSystem, file: string, kind: LockKind): Promise<FileLock> {
    try {
      return await FileLock.take(fs, file, kind);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw kind.failed((error as NodeJS.ErrnoException).code ?? "error", error);
    }
  }

  private static async take(fs: FileSystem, file: string, kind: LockKind): Promise<FileLock> {
    const me = await currentOwner();
    const content = Buffer.from(JSON.stringify(me) + "\n");
    for (let attempt = 0; attempt < 5; attempt++) {
      if (await tryCreate(fs, file, content)) return new FileLock(fs, file);
      const [text, info] = await Promise.all([fs.readFile(file).catch(() => null), fs.stat(file)]);
      if (text === null || info === null) continue; // released meanwhile: try again
      const owner = parseOwner(text.toString("utf8"));
      const mtimeMs = Number(info.mtimeNs / 1_000_000n);
      if (owner === null) {
        // link() publishes a lock whole, so an unreadable one is junk; only the
        // fallback for file systems without hard links shows one being written.
        if (Date.now() - mtimeMs < FRESH_UNREADABLE_MS) throw kind.held("another process taking it now");
      } else if ((await judge(owner, me, mtimeMs)) === "live") {
        throw kind.held(whoOf(owner, me));
      }
      await takeOver(fs, file, text);
    }
    throw kind.failed("it keeps changing hands");
  }

  private async touch(): Promise<void> {
    try {
      const now = new Date();
      await utimes(this.file, now, now);
    } catch {
      // A heartbeat that fails only makes the lock look stale to other hosts sooner.
    }
  }

  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.fs.unlink(this.file).catch(() => undefined);
  }
}

/** One server process owns a data directory. */
export const DirectoryLock = {
  /** Takes the lock of `dir` or throws at once (StoreError `storage_error`) when a live process holds it. */
  acquire: (fs: FileSystem, dir: string): Promise<FileLock> => FileLock.acquire(fs, path.join(dir, LOCK_NAME), DIRECTORY),
};

/** One process writes a database. */
export const DatabaseLock = {
  /** Takes the lock of the database in `document` or throws at once (`database_locked`) when a live process holds it. */
  acquire: (fs: FileSystem, document: string): Promise<FileLock> => FileLock.acquire(fs, databaseLockPath(document), DATABASE),
};

async function tryCreate(fs: FileSystem, file: string, content: Buffer): Promise<boolean> {
  try {
    return await tryLink(fs, file, content);
  } catch (error) {
    if (!NO_LINKS.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    return tryExclusive(fs, file, content);
  }
}

/** Without hard links: create the lock itself exclusively, then fill it in. */
async function tryExclusive(fs: FileSystem, file: string, content: Buffer): Promise<boolean> {
  let handle;
  try {
    handle = await fs.createExclusive(file, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.write(content);
    await handle.fsync();
  } finally {
    await handle.close();
  }
  await fs.fsyncDir(path.dirname(file));
  return true;
}

async function tryLink(fs: FileSystem, file: string, content: Buffer): Promise<boolean> {
  const temp = tempPathFor(file);
  const handle = await fs.createExclusive(temp, 0o644);
  try {
    await handle.write(content);
    await handle.fsync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(temp, file);
    await fs.fsyncDir(path.dirname(file));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.unlink(temp).catch(() => undefined);
  }
}

/** Moves a stale lock aside; if what moved is not the lock judged stale, puts it back. */
async function takeOver(fs: FileSystem, file: string, judged: Buffer): Promise<void> {
  const aside = tempPathFor(file);
  try {
    await fs.rename(file, aside);
  } catch {
    return; // gone already
  }
  const moved = await fs.readFile(aside).catch(() => null);
  if (moved !== null && !moved.equals(judged)) await fs.link(aside, file).catch(() => undefined);
  await fs.unlink(aside).catch(() => undefined);
}
