/**
 * The narrow file-system layer persistence goes through.
 *
 * Every byte storage reads or writes passes one of these calls, so tests can
 * wrap them: record the order of write / fsync / rename / fsync(dir), inject
 * ENOSPC, EIO, EACCES or EROFS at any step, or model a power loss that drops
 * whatever was not fsynced. `nodeFs` is the real thing; nothing in storage
 * imports `node:fs` for data access except this module (watching included).
 */

import { constants, lstatSync, promises as fsp, statSync, watch, write, writeSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";

/** What storage needs to know about a file: identity for change detection, mode to keep on rewrite. */
export interface FileInfo {
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
  readonly mode: number;
  readonly isFile: boolean;
  readonly isSymbolicLink: boolean;
}

/** An open file, written front to back or at explicit offsets. */
export interface WritableFile {
  /** Writes `data` after what was written last, or at `position`. */
  write(data: Uint8Array, position?: number): Promise<void>;
  /** Applies `mode` exactly (not masked by the umask). */
  chmod(mode: number): Promise<void>;
  fsync(): Promise<void>;
  stat(): Promise<FileInfo>;
  close(): Promise<void>;
}

/**
 * A journal: a file written at the end of its entries through one held
 * descriptor, opened with O_DSYNC so each write is durable (its data and,
 * when it grows the file, the file's new size) when it resolves — one
 * thread-pool trip where write + fdatasync take two, or none when it is
 * opened `blocking` (see `openJournal`). Space ahead of the entries may be
 * preallocated with zeros (see `journal.ts`).
 */
export interface JournalFile {
  /** Writes `data` at byte `at` (the end of the entries: over preallocated zeros, or past the end of the file); durable once resolved. */
  append(data: Uint8Array, at: number): Promise<void>;
  /** Writes `length` zero bytes at `from` (space ahead of the entries); durable once resolved. */
  preallocate(from: number, length: number): Promise<void>;
  /** Cuts the file to `length` bytes, durably. */
  truncate(length: number): Promise<void>;
  stat(): Promise<FileInfo>;
  close(): Promise<void>;
}

export interface FileSystem {
  /**
   * Creates `path`, failing with EEXIST when it is already there. With
   * `durableWrites` it is opened O_DSYNC: each write is on disk (data and
   * size) when it resolves, so a long file written in pieces never leaves a
   * large flush pending for one final fsync.
   */
  createExclusive(path: string, mode?: number, options?: { readonly durableWrites?: boolean }): Promise<WritableFile>;
  /**
   * Opens `path` as a journal: with `create`, creates it (EEXIST when it is
   * there) with exactly `mode`; without, it must exist. A `blocking` journal
   * appends on the calling thread: the event loop waits for the disk, and
   * each append saves a trip through the thread pool (`DatabaseOptions.blockingWrites`).
   */
  openJournal(path: string, options: { readonly create: boolean; readonly mode?: number; readonly blocking?: boolean }): Promise<JournalFile>;
  rename(from: string, to: string): Promise<void>;
  /** Flushes a directory's entries (a rename is durable only after this). */
  fsyncDir(dir: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Hard link; fails with EEXIST when `to` exists. */
  link(from: string, to: string): Promise<void>;
  /** Follows symlinks; `null` when nothing is there. */
  stat(path: string): Promise<FileInfo | null>;
  /** Does not follow symlinks; `null` when nothing is there. */
  lstat(path: string): Promise<FileInfo | null>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer>;
  /** The bytes of `path` from `offset` to its end, or at most `length` of them (empty when it ends before). */
  readFrom(path: string, offset: number, length?: number): Promise<Buffer>;
  readdir(dir: string): Promise<string[]>;
  mkdir(dir: string): Promise<void>;
  /**
   * Reports changes to entries of `dir` (the name, or `null` when unknown) until
   * closed; `onError` when the watch stops working. Throws when no watch is possible.
   */
  watch(dir: string, onChange: (name: string | null) => void, onError: () => void): { close(): void };
}

function info(s: import("node:fs").BigIntStats): FileInfo {
  return {
    size: Number(s.size),
    mtimeNs: s.mtimeNs,
    ino: s.ino,
    dev: s.dev,
    mode: Number(s.mode) & 0o7777,
    isFile: s.isFile(),
    isSymbolicLink: s.isSymbolicLink(),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

class NodeFile implements WritableFile {
  constructor(private readonly handle: FileHandle) {}
  async write(data: Uint8Array, position?: number): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const at = position === undefined ? null : position + offset;
      const { bytesWritten } = await this.handle.write(data, offset, data.length - offset, at);
      offset += bytesWritten;
    }
  }
  chmod(mode: number): Promise<void> {
    return this.handle.chmod(mode);
  }
  fsync(): Promise<void> {
    return this.handle.sync();
  }
  async stat(): Promise<FileInfo> {
    return info(await this.handle.stat({ bigint: true }));
  }
  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * One write through the thread pool with a callback: the append is the one
 * write on a commit's path, and `FileHandle.write`'s promise machinery cost
 * ~6 µs more CPU per 150-byte durable write here (13 against 6 µs of user
 * time on tmpfs).
 */
function writeAt(fd: number, data: Uint8Array, offset: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => write(fd, data, offset, data.length - offset, position, (error, written) => (error ? reject(error) : resolve(written))));
}

/** Zeros to preallocate journal space from, shared (never written to). */
let zeros = Buffer.alloc(0);

class NodeJournal implements JournalFile {
  constructor(
    private readonly handle: FileHandle,
    private readonly blocking: boolean,
  ) {}
  async append(data: Uint8Array, at: number): Promise<void> {
    let offset = 0;
    if (this.blocking) {
      while (offset < data.length) offset += writeSync(this.handle.fd, data, offset, data.length - offset, at + offset);
      return;
    }
    while (offset < data.length) offset += await writeAt(this.handle.fd, data, offset, at + offset);
  }
  async preallocate(from: number, length: number): Promise<void> {
    if (zeros.length < Math.min(length, 1 << 20)) zeros = Buffer.alloc(Math.min(Math.max(length, 64 * 1024), 1 << 20));
    for (let done = 0; done < length; ) done += (await this.handle.write(zeros, 0, Math.min(zeros.length, length - done), from + done)).bytesWritten;
  }
  async truncate(length: number): Promise<void> {
    await this.handle.truncate(length);
    await this.handle.datasync();
  }
  async stat(): Promise<FileInfo> {
    return info(await this.handle.stat({ bigint: true }));
  }
  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Reads a file from `offset` in as few reads as its size allows:
 * `fs.promises.readFile` reads in 512 KiB pieces, one thread-pool trip each,
 * which cost 2–4 ms of loading a 9 MB database. The size is a hint; a file
 * that grows meanwhile is read to its end (or to `limit` bytes). A read of a regular file that
 * returns less than asked for has reached the end, so a file that did not
 * grow takes one read, not a second one to see nothing more.
 */
async function readWhole(path: string, offset = 0, limit = Infinity): Promise<Buffer> {
  const handle = await fsp.open(path, constants.O_RDONLY);
  try {
    const { size } = await handle.stat();
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(size - offset, 1) + 1, limit));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length === limit) return buffer;
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, limit - length))]);
      }
      const asked = buffer.length - length;
      const { bytesRead } = await handle.read(buffer, length, asked, offset + length);
      length += bytesRead;
      if (bytesRead < asked) return buffer.subarray(0, length);
    }
  } finally {
    await handle.close();
  }
}

