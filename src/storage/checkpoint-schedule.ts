/**
 * When a database's journal is folded into its document (CONTRACT §2): once
 * the journal outgrows a share of the document (with a floor, so a small
 * database is not rewritten every few writes), after a short idle time (so
 * a quiet database's `.store` file soon holds everything again), and again
 * after a failed attempt, with a growing delay. Graceful shutdown and the
 * `checkpoint` command ask directly; this only says when to ask unbidden.
 *
 * It owns timers only (unref'd: a schedule never keeps a process alive)
 * and calls `start` to run a checkpoint; whoever owns the journal decides
 * whether one is already running.
 */

export interface CheckpointPolicy {
  /** A journal of fewer bytes than this never triggers a checkpoint by size. Default 1 MiB. */
  readonly journalBytes?: number;
  /** A journal this large relative to the document (bytes) triggers one. Default 0.25. */
  readonly journalShare?: number;
  /** With records in the journal and no append for this long, checkpoint. Default 1000 ms. */
  readonly idleMs?: number;
  /** The first retry after a failure waits this long, doubling to `retryMaxMs`. Defaults 1000 / 60000 ms. */
  readonly retryMs?: number;
  readonly retryMaxMs?: number;
}

const DEFAULTS: Required<CheckpointPolicy> = { journalBytes: 1 << 20, journalShare: 0.25, idleMs: 1_000, retryMs: 1_000, retryMaxMs: 60_000 };

export class CheckpointSchedule {
  private readonly policy: Required<CheckpointPolicy>;
  private idle: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  /** When the last append was (performance.now()); -Infinity before any. */
  private lastAppend = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    policy: CheckpointPolicy | undefined,
    /** Runs a checkpoint in the background. */
    private readonly start: () => void,
  ) {
    this.policy = { ...DEFAULTS, ...policy };
  }

  /** After an append: checkpoint now if the journal is large, else once it has been idle long enough. */
  appended(journalBytes: number, documentBytes: number): void {
    if (this.stopped) return;
    this.lastAppend = performance.now();
    if (journalBytes >= Math.max(this.policy.journalBytes, this.policy.journalShare * documentBytes)) {
      this.start();
      return;
    }
    // The timer is armed once and, when it fires early, re-armed for what is left: refreshing it on
    // every append re-queued it in the timer list, ~7% of a single-row insert's CPU (profiled).
    if (this.idle === undefined) this.armIdle(this.policy.idleMs);
  }

  /** Whether an append came within the last `ms` milliseconds (a checkpoint then writes in small chunks: appends wait behind each). */
  appendedWithin(ms: number): boolean {
    return performance.now() - this.lastAppend < ms;
  }

  private armIdle(ms: number): void {
    this.idle = setTimeout(() => this.fireIdle(), ms);
    this.idle.unref();
  }

  /** A checkpoint finished: no retry pending, failures forgotten. */
  succeeded(): void {
    this.failures = 0;
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  /** A checkpoint failed: try again later, each time waiting longer. */
  failed(): void {
    if (this.stopped || this.retry !== undefined) return;
    const delay = Math.min(this.policy.retryMs * 2 ** this.failures, this.policy.retryMaxMs);
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start();
    }, delay);
    this.retry.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.idle);
    clearTimeout(this.retry);
  }

  private fireIdle(): void {
    this.idle = undefined;
    if (this.stopped) return;
    const quiet = performance.now() - this.lastAppend;
    if (quiet < this.policy.idleMs) this.armIdle(this.policy.idleMs - quiet);
    else this.start();
  }
}
