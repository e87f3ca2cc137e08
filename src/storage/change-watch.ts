/**
 * Notices when a file in the data directory may have been changed by someone
 * else, so a command need not stat its database's file to know it was not.
 *
 * CONTRACT §2: an edited or replaced `.store` file is seen by the next
 * command. Checking by `lstat` before every command batch cost ~10 µs of a
 * ~40 µs point select over HTTP here (syscalls are expensive in this VM; an
 * `fstat` of a held descriptor still cost ~6 µs). One directory watch
 * (inotify on Linux) costs nothing per command: each event bumps a version
 * for the file it names, and `SnapshotFilePersistence` stats its file only
 * when that version moved since its last check.
 *
 * Why a command that follows an edit still sees it: the kernel queues the
 * event during the editor's write or rename, before the client sends its
 * request, so the watch's descriptor is ready by the time the poll that reads
 * the request begins, and that poll delivers both — though not always in
 * that order (a keep-alive socket already on epoll's ready list comes
 * first). So a command reads the versions only in the check phase after the
 * poll it arrived in (`caughtUp`: one `setImmediate`, shared by every command
 * of that turn). A caller in this process that edits a file synchronously and
 * calls in before the event loop polls again is not covered (a second
 * `setImmediate` would cover it, at ~1–2 µs of a point select over HTTP);
 * `Database.open`, the library's way to a file, stats the file instead.
 *
 * What a watch can miss — an event queue overflow (inotify drops the events),
 * writes through a shared memory mapping, a network file system — is bounded
 * by a re-check of every file once per `RECHECK_MS`.
 */

import type { FileSystem } from "./fs.js";

/** Every file is checked at least this often, whatever the watch reported. */
export const RECHECK_MS = 1_000;

/** Names remembered individually; past this, everything is simply re-checked once. */
const MAX_NAMES = 4_096;

export class ChangeWatch {
  /** One increasing counter; a version is the last tick that concerned a name (or everything). */
  private tick = 0;
  private everything = 0;
  private readonly named = new Map<string, number>();
  private live = true;
  private catchingUp: Promise<void> | undefined;
  private readonly stop: () => void;

  private constructor(fs: FileSystem, dir: string, recheckMs: number) {
    let watcher: { close(): void } | undefined;
    try {
      watcher = fs.watch(dir, (name) => this.changed(name), () => this.fail());
    } catch {
      this.live = false; // no watch available (inotify limits, unsupported file system): stat every time
    }
    const timer = setInterval(() => (this.everything = ++this.tick), recheckMs);
    timer.unref();
    this.stop = () => {
      clearInterval(timer);
      watcher?.close();
    };
  }

  /** Watches `dir`; if the platform cannot, every `version` is `undefined` and callers stat. */
  static start(fs: FileSystem, dir: string, recheckMs = RECHECK_MS): ChangeWatch {
    return new ChangeWatch(fs, dir, recheckMs);
  }

  /** False when the watch could not start or broke: then every caller looks at its file. */
  get watching(): boolean {
    return this.live;
  }

  /**
   * Resolves once the events of the event loop's current (or next) poll have
   * all been delivered: in the check phase that follows it.
   */
  caughtUp(): Promise<void> {
    return (this.catchingUp ??= new Promise((resolve) =>
      setImmediate(() => {
        this.catchingUp = undefined;
        resolve();
      }),
    ));
  }

  /**
   * A number that differs from every earlier answer for `name` once the file
   * `name` in the directory may have changed since; `undefined` when the
   * watch cannot tell (the caller must look at the file).
   */
  version(name: string): number | undefined {
    if (!this.live) return undefined;
    const own = this.named.get(name) ?? 0;
    return own > this.everything ? own : this.everything;
  }

  close(): void {
    this.live = false;
    this.stop();
  }

  private changed(name: string | null): void {
    // Temp files, the lock file and other files are no database: their events change nothing.
    if (name !== null && !name.endsWith(".store")) return;
    if (name === null || this.named.size >= MAX_NAMES) {
      this.named.clear();
      this.everything = ++this.tick;
    } else {
      this.named.set(name, ++this.tick);
    }
  }

  private fail(): void {
    this.live = false;
  }
}
