/**
 * A database on disk (CONTRACT §2): the `.store` document plus its journal
 * `<name>.store-journal`, kept as one `Persistence`.
 *
 * - Load reads both at once, checks the document, and replays the journal
 *   if it continues this document (`baseFor`: its header or a checkpoint
 *   marker names the document's identity); a journal that does not is left
 *   unreplayed and reported (`journal-discarded`), and the next append
 *   replaces it. A torn last entry is cut away — durably, by a writer — and
 *   damage makes the database invalid (problem code `journal`).
 * - A commit appends one record to the journal (`Journal`), durable before
 *   the commit resolves. Only the commit that creates the database writes
 *   the document, as a whole, atomically.
 * - A checkpoint folds the journal into the document off the request path:
 *   snapshot the engine at a quiet point (no group between apply and
 *   durable; rows are values, so the snapshot holds still), write it in
 *   slices to a temp file, append a marker naming it, rename it in place,
 *   reset the journal. Commands and appends go on meanwhile. It runs when
 *   the `CheckpointSchedule` says, on the `checkpoint` command and at close;
 *   a failure changes nothing and is retried later.
 * - A writer holds the database's lock (`<name>.store-lock`, CONTRACT §10)
 *   from the moment it reads an existing database or creates one until it
 *   closes; a second writer is refused with `database_locked`.
 * - A read-only follower takes no lock and writes nothing: before each
 *   command it applies what a writer appended to the journal since it last
 *   looked, and reloads when the document itself was replaced.
 *
 * It remembers the identity (inode, size, mtime) of the document it last
 * read or wrote, so a document replaced or edited by someone else is noticed
 * and reloaded, and a file that disappeared means the database is gone.
 * With a `ChangeWatch` on its directory it compares identities only after
 * the watch saw the file's name change (or its periodic re-check came
 * round), not before every command. When confined to a data directory, a
 * symlink leading out of it reads as no database at all; a symlink that
 * stays inside is written through (its journal sits beside its target), so
 * the link and its target remain one database.
 */

import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Change, EngineApi, Redo } from "../catalog/types.js";
import { StorageError, StoreError, type ProblemEntry } from "../errors.js";
import { PersistFailure, putInPlace, removeDurably, writeAtomically, writeFailure, writeTemp } from "./atomic-write.js";
import type { ChangeWatch } from "./change-watch.js";
import { CheckpointSchedule, type CheckpointPolicy } from "./checkpoint-schedule.js";
import { identityOfSealed } from "./checksum.js";
import { CLOSING, LIVE, writeInSlices } from "./document-slices.js";
import { readStore, StoreWriter } from "./format.js";
import type { FileInfo, FileSystem, JournalFile, WritableFile } from "./fs.js";
import { Journal, type JournalStart } from "./journal.js";
import { DatabaseLock, type FileLock } from "./lock.js";
import { baseFor, decodeRecord, scanJournal, type JournalEntry, type JournalScan } from "./journal-format.js";
import { secondsSince, type StorageObserver } from "./observer.js";
import { realEngines } from "./persistence.js";
import type { EngineFactory, JournalSize, LoadState, Persistence, PersistenceHost, StorageEvents } from "./persistence.js";

export interface JournaledFileOptions {
  /** A directory (real path) the file must resolve inside; a symlink leading out of it is "no database". */
  readonly confineTo?: string;
  readonly engines?: EngineFactory;
  /** A watch on the file's directory: without one, every check looks at the file. */
  readonly watch?: ChangeWatch;
  /** Follow a writer instead of writing: no lock, no cut, every mutation refused (by the database). */
  readonly readOnly?: boolean;
  /** Journal appends block the event loop until durable instead of going through the thread pool (`DatabaseOptions.blockingWrites`). */
  readonly blockingWrites?: boolean;
  readonly checkpoints?: CheckpointPolicy;
  readonly onEvent?: StorageEvents;
  /** Measurements (loads, commits, checkpoints), for metrics. */
  readonly observer?: StorageObserver;
}

