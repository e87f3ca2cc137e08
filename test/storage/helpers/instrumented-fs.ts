/**
 * A `FileSystem` over the real one that tests can watch and break.
 *
 * - `log` records every call in order ("write .t.store.tmp-1-2", "rename
 *   .t.store.tmp-1-2 t.store", "fsyncDir", ...), and tests append their own
 *   marks ("answer") to see what happened before a promise resolved.
 * - `inject(op, code)` makes the next matching call fail with that errno.
 * - `hold(op)` makes the next matching call wait until released (a slow disk).
 * - Power loss: it keeps its own model of what is durable in the directory —
 *   a file's content once fsynced (a journal's once its append or truncate
 *   resolved, a file created with `durableWrites` once its write resolved:
 *   the real ones are opened O_DSYNC), a directory's entries once
 *   the directory is fsynced — and `crash()` rewrites the real directory to exactly that,
 *   dropping everything not yet fsynced (SIGKILL cannot show this: the page
 *   cache survives a killed process). `cutPower(op, "after")` lets that
 *   call finish and fails every later one, as if the machine stopped there;
 *   `"before"` fails that call too; `"torn"` (an append) lets the first half
 *   of its bytes reach the disk, then stops.
 */

import { promises as fsp } from "node:fs";
import path from "node:path";
import type { FileInfo, FileSystem, JournalFile, WritableFile } from "../../../src/storage/fs.js";
import { nodeFs } from "../../../src/storage/fs.js";

export type Op =
  | "create"
  | "write"
  | "chmod"
  | "fsync"
  | "fstat"
  | "close"
  | "openJournal"
  | "append"
  | "preallocate"
  | "truncate"
  | "rename"
  | "fsyncDir"
  | "unlink"
  | "link"
  | "stat"
  | "lstat"
  | "realpath"
  | "readFile"
  | "readFrom"
  | "readdir"
  | "mkdir";

interface Fault {
  readonly op: Op;
  readonly code: string;
  readonly match: (name: string) => boolean;
  /** An append that fails having written the first half of its bytes. */
  readonly partial: boolean;
}

function errno(code: string, op: string): NodeJS.ErrnoException {
  const error = new Error(`${code}: injected failure in ${op}`) as NodeJS.ErrnoException;
  error.code = code;
  return error;
}

/** A file's content after `data` was written at `position` (after its end when undefined). */
function placed(before: Buffer | undefined, data: Uint8Array, position: number | undefined): Buffer {
  const content = before ?? Buffer.alloc(0);
  const at = position ?? content.length;
  const after = Buffer.alloc(Math.max(content.length, at + data.length));
  content.copy(after);
  after.set(data, at);
  return after;
}

export class InstrumentedFs implements FileSystem {
  readonly log: string[] = [];
  /** Every write to a created file: its name, where and how many bytes. */
  readonly writes: { readonly name: string; readonly position: number | undefined; readonly bytes: number }[] = [];
  private faults: Fault[] = [];
  private holds: { op: Op; match: (name: string) => boolean; until: Promise<void>; arrive: () => void }[] = [];
  private cut: { op: Op; when: "before" | "after" | "torn"; match: (name: string) => boolean; nth: number } | undefined;
  private dead = false;
  private nextId = 0;
  /** name → file id, as the directory is now / as it would be after a power loss. */
  private volatile = new Map<string, number>();
  private durable = new Map<string, number>();
  private written = new Map<number, Buffer>();
  private synced = new Map<number, Buffer>();
  /** Real files opened and not closed yet: a crash closes them, as the end of a process does. */
  private open = new Set<Pick<WritableFile, "close">>();

  private constructor(readonly dir: string) {}

  /** Watches `dir` (all of its files count as durable now). */
  static async over(dir: string): Promise<InstrumentedFs> {
    const fs = new InstrumentedFs(dir);
    await fs.adoptDisk();
    return fs;
  }

  private async adoptDisk(): Promise<void> {
    this.volatile.clear();
    this.written.clear();
    this.synced.clear();
    for (const name of await fsp.readdir(this.dir)) {
      const stat = await fsp.lstat(path.join(this.dir, name));
      if (!stat.isFile()) continue;
      const id = this.nextId++;
      const content = await fsp.readFile(path.join(this.dir, name));
      this.volatile.set(name, id);
      this.written.set(id, content);
      this.synced.set(id, content);
    }
    this.durable = new Map(this.volatile);
  }

