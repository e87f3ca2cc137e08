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
 * A journal is never created in place: a fresh one (the first append after
 * a database was created or its journal found stale, and a checkpoint's
 * reset) is written to a temp file, renamed over the journal's name and the
 * directory fsynced, so the name always holds a whole header. A failed
 * append may have left part of its line; the next operation first cuts the
 * file back to its last good byte, so a good record never follows a broken
 * one. If the directory fsync after a rename fails, the next append syncs
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
  /** Its change records the document does not hold. */
  readonly records: number;
}

interface TailLine {
  readonly line: Buffer;
  readonly changes: boolean;
}

const concat = (lines: readonly TailLine[]) => Buffer.concat(lines.map((t) => t.line));

export class Journal {
  private chain: Promise<unknown> = Promise.resolve();
  private handle: JournalFile | undefined;
  private document: string;
  private seq: number;
  private bytes: number;
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
  ) {
    this.handle = start.handle;
    this.document = start.document;
    this.seq = start.seq;
    this.bytes = start.bytes;
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
   * called): its header, then the lines kept since. Nothing changes if it fails.
   */
  async reset(document: string, through: number): Promise<void> {
    const tail = this.tail;
    if (tail === undefined) throw new Error("reset without a kept tail");
    const temp = tempPathFor(this.file);
    const file = await this.fs.openJournal(temp, { create: true, mode: this.mode() });
    let renamed = false;
    try {
      // Markers at the front of the tail say nothing the new header does not: the header takes their place.
      let skipped = 0;
      let seq = through;
      while (skipped < tail.length && !tail[skipped]!.changes) seq = through + ++skipped;
      tail.splice(0, skipped);
      const header = headerLine(document, seq);
      const copied = tail.length;
      await file.append(Buffer.concat([header, concat(tail)]));
      await this.run(async () => {
        if (this.closed) throw new Error("the journal was closed");
        if (tail.length > copied) await file.append(concat(tail.slice(copied)));
        await this.fs.rename(temp, this.file);
        renamed = true;
        const old = this.handle;
        this.handle = file;
        this.document = document;
        this.bytes = header.length + tail.reduce((sum, t) => sum + t.line.length, 0);
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
      if (this.broken) {
        await this.handle.truncate(this.bytes);
        this.broken = false;
      }
      if (this.dirUnsynced) {
        await this.fs.fsyncDir(path.dirname(this.file));
        this.dirUnsynced = false;
      }
      this.broken = true;
      await this.handle.append(line);
      if (this.renameSyncing !== undefined) await this.renameSyncing;
      this.broken = false;
      this.bytes += line.length;
    } catch (error) {
      await this.cutBack();
      throw writeFailure(error, "The journal", "the change was not saved");
    }
  }

  /** After a failed write: cut what it may have left, now if the disk lets us, else before the next write. */
  private async cutBack(): Promise<void> {
    if (!this.broken || this.handle === undefined) return;
    try {
      await this.handle.truncate(this.bytes);
      this.broken = false;
    } catch {
      // Still broken: the next write tries again first, and fails while it cannot.
    }
  }

  /** A new journal, `line` its first entry after the header, in place of whatever the name held. */
  private async fresh(line: Buffer): Promise<void> {
    const temp = tempPathFor(this.file);
    const file = await this.fs.openJournal(temp, { create: true, mode: this.mode() });
    const header = headerLine(this.document, this.seq);
    try {
      await file.append(Buffer.concat([header, line]));
      await this.fs.rename(temp, this.file);
    } catch (error) {
      await file.close().catch(() => undefined);
      await this.fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    this.handle = file;
    this.records = 0;
    this.bytes = header.length;
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
