/**
 * Persistence by whole-file rewrite: every commit writes the engine's full
 * snapshot as a new `.store` document and atomically replaces the old one.
 *
 * It also remembers the identity (inode, size, mtime) of the file it last
 * read or wrote, so a file replaced or edited by someone else is noticed and
 * reloaded, and a file that disappeared means the database is gone. With a
 * `ChangeWatch` on its directory it compares identities only after the watch
 * saw the file's name change (or its periodic re-check came round), not
 * before every command. When
 * confined to a data directory, a symlink leading out of it reads as no
 * database at all; a symlink that stays inside is written through, so the
 * link and its target remain one database.
 */

import path from "node:path";
import type { Change, EngineApi } from "../catalog/types.js";
import { StorageError } from "../errors.js";
import { PersistFailure, removeDurably, writeAtomically } from "./atomic-write.js";
import { readStore } from "./format.js";
import { StoreWriter } from "./format.js";
import type { ChangeWatch } from "./change-watch.js";
import type { FileInfo, FileSystem } from "./fs.js";
import { realEngines } from "./persistence.js";
import type { EngineFactory, LoadState, Persistence } from "./persistence.js";

export interface SnapshotFileOptions {
  /** A directory (real path) the file must resolve inside; a symlink leading out of it is "no database". */
  readonly confineTo?: string;
  readonly engines?: EngineFactory;
  /** A watch on the file's directory: without one, every check looks at the file. */
  readonly watch?: ChangeWatch;
}

type Identity = Pick<FileInfo, "ino" | "dev" | "size" | "mtimeNs" | "mode">;

function sameFile(a: Identity | null, b: Identity | null): boolean {
  if (a === null || b === null) return a === b;
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function readFailure(error: unknown): StorageError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return new StorageError("storage_error", `The database file could not be read${code ? ` (${code})` : ""}.`, error);
}

export class SnapshotFilePersistence implements Persistence {
  private readonly writer = new StoreWriter();
  private readonly engines: EngineFactory;
  /** The path commits replace: the file, or the target of a symlink that stays inside. */
  private target: string;
  /** The file as we last read or wrote it; `null` when it did not exist. `undefined`: unknown, reload. */
  private known: Identity | null | undefined = undefined;
  /**
   * A failed commit whose old state could not be written back may have left
   * its change in the file. Memory holds the state every answer was given
   * from, so it stays authoritative (no reload) until a commit succeeds and
   * rewrites the file whole.
   */
  private unsettled = false;
  /** The watch's version of the file when `known` was last confirmed; `undefined`: look at the file. */
  private confirmed: number | undefined = undefined;
  /** The file's name in its directory, as the watch reports it. */
  private readonly name: string;

  constructor(
    private readonly fs: FileSystem,
    readonly file: string,
    private readonly options: SnapshotFileOptions = {},
  ) {
    this.engines = options.engines ?? realEngines;
    this.target = file;
    this.name = path.basename(file);
  }

  /**
   * The file's identity, or `null` when there is no database (missing, or a
   * symlink leading out). Anything but a regular file (a directory, a FIFO
   * that would block a read forever) is a storage error, never opened.
   */
  private async current(): Promise<Identity | null> {
    let found: FileInfo | null;
    try {
      found = await this.follow();
    } catch (error) {
      throw readFailure(error);
    }
    if (found !== null && !found.isFile) throw new StorageError("storage_error", "The database's file is not a regular file.");
    return found;
  }

  private async follow(): Promise<FileInfo | null> {
    const link = await this.fs.lstat(this.file);
    this.target = this.file;
    if (link === null || !link.isSymbolicLink) return link;
    const real = await this.fs.realpath(this.file).catch(() => null);
    if (real === null) return null;
    if (this.options.confineTo !== undefined && path.dirname(real) !== this.options.confineTo) return null;
    // Writes go through the link to its target, so the link and the target stay one database.
    this.target = real;
    return this.fs.stat(real);
  }

  async load(): Promise<LoadState> {
    const before = await this.current();
    if (before === null) {
      this.known = null;
      return { kind: "missing" };
    }
    let bytes: Buffer;
    try {
      bytes = await this.fs.readFile(this.target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        this.known = null;
        return { kind: "missing" };
      }
      throw readFailure(error);
    }
    this.known = before;
    const read = await readStore(bytes);
    if (read.tables === undefined) return { kind: "loaded", engine: this.engines.empty(), problems: read.problems };
    const engine = this.engines.load(read.tables);
    return { kind: "loaded", engine, problems: [...read.problems, ...engine.problems] };
  }

  changedElsewhere(): boolean | Promise<boolean> {
    if (this.unsettled) return false;
    if (this.known === undefined) return true;
    const { watch } = this.options;
    // Without a working watch, or through a symlink (whose target the watch does not report on), look at the file.
    if (watch === undefined || !watch.watching || this.target !== this.file) return this.differs();
    return watch.caughtUp().then(() => {
      const version = watch.version(this.name);
      if (version !== undefined && version === this.confirmed) return false;
      // Taken before looking, so a change that lands while we look moves the version again.
      this.confirmed = version;
      return this.differs();
    });
  }

  private async differs(): Promise<boolean> {
    return !sameFile(this.known ?? null, await this.current());
  }

  async commit(engine: EngineApi, changes: readonly Change[], created: boolean): Promise<void> {
    const mode = this.known?.mode;
    try {
      this.known = await writeAtomically(this.fs, this.target, this.writer.write(engine.snapshot()), mode);
      this.unsettled = false;
    } catch (error) {
      engine.undo(changes);
      if (error instanceof PersistFailure && error.afterRename) await this.restore(engine, created, mode);
      throw error;
    }
  }

  /** The new file may be in place though the commit failed: put the old state back. */
  private async restore(engine: EngineApi, created: boolean, mode: number | undefined): Promise<void> {
    try {
      if (created) {
        await removeDurably(this.fs, this.target);
        this.known = null;
      } else {
        // The writer is deterministic, so this is byte for byte the last durable file.
        this.known = await writeAtomically(this.fs, this.target, this.writer.write(engine.snapshot()), mode);
      }
    } catch {
      this.unsettled = true;
    }
  }
}