  /**
   * The next call of `op` (on a path whose base name passes `match`) fails
   * with `code`; with `partial` (an append), after writing half its bytes.
   */
  inject(op: Op, code: string, match: (name: string) => boolean = () => true, partial = false): void {
    this.faults.push({ op, code, match, partial });
  }

  /** Forgets faults injected but not yet hit. */
  clearFaults(): void {
    this.faults = [];
  }

  /** The next call of `op` waits until the returned function is called. */
  hold(op: Op, match: (name: string) => boolean = () => true): () => void {
    return this.pause(op, match).release;
  }

  /** `hold`, also saying when the call arrived and is waiting (`reached`). */
  pause(op: Op, match: (name: string) => boolean = () => true): { readonly reached: Promise<void>; readonly release: () => void } {
    let release!: () => void;
    let arrive!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    this.holds.push({ op, match, until, arrive });
    return { reached, release };
  }

  /** The power goes out at the `nth` next call of `op` (on a name `match` accepts): see the header. */
  cutPower(op: Op, when: "before" | "after" | "torn", match: (name: string) => boolean = () => true, nth = 1): void {
    this.cut = { op, when, match, nth };
  }

  /** True once the power went out (until `crash`). */
  get powerCut(): boolean {
    return this.dead;
  }

  /** `torn` when this call is to write part of its bytes and fail with that code. */
  private async call(op: Op, target: string, extra = ""): Promise<{ torn: string } | undefined> {
    const name = path.basename(target);
    if (this.dead) {
      this.log.push(`${op} ${name} NO POWER`);
      throw errno("EIO", op);
    }
    const cut = this.cut;
    if (cut !== undefined && cut.op === op && cut.match(name) && --cut.nth === 0) {
      this.cut = undefined;
      this.dead = true;
      if (cut.when === "before") {
        this.log.push(`${op} ${name} NO POWER`);
        throw errno("EIO", op);
      }
      if (cut.when === "torn") {
        this.log.push(`${op} ${name} TORN`);
        return { torn: "EIO" };
      }
    }
    const held = this.holds.findIndex((h) => h.op === op && h.match(name));
    if (held !== -1) {
      const { until, arrive } = this.holds[held]!;
      this.holds.splice(held, 1);
      arrive();
      await until;
    }
    const fault = this.faults.findIndex((f) => f.op === op && f.match(name));
    if (fault !== -1) {
      const { code, partial } = this.faults[fault]!;
      this.faults.splice(fault, 1);
      this.log.push(`${op} ${name} FAILED ${code}${partial ? " PARTIAL" : ""}`);
      if (partial && op === "append") return { torn: code };
      throw errno(code, op);
    }
    this.log.push(extra ? `${op} ${name} ${extra}` : `${op} ${name}`);
    return undefined;
  }

  private inDir(target: string): boolean {
    return path.dirname(target) === this.dir;
  }

  /** Drops everything not fsynced: the directory becomes what a power loss would leave. */
  async crash(): Promise<void> {
    for (const name of await fsp.readdir(this.dir)) {
      if (!this.durable.has(name)) await fsp.rm(path.join(this.dir, name), { force: true, recursive: true });
    }
    for (const [name, id] of this.durable) {
      await fsp.writeFile(path.join(this.dir, name), this.synced.get(id) ?? Buffer.alloc(0));
    }
    // The crashed process's descriptors go with it (the database that held them is never closed).
    for (const real of this.open) await real.close().catch(() => undefined);
    this.open.clear();
    this.log.push("CRASH");
    this.dead = false;
    await this.adoptDisk();
  }

  async createExclusive(target: string, mode?: number, options?: { readonly durableWrites?: boolean }): Promise<WritableFile> {
    await this.call("create", target);
    const real = await nodeFs.createExclusive(target, mode, options);
    const id = this.nextId++;
    if (this.inDir(target)) {
      this.volatile.set(path.basename(target), id);
      this.written.set(id, Buffer.alloc(0));
    }
    const name = path.basename(target);
    const self = this;
    return {
      async write(data, position) {
        await self.call("write", name);
        self.writes.push({ name, position, bytes: data.length });
        await real.write(data, position);
        const after = placed(self.written.get(id), data, position);
        self.written.set(id, after);
        // Written O_DSYNC, it is on disk as soon as the write returns.
        if (options?.durableWrites) self.synced.set(id, after);
      },
      async chmod(m) {
        await self.call("chmod", name);
        await real.chmod(m);
      },
      async fsync() {
        await self.call("fsync", name);
        await real.fsync();
        self.synced.set(id, self.written.get(id) ?? Buffer.alloc(0));
      },
      ...this.statAndClose(name, real),
    };
  }

