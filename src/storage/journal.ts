/**
 * The journal writer of one database: appends each commit group to
 * `<name>.store-journal` through one held descriptor, durable before the
 * append resolves (CONTRACT §2), and does a checkpoint's two journal steps —
 * the marker and the reset — in order with those appends.
 *
 * Every operation on the file runs on one chain, one after another, so a
 * record, a marker and a reset never interleave. Appends come one group at
 * a time (the command queue waits for each), and each is ONE write to a
 * descriptor opened O_DSYNC: one thread-pool trip, where write + fdatasync
 * take two.
 *
 * Space ahead of the entries is preallocated: zeros written (and made
 * durable) beyond the last entry, so an append overwrites space the file
 * already has instead of growing it. On this disk an O_DSYNC write that
 * leaves the file's size alone costs ~12% (200 B) to ~28% (6 KB) less than
 * one that grows it — what SQLite's WAL gets once it has wrapped. A journal
 * keeps none while it is small (a quiet database's journal stays plain
 * text); once it holds `PREALLOCATE_FROM` bytes, whenever less than half of
 * what it holds is left ahead, it is extended to twice its entries' size,
 * off the request path (an append that would reach past the space being
 * added waits for it). A reset preallocates the new journal as much as the
 * old one ended up holding, unless the database is closing: a closed
 * database's journal is no larger than its entries (after a 1,000,000-row
 * import it had kept 58 MB of zeros beside the document), and whoever opens
 * it next preallocates as it appends. Readers stop at the zeros
 * (`journal-format.ts`).
 *
 * A journal is never created in place: a fresh one (the first append after
 * a database was created or its journal found stale, and a checkpoint's
 * reset) is written to a temp file, renamed over the journal's name and the
 * directory fsynced, so the name always holds a whole header. A failed
 * append may have left part of its line; the next operation first cuts the
 * file back to its last good byte, so a good record never follows a broken
 * one (and the space ahead is given up, to be preallocated again). If the directory fsync after a rename fails, the next append syncs
 * the directory before it writes, so nothing is acknowledged from a journal
 * a crash could take back.
 *
 * A checkpoint (see `journaled-file.ts`) snapshots the engine at sequence
 * number k and asks the journal to keep the lines appended after k (`tail`).
 * Before the new document's rename it appends a marker naming the document
 * and k, so whichever document a crash leaves in place, this journal
 * continues it. After the rename, the reset writes a new journal — header
 * naming the new document and k, then the kept lines — outside the chain,
 * then on the chain adds the lines appended meanwhile and renames it over
 * the old one: appends wait only for that last write and the rename (the
 * directory fsync after it runs beside the next append).
 */

import path from "node:path";
import type { Change } from "../catalog/types.js";
import { writeFailure } from "./atomic-write.js";
import type { FileSystem, JournalFile } from "./fs.js";
import { headerLine, markerLine, recordLine } from "./journal-format.js";
import { tempPathFor } from "./temp-files.js";

/** Where a journal stands when a database is loaded or created. */
export interface JournalStart {
  /** The identity of the document on disk. */
  readonly document: string;
  /** The last sequence number in the journal (or the document's, when there is no journal). */
  readonly seq: number;
  /** An open journal that continues the document, appended to from here; undefined: the next append starts a fresh one. */
  readonly handle: JournalFile | undefined;
  /** Its length (good lines only). */
  readonly bytes: number;
  /** The file's length: zeros from `bytes` on (preallocated space). */
  readonly capacity: number;
  /** Its change records the document does not hold. */
  readonly records: number;
}

interface TailLine {
  readonly line: Buffer;
  readonly changes: boolean;
}

const concat = (lines: readonly TailLine[]) => Buffer.concat(lines.map((t) => t.line));

/** A journal smaller than this keeps no space ahead. */
const PREALLOCATE_FROM = 16 * 1024;
/** Preallocated space comes in multiples of this, and at most `MAX_STEP` at a time. */
const STEP = 64 * 1024;
const MAX_STEP = 16 * 1024 * 1024;

/** The file size to preallocate a journal of `bytes` to: twice that, in whole steps. */
function capacityFor(bytes: number): number {
  return Math.ceil(Math.min(2 * bytes, bytes + MAX_STEP) / STEP) * STEP;
}