const JOURNAL_FLAGS = constants.O_WRONLY | constants.O_DSYNC;

export const nodeFs: FileSystem = {
  async createExclusive(path, mode = 0o666, options) {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (options?.durableWrites ? constants.O_DSYNC : 0);
    return new NodeFile(await fsp.open(path, flags, mode));
  },
  async openJournal(path, { create, mode, blocking = false }) {
    const handle = await fsp.open(path, create ? JOURNAL_FLAGS | constants.O_CREAT | constants.O_EXCL : JOURNAL_FLAGS, mode ?? 0o666);
    if (create && mode !== undefined) {
      try {
        await handle.chmod(mode);
      } catch (error) {
        await handle.close();
        throw error;
      }
    }
    return new NodeJournal(handle, blocking);
  },
  rename: (from, to) => fsp.rename(from, to),
  async fsyncDir(dir) {
    const handle = await fsp.open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  unlink: (path) => fsp.unlink(path),
  link: (from, to) => fsp.link(from, to),
  // Metadata calls run synchronously: a command batch looks at its file for outside changes whenever no
  // directory watch vouches for it (`Database.open`: every batch), and a local stat costs about a
  // microsecond, while the async form's thread-pool round trip cost ~20% of a point select's CPU
  // (measured with bench/http). They still answer through a promise, like the rest.
  async stat(path) {
    try {
      return info(statSync(path, { bigint: true }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  },
  async lstat(path) {
    try {
      return info(lstatSync(path, { bigint: true }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  },
  realpath: (path) => fsp.realpath(path),
  readFile: (path) => readWhole(path),
  readFrom: (path, offset, length) => readWhole(path, offset, length),
  readdir: (dir) => fsp.readdir(dir),
  async mkdir(dir) {
    await fsp.mkdir(dir, { recursive: true });
  },
  watch(dir, onChange, onError) {
    // Not persistent: a watch must never keep the process alive.
    const watcher = watch(dir, { persistent: false }, (_event, name) => onChange(typeof name === "string" ? name : null));
    watcher.on("error", onError);
    return watcher;
  },
};