  /** `stat` and `close` of an open file, logged. */
  private statAndClose(name: string, real: Pick<WritableFile, "stat" | "close">): Pick<WritableFile, "stat" | "close"> {
    this.open.add(real);
    return {
      stat: async () => {
        await this.call("fstat", name);
        return real.stat();
      },
      // Like close(2) on Linux, the descriptor is released even when close reports an error
      // (an injected fault, or no power), so simulated failures leak no real handles.
      close: async () => {
        try {
          await this.call("close", name);
        } finally {
          this.open.delete(real);
          await real.close();
        }
      },
    };
  }

  async openJournal(target: string, options: { readonly create: boolean; readonly mode?: number; readonly blocking?: boolean }): Promise<JournalFile> {
    await this.call("openJournal", target, options.create ? "create" : "");
    const real = await nodeFs.openJournal(target, options);
    const name = path.basename(target);
    let id = this.volatile.get(name);
    if (options.create || id === undefined) {
      id = this.nextId++;
      if (this.inDir(target)) this.volatile.set(name, id);
      this.written.set(id, Buffer.alloc(0));
    }
    const file = id;
    const self = this;
    return {
      async append(data, at) {
        const torn = await self.call("append", name);
        const reached = torn === undefined ? data : data.subarray(0, data.length >> 1);
        await real.append(reached, at);
        const content = placed(self.written.get(file), reached, at);
        self.written.set(file, content);
        self.synced.set(file, content);
        if (torn !== undefined) throw errno(torn.torn, "append");
      },
      async preallocate(from, length) {
        await self.call("preallocate", name, String(length));
        await real.preallocate(from, length);
        const content = placed(self.written.get(file), Buffer.alloc(length), from);
        self.written.set(file, content);
        self.synced.set(file, content);
      },
      async truncate(length) {
        await self.call("truncate", name, String(length));
        await real.truncate(length);
        const content = (self.written.get(file) ?? Buffer.alloc(0)).subarray(0, length);
        self.written.set(file, content);
        self.synced.set(file, content);
      },
      ...this.statAndClose(name, real),
    };
  }

  async rename(from: string, to: string): Promise<void> {
    await this.call("rename", from, path.basename(to));
    await nodeFs.rename(from, to);
    const id = this.volatile.get(path.basename(from));
    this.volatile.delete(path.basename(from));
    if (id !== undefined && this.inDir(to)) this.volatile.set(path.basename(to), id);
  }

  async fsyncDir(dir: string): Promise<void> {
    await this.call("fsyncDir", dir);
    await nodeFs.fsyncDir(dir);
    if (dir === this.dir) this.durable = new Map(this.volatile);
  }

  async unlink(target: string): Promise<void> {
    await this.call("unlink", target);
    await nodeFs.unlink(target);
    this.volatile.delete(path.basename(target));
  }

  async link(from: string, to: string): Promise<void> {
    await this.call("link", from, path.basename(to));
    await nodeFs.link(from, to);
    const id = this.volatile.get(path.basename(from));
    if (id !== undefined) this.volatile.set(path.basename(to), id);
  }

  async stat(target: string): Promise<FileInfo | null> {
    await this.call("stat", target);
    return nodeFs.stat(target);
  }

  async lstat(target: string): Promise<FileInfo | null> {
    await this.call("lstat", target);
    return nodeFs.lstat(target);
  }

  async realpath(target: string): Promise<string> {
    await this.call("realpath", target);
    return nodeFs.realpath(target);
  }

  async readFile(target: string): Promise<Buffer> {
    await this.call("readFile", target);
    return nodeFs.readFile(target);
  }

  async readFrom(target: string, offset: number, length?: number): Promise<Buffer> {
    await this.call("readFrom", target, String(offset));
    return nodeFs.readFrom(target, offset, length);
  }

  async readdir(dir: string): Promise<string[]> {
    await this.call("readdir", dir);
    return nodeFs.readdir(dir);
  }

  async mkdir(dir: string): Promise<void> {
    await this.call("mkdir", dir);
    await nodeFs.mkdir(dir);
  }

  // Watching reads nothing and writes nothing: it is not logged and cannot fail on demand.
  watch(dir: string, onChange: (name: string | null) => void, onError: () => void): { close(): void } {
    return nodeFs.watch(dir, onChange, onError);
  }
}