export class Journal {
  private chain: Promise<unknown> = Promise.resolve();
  private handle: JournalFile | undefined;
  private document: string;
  private seq: number;
  private bytes: number;
  /** The file's length: zeros from `bytes` on. */
  private capacity: number;
  /** Zeros being written at the end of the file, while they are. */
  private extending: Promise<void> | undefined;
  private records: number;
  /** A failed append may have left part of a line after `bytes`: cut before the next. */
  private broken = false;
  /** A rename of the journal whose directory fsync failed: sync before the next append. */
  private dirUnsynced = false;
  /** The directory fsync after a reset's rename, while it runs. */
  private renameSyncing: Promise<void> | undefined;
  /** Lines appended since a checkpoint's snapshot, while one runs. */
  private tail: TailLine[] | undefined;
  private closed = false;

  constructor(
    private readonly fs: FileSystem,
    readonly file: string,
    /** The permission bits a new journal gets: the document's. */
    private readonly mode: () => number | undefined,
    start: JournalStart,
    /** Appends on the calling thread (`FileSystem.openJournal`); `start.handle` was opened so already. */
    private readonly blocking = false,
  ) {
    this.handle = start.handle;
    this.document = start.document;
    this.seq = start.seq;
    this.bytes = start.bytes;
    this.capacity = start.capacity;
    this.records = start.records;
  }

  /** The last sequence number written. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Change records not yet in the document, and the journal's length in bytes. */
  get size(): { readonly records: number; readonly bytes: number } {
    return { records: this.records, bytes: this.bytes };
  }

  /** Appends one commit group; resolves once it is durable. Changes must not change until then. */
  append(changes: readonly Change[]): Promise<void> {
    return this.run(async () => {
      const line = recordLine(this.seq + 1, changes);
      await this.write(line);
      this.seq += 1;
      this.records += 1;
      this.tail?.push({ line, changes: true });
    });
  }

  /** Appends a checkpoint marker: `document` holds every record up to `through`. */
  mark(document: string, through: number): Promise<void> {
    return this.run(async () => {
      const line = markerLine(this.seq + 1, document, through);
      await this.write(line);
      this.seq += 1;
      this.tail?.push({ line, changes: false });
    });
  }

  /** Starts keeping the lines appended from now on (a checkpoint's snapshot was just taken at `lastSeq`). */
  keepTail(): void {
    this.tail = [];
  }

  /** Stops keeping them (the checkpoint ended). */
  dropTail(): void {
    this.tail = undefined;
  }

  /**
   * Replaces the journal with one that continues `document`, which holds
   * every record up to `through` (the sequence number when `keepTail` was
   * called): its header, then the lines kept since, with space ahead unless
   * `spaceAhead` is false. Nothing changes if it fails.
   */
  async reset(document: string, through: number, { spaceAhead = true } = {}): Promise<void> {
    const tail = this.tail;
    if (tail === undefined) throw new Error("reset without a kept tail");
    const temp = tempPathFor(this.file);
    const file = await this.fs.openJournal(temp, { create: true, mode: this.mode(), blocking: this.blocking });
    let renamed = false;
    try {
      // Markers at the front of the tail say nothing the new header does not: the header takes their place.
      let skipped = 0;
      let seq = through;
      while (skipped < tail.length && !tail[skipped]!.changes) seq = through + ++skipped;
      tail.splice(0, skipped);
      const header = headerLine(document, seq);
      const copied = tail.length;
      const start = Buffer.concat([header, concat(tail)]);
      await file.append(start, 0);
      // As much space ahead as the old journal came to hold (its size is what the next one will likely reach).
      const capacity = spaceAhead && this.bytes >= PREALLOCATE_FROM ? Math.max(capacityFor(start.length), Math.ceil(this.bytes / STEP) * STEP) : start.length;
      if (capacity > start.length) await file.preallocate(start.length, capacity - start.length);
      await this.run(async () => {
        if (this.closed) throw new Error("the journal was closed");
        const meanwhile = concat(tail.slice(copied));
        if (meanwhile.length > 0) await file.append(meanwhile, start.length);
        await this.fs.rename(temp, this.file);
        renamed = true;
        const old = this.handle;
        this.handle = file;
        this.document = document;
        this.bytes = start.length + meanwhile.length;
        this.capacity = Math.max(capacity, this.bytes);
        this.records = tail.filter((t) => t.changes).length;
        this.broken = false;
        await old?.close().catch(() => undefined);
        // The directory fsync runs beside the next append, which is answered only once both are done: if
        // the fsync fails, the old journal (which continues the new document too, through its marker) may
        // be what a crash leaves, so that append fails and is cut, and the next one syncs the directory first.
        const syncing = this.fs.fsyncDir(path.dirname(this.file));
        this.renameSyncing = syncing;
        syncing.then(
          () => {
            if (this.renameSyncing === syncing) this.renameSyncing = undefined;
          },
          () => {
            if (this.renameSyncing === syncing) this.renameSyncing = undefined;
            this.dirUnsynced = true;
          },
        );
      });
    } finally {
      if (!renamed) {
        await file.close().catch(() => undefined);
        await this.fs.unlink(temp).catch(() => undefined);
      }
    }
  }