/** A follower reads a journal's new bytes this many at first (a window of zeros when nothing is new). */
const FOLLOW_WINDOW = 8 * 1024;

type Identity = Pick<FileInfo, "ino" | "dev" | "size" | "mtimeNs" | "mode">;

function sameFile(a: Identity | null | undefined, b: Identity | null): boolean {
  if (a === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function readFailure(error: unknown, what = "database file"): StorageError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return new StorageError("storage_error", `The ${what} could not be read${code ? ` (${code})` : ""}.`, error);
}

function journalProblem(message: string): ProblemEntry {
  return { code: "journal", message: `${message[0]!.toUpperCase()}${message.slice(1)}.` };
}

/** A reader's place in the journal it follows. */
interface Following {
  readonly engine: EngineApi;
  /** The journal file's identity; undefined when there was none. */
  ino: bigint | undefined;
  /** Bytes read and applied (good lines only). */
  offset: number;
  seq: number;
  /** Change records applied that the document does not hold. */
  records: number;
}

/** A checkpoint under way: the sequence number its snapshot holds (once taken), and its outcome. */
interface Run {
  through: number | undefined;
  done: Promise<number>;
}

class Aborted extends StorageError {
  constructor() {
    super("storage_error", "The checkpoint was abandoned: the database's file was replaced from outside, or the database closed, meanwhile.");
  }
}

/** A checkpoint writes in small chunks while an append came within this long (they wait behind each chunk on the disk). */
const BUSY_MS = 1_000;

/** How often a load starts over because the document changed while it read. */
const LOAD_ATTEMPTS = 5;

export class JournaledFile implements Persistence {
  private readonly writer = new StoreWriter();
  private readonly engines: EngineFactory;
  private readonly name: string;
  private readonly database: string;
  private readonly schedule: CheckpointSchedule;
  private host: PersistenceHost | undefined;
  /** The path commits replace: the file, or the target of a symlink that stays inside. */
  private target: string;
  /** The document as we last read or wrote it; `null` when it did not exist. `undefined`: unknown, reload. */
  private known: Identity | null | undefined = undefined;
  /** A checkpoint's new document while it is being renamed in place: seeing it is no outside change. */
  private renaming: Identity | undefined;
  /**
   * The commit that created the database failed after its file was renamed
   * into place, and removing it failed too. Memory (no database) stays
   * authoritative until a commit rewrites the file.
   */
  private unsettled = false;
  /** The watch's version of the file when `known` was last confirmed; `undefined`: look at the file. */
  private confirmed: number | undefined = undefined;
  private journal: Journal | undefined;
  private following: Following | undefined;
  private documentBytes = 0;
  /** Bumped by every load and at close: a checkpoint from before gives up. */
  private epoch = 0;
  private running: Run | undefined;
  private closed = false;
  /** `close` has begun: its checkpoint is the last write, which remembers no row's line (`StoreWriter`). */
  private closing = false;
  /** The database's lock, once a writer took it; `locking` while it is being taken. */
  private lock: FileLock | undefined;
  private locking: Promise<void> | undefined;

  constructor(
    private readonly fs: FileSystem,
    readonly file: string,
    private readonly options: JournaledFileOptions = {},
  ) {
    this.engines = options.engines ?? realEngines;
    this.target = file;
    this.name = path.basename(file);
    this.database = path.basename(file, ".store");
    this.schedule = new CheckpointSchedule(options.checkpoints, () => this.background());
  }

  attach(host: PersistenceHost): void {
    this.host = host;
  }

  private get journalFile(): string {
    return this.target + "-journal";
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

  /**
   * Takes the database's lock (CONTRACT §10), unless held already: throws
   * `database_locked` at once when another live process writes it. A writer
   * takes it before it reads a database that exists or creates one;
   * `Database.open` takes it up front.
   */
  takeLock(): Promise<void> {
    if (this.options.readOnly) return Promise.resolve();
    return (this.locking ??= DatabaseLock.acquire(this.fs, this.target).then(
      (lock) => void (this.lock = lock),
      (error: unknown) => {
        this.locking = undefined;
        throw error;
      },
    ));
  }

  async load(): Promise<LoadState> {
    const started = performance.now();
    this.epoch += 1;
    await this.settleCheckpoint();
    await this.journal?.close();
    this.journal = undefined;
    this.following = undefined;
    if ((await this.current()) !== null) await this.takeLock();
    // The document and its journal are read as one state: if the document moved meanwhile (a checkpoint
    // renamed a new one in and reset the journal), the journal read may belong to the new one; read again.
    let before: Identity | null = null;
    let bytes: Buffer | undefined;
    let journal: { bytes: Buffer; ino: bigint } | null = null;
    for (let attempt = 0; attempt < LOAD_ATTEMPTS && bytes === undefined; attempt++) {
      before = await this.current();
      if (before === null) break;
      try {
        [bytes, journal] = await Promise.all([this.fs.readFile(this.target), this.readJournal()]);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") bytes = undefined;
        else throw error instanceof StoreError ? error : readFailure(error);
      }
      if (bytes !== undefined && !sameFile(before, await this.current())) bytes = undefined;
    }
    if (before === null || bytes === undefined) {
      if (before !== null) throw new StorageError("storage_error", "The database's file kept changing while it was read.");
      this.known = null;
      return { kind: "missing" };
    }
    this.known = before;
    this.documentBytes = bytes.length;
    const readBytes = bytes.length + (journal?.bytes.length ?? 0);
    const loaded = (engine: EngineApi, problems: readonly ProblemEntry[]): LoadState => {
      this.options.observer?.loaded(readBytes, secondsSince(started));
      return { kind: "loaded", engine, problems };
    };
    const scan = journal === null || journal.bytes.length === 0 ? undefined : scanJournal(journal.bytes);
    const { engine, problems, identity } = this.loadDocument(bytes, scan?.entries.some((entry) => entry.kind === "changes") ?? false);
    if (problems.length > 0 || identity === undefined) return loaded(engine, problems);
    const replayed = this.replay(engine, identity, scan, journal?.bytes.length ?? 0);
    if (replayed.problem !== undefined) return loaded(engine, [replayed.problem]);
    if (this.options.readOnly) {
      this.following = { engine, ino: journal?.ino, offset: replayed.consumed, seq: replayed.start.seq, records: replayed.start.records };
    } else {
      this.journal = new Journal(this.fs, this.journalFile, () => this.known?.mode, await this.openForAppend(replayed.start, replayed.torn ?? 0), this.options.blockingWrites);
    }
    return loaded(engine, []);
  }

  /**
   * The document's tables as an engine, with room to grow when a replay
   * follows (`growing`). Its own call so the parsed document — JSON.parse's
   * objects, much of them in the young generation — is garbage before the
   * replay allocates: held through it, a replay's scavenges copied ~13 MB of
   * them at 100k rows (two pauses of 12–21 ms) and promoted them.
   */
  private loadDocument(bytes: Buffer, growing: boolean): { engine: EngineApi; problems: readonly ProblemEntry[]; identity: string | undefined } {
    const read = readStore(bytes);
    if (read.tables === undefined) return { engine: this.engines.empty(), problems: read.problems, identity: undefined };
    const engine = this.engines.load(read.tables, { growing });
    return { engine, problems: [...read.problems, ...engine.problems], identity: read.identity };
  }

  /** The journal's bytes and inode (taken first: a journal replaced meanwhile shows as another inode), or null when there is none. */
  private async readJournal(): Promise<{ bytes: Buffer; ino: bigint } | null> {
    try {
      const info = await this.fs.stat(this.journalFile);
      if (info === null) return null;
      return { bytes: await this.fs.readFile(this.journalFile), ino: info.ino };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw readFailure(error, "database's journal");
    }
  }

  /**
   * Replays the journal that continues `document` (`scan`: its lines, read
   * from a file of `size` bytes; none when there is no journal) onto
   * `engine`; a problem when it is damaged or does not fit. `consumed`: the bytes a follower has
   * seen (a journal set aside counts as seen whole, so only a change to it
   * makes the follower look again).
   */
  private replay(engine: EngineApi, document: string, scan: JournalScan | undefined, size: number): { start: JournalStart; consumed: number; torn?: number; problem?: ProblemEntry } {
    const none: JournalStart = { document, seq: 0, handle: undefined, bytes: 0, capacity: 0, records: 0 };
    if (scan === undefined) return { start: none, consumed: 0 };
    if (scan.damage !== undefined) return { start: none, consumed: 0, problem: journalProblem(scan.damage) };
    const base = scan.header === undefined ? undefined : baseFor(scan, document);
    if (base === undefined) {
      this.options.onEvent?.({
        kind: "journal-discarded",
        database: this.database,
        reason: scan.header === undefined ? "it has no readable header" : "it continues another version of the document (replaced from outside)",
      });
      return { start: none, consumed: size };
    }
    const replay = scan.entries.filter((entry) => entry.seq > base);
    const problem = this.redo(engine, replay);
    if (problem !== undefined) return { start: none, consumed: 0, problem };
    const seq = scan.entries.length > 0 ? scan.entries[scan.entries.length - 1]!.seq : scan.header!.seq;
    const records = replay.filter((entry) => entry.kind === "changes").length;
    return { start: { document, seq, handle: undefined, bytes: scan.end, capacity: size, records }, consumed: scan.end, torn: scan.used - scan.end };
  }

  /**
   * Redoes the change records among `entries`; a problem when one does not
   * decode or fit. Each is decoded just before it is redone: ten thousand
   * records decoded at once would all live through a scavenge and be copied
   * to the old generation, where one at a time they die young.
   */
  private redo(engine: EngineApi, entries: readonly JournalEntry[]): ProblemEntry | undefined {
    for (const entry of entries) {
      if (entry.kind !== "changes") continue;
      let changes: Redo[];
      try {
        changes = decodeRecord(entry);
      } catch (error) {
        return journalProblem(`journal record ${entry.seq} does not decode: ${(error as Error).message}`);
      }
      try {
        engine.redo(changes);
      } catch (error) {
        return journalProblem(`journal record ${entry.seq} does not fit the document: ${(error as Error).message}`);
      }
    }
    return undefined;
  }

  /** A writer's journal, opened for appending, its torn tail (`torn` bytes after its good lines) cut away first. */
  private async openForAppend(start: JournalStart, torn: number): Promise<JournalStart> {
    if (start.bytes === 0) return start;
    let handle: JournalFile;
    try {
      handle = await this.fs.openJournal(this.journalFile, { create: false, blocking: this.options.blockingWrites });
    } catch (error) {
      throw readFailure(error, "database's journal");
    }
    if (torn === 0) return { ...start, handle };
    try {
      await handle.truncate(start.bytes);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw writeFailure(error, "The database's journal", "its torn last entry could not be cut away");
    }
    this.options.onEvent?.({ kind: "journal-cut", database: this.database, bytes: torn });
    return { ...start, handle, capacity: start.bytes };
  }

  changedElsewhere(): boolean | Promise<boolean> {
    if (this.unsettled) return false;
    if (this.known === undefined) return true;
    if (this.following !== undefined) return this.catchUp(this.following);
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
    const now = await this.current();
    return !sameFile(this.known, now) && !(this.renaming !== undefined && sameFile(this.renaming, now));
  }

  /**
   * A follower: the same document, and its journal grown — apply the new
   * records; anything else (a new document, a replaced or shortened
   * journal, damage) — reload.
   */
  private async catchUp(following: Following): Promise<boolean> {
    if (await this.differs()) return true;
    let info: FileInfo | null;
    try {
      info = await this.fs.stat(this.journalFile);
    } catch (error) {
      throw readFailure(error, "database's journal");
    }
    if (info?.ino !== following.ino) return true;
    if (info === null || info.size === following.offset) return false;
    if (info.size < following.offset) return true;
    // What follows: new lines, then zeros where the writer preallocated space. Read a window, a larger one
    // while it is all lines.
    let bytes: Buffer;
    try {
      for (let window = FOLLOW_WINDOW; ; window *= 4) {
        bytes = await this.fs.readFrom(this.journalFile, following.offset, window);
        if (bytes.length < window || bytes[bytes.length - 1] === 0) break;
      }
    } catch (error) {
      throw readFailure(error, "database's journal");
    }
    // A torn end is an append still under way: left for the next look.
    const scan = scanJournal(bytes, following.seq);
    if (scan.damage !== undefined || this.redo(following.engine, scan.entries) !== undefined) return true;
    following.offset += scan.end;
    if (scan.entries.length > 0) following.seq = scan.entries[scan.entries.length - 1]!.seq;
    following.records += scan.entries.filter((entry) => entry.kind === "changes").length;
    return false;
  }

  async commit(engine: EngineApi, changes: readonly Change[], created: boolean): Promise<void> {
    const started = performance.now();
    if (created) {
      await this.create(engine, changes);
      this.options.observer?.persisted(secondsSince(started));
      return;
    }
    const journal = this.journal;
    if (journal === undefined) throw new StoreError("internal_error", "No journal to commit to.");
    try {
      await journal.append(changes);
    } catch (error) {
      engine.undo(changes);
      throw error;
    }
    this.options.observer?.persisted(secondsSince(started));
    this.schedule.appended(journal.size.bytes, this.documentBytes);
    // A blocking append resolves without a turn of the event loop. Without one here, a caller awaiting
    // commit after commit would hold off everything else the process has to do: a running checkpoint's
    // slices and its writes' callbacks (4 s of back-to-back inserts let one checkpoint finish, not 18),
    // timers, other I/O.
    if (this.options.blockingWrites) await nextTurn();
  }

  /** The first commit of a database writes its document whole, and starts a journal that continues it. */
  private async create(engine: EngineApi, changes: readonly Change[]): Promise<void> {
    try {
      await this.takeLock();
    } catch (error) {
      engine.undo(changes);
      throw error;
    }
    await this.journal?.close();
    const mode = this.known?.mode;
    const bytes = this.writer.write(engine.snapshot());
    try {
      this.known = await writeAtomically(this.fs, this.target, bytes, mode);
      this.unsettled = false;
    } catch (error) {
      engine.undo(changes);
      if (error instanceof PersistFailure && error.afterRename) {
        try {
          await removeDurably(this.fs, this.target);
          this.known = null;
        } catch {
          this.unsettled = true;
        }
      }
      throw error;
    }
    this.documentBytes = bytes.length;
    this.journal = new Journal(
      this.fs,
      this.journalFile,
      () => this.known?.mode,
      {
        document: identityOfSealed(bytes),
        seq: 0,
        handle: undefined,
        bytes: 0,
        capacity: 0,
        records: 0,
      },
      this.options.blockingWrites,
    );
  }

  busy(): boolean {
    return this.running !== undefined;
  }

  footprint(): number {
    return this.known ? this.documentBytes + (this.journal?.size.bytes ?? 0) : 0;
  }

  journalSize(): JournalSize | undefined {
    if (this.journal !== undefined) return this.journal.size;
    if (this.following !== undefined) return { records: this.following.records, bytes: this.following.offset };
    return undefined;
  }

  checkpoint(): Promise<number> {
    if (this.options.readOnly) return Promise.reject(new StoreError("database_locked", "The database is open read-only: it cannot be checkpointed."));
    return this.fold();
  }

  /** A checkpoint that holds every change durable now: one under way may already do. */
  private async fold(): Promise<number> {
    const wanted = this.journal?.lastSeq ?? 0;
    for (let run = this.running; run !== undefined; run = this.running) {
      const folded = await run.done.catch(() => undefined);
      if (folded !== undefined && run.through !== undefined && run.through >= wanted) return folded;
      if (this.running === run) break;
    }
    return this.start();
  }

  /** A checkpoint in the background, unless one runs; a failure is reported and retried. */
  private background(): void {
    if (this.running !== undefined || this.closed) return;
    this.start().then(
      () => this.schedule.succeeded(),
      (error: unknown) => {
        if (error instanceof Aborted) return;
        this.options.onEvent?.({ kind: "checkpoint-failed", database: this.database, error });
        this.schedule.failed();
      },
    );
  }

  private start(): Promise<number> {
    const started = performance.now();
    const run: Run = { through: undefined, done: Promise.resolve(0) };
    const { observer } = this.options;
    run.done = this.run(run)
      .then(
        (records) => {
          if (records > 0) observer?.checkpointed(secondsSince(started));
          return records;
        },
        (error: unknown) => {
          if (!(error instanceof Aborted)) observer?.checkpointFailed();
          throw error;
        },
      )
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run.done;
  }

  /** Snapshot, document, marker, rename, reset: see the header. */
  private async run(run: Run): Promise<number> {
    const epoch = this.epoch;
    const journal = this.journal;
    if (journal === undefined || this.options.readOnly) return 0;
    const snapshot = await new Promise<{ tables: ReturnType<EngineApi["snapshot"]>; records: number } | undefined>((resolve) => {
      const host = this.host;
      if (host === undefined) return resolve(undefined);
      host.atQuietPoint((engine) => {
        const records = journal.size.records;
        if (engine === undefined || epoch !== this.epoch || records === 0) return resolve(undefined);
        run.through = journal.lastSeq;
        journal.keepTail();
        resolve({ tables: engine.snapshot(), records });
      });
    });
    if (snapshot === undefined) return 0;
    const through = run.through!;
    try {
      const fill = (file: WritableFile) => {
        const sink = { write: (data: Uint8Array, position: number) => file.write(data, position), busy: () => this.schedule.appendedWithin(BUSY_MS) };
        return writeInSlices(this.closing ? new StoreWriter(false) : this.writer, snapshot.tables, this.closing ? CLOSING : LIVE, sink);
      };
      const temp = await writeTemp(this.fs, this.target, fill, { mode: this.known?.mode, durableWrites: true }).catch((error: unknown) => {
        throw writeFailure(error, "The checkpoint", "the journal still holds every change");
      });
      const document = temp.filled;
      let placed = false;
      try {
        this.check(epoch);
        await journal.mark(document.identity, through);
        this.check(epoch);
        // An outside change to the document wins over this checkpoint.
        if (!sameFile(this.known, await this.current())) throw new Aborted();
        this.renaming = temp.info;
        try {
          await putInPlace(this.fs, temp, this.target);
          placed = true;
        } catch (error) {
          // Renamed but the directory fsync failed: the document may be either; the journal continues both.
          if (error instanceof PersistFailure && error.afterRename) {
            placed = true;
            this.known = temp.info;
            this.documentBytes = document.bytes;
          }
          throw writeFailure(error, "The checkpoint", "the journal still holds every change");
        } finally {
          this.renaming = undefined;
        }
        this.known = temp.info;
        this.documentBytes = document.bytes;
      } finally {
        if (!placed) await this.fs.unlink(temp.path).catch(() => undefined);
      }
      this.check(epoch);
      await journal.reset(document.identity, through, { spaceAhead: !this.closing }).catch((error: unknown) => {
        throw writeFailure(error, "The checkpoint's new journal", "the journal still holds every change");
      });
      return snapshot.records;
    } finally {
      journal.dropTail();
    }
  }

  private check(epoch: number): void {
    if (epoch !== this.epoch) throw new Aborted();
  }

  /** Stops a checkpoint under way at its next step (the epoch moved) and waits for it. */
  private async settleCheckpoint(): Promise<void> {
    await this.running?.done.catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closing = true;
    this.schedule.stop();
    if (this.journal !== undefined && this.journal.size.records > 0 && !this.options.readOnly) {
      try {
        await this.fold();
      } catch (error) {
        this.options.onEvent?.({ kind: "checkpoint-failed", database: this.database, error });
      }
    }
    this.closed = true;
    this.epoch += 1;
    await this.settleCheckpoint();
    await this.journal?.close();
    this.journal = undefined;
    await this.locking?.catch(() => undefined);
    await this.lock?.release();
    this.lock = undefined;
  }
}