  /** Waits for every operation, then lets go of the file. */
  async close(): Promise<void> {
    await this.run(async () => {
      this.closed = true;
      await this.extending;
      const handle = this.handle;
      this.handle = undefined;
      await handle?.close();
    }).catch(() => undefined);
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** One line onto the end of the journal, durably, or onto a fresh journal when there is none. */
  private async write(line: Buffer): Promise<void> {
    if (this.closed) throw new Error("the journal was closed");
    try {
      if (this.handle === undefined) return await this.fresh(line);
      if (this.broken) await this.cut(this.handle);
      if (this.dirUnsynced) {
        await this.fs.fsyncDir(path.dirname(this.file));
        this.dirUnsynced = false;
      }
      // Zeros still being written where this line goes would land over it.
      if (this.bytes + line.length > this.capacity) await this.extending;
      this.broken = true;
      await this.handle.append(line, this.bytes);
      if (this.renameSyncing !== undefined) await this.renameSyncing;
      this.broken = false;
      this.bytes += line.length;
      this.capacity = Math.max(this.capacity, this.bytes);
      this.extendIfLow();
    } catch (error) {
      await this.cutBack();
      throw writeFailure(error, "The journal", "the change was not saved");
    }
  }

  /** After a failed write: cut what it may have left, now if the disk lets us, else before the next write. */
  private async cutBack(): Promise<void> {
    if (!this.broken || this.handle === undefined) return;
    try {
      await this.cut(this.handle);
    } catch {
      // Still broken: the next write tries again first, and fails while it cannot.
    }
  }

  /** Cuts the file back to its good lines, space ahead included (preallocated again later). */
  private async cut(handle: JournalFile): Promise<void> {
    await this.extending;
    await handle.truncate(this.bytes);
    this.capacity = this.bytes;
    this.broken = false;
  }

  /** Preallocates more space ahead, off the request path, when what is left is less than half the entries. */
  private extendIfLow(): void {
    const handle = this.handle;
    if (handle === undefined || this.extending !== undefined || this.bytes < PREALLOCATE_FROM || this.capacity - this.bytes >= this.bytes / 2) return;
    const from = this.capacity;
    const to = capacityFor(this.bytes);
    // A failure leaves the space as it was: later appends grow the file, and the next one tries again.
    const extending = handle.preallocate(from, to - from).then(
      () => {
        if (this.handle === handle && this.capacity === from) this.capacity = to;
      },
      () => undefined,
    );
    this.extending = extending;
    void extending.finally(() => {
      if (this.extending === extending) this.extending = undefined;
    });
  }

  /** A new journal, `line` its first entry after the header, in place of whatever the name held. */
  private async fresh(line: Buffer): Promise<void> {
    const temp = tempPathFor(this.file);
    const file = await this.fs.openJournal(temp, { create: true, mode: this.mode(), blocking: this.blocking });
    const header = headerLine(this.document, this.seq);
    try {
      await file.append(Buffer.concat([header, line]), 0);
      await this.fs.rename(temp, this.file);
    } catch (error) {
      await file.close().catch(() => undefined);
      await this.fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    this.handle = file;
    this.records = 0;
    this.bytes = header.length;
    this.capacity = header.length + line.length;
    try {
      await this.fs.fsyncDir(path.dirname(this.file));
    } catch (error) {
      // The new journal may not survive a crash, so its record must not count: cut it before the next append.
      this.broken = true;
      this.dirUnsynced = true;
      throw error;
    }
    this.bytes += line.length;
  }
}
