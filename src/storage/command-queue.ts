/**
 * The serial command queue of one database, with group commit.
 *
 * Commands run one at a time, in arrival order, on the in-memory engine, so
 * every history is serializable. Mutations that arrive while a commit is on
 * its way to disk wait; the next step applies all of them in order and makes
 * them durable with ONE commit, then answers each. Nothing is answered from
 * a state that is not yet durable: a command that changed nothing (a read, a
 * rejected mutation) but ran after an undurable mutation of its group is
 * answered only after that group's commit, and if the commit fails it runs
 * again on the restored state instead (its answer depended on changes that
 * never happened). Mutations of a failed commit answer the storage error.
 */

import type { Change } from "../catalog/types.js";
import type { Command } from "../commands/types.js";
import type { Result } from "../commands/results.js";

interface Pending {
  readonly command: Command;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * An answer held until its group is durable: the result, or (`failed`) the
 * error. Plain data rather than a closure per command: a group of many small
 * commands spends a good share of its time on per-command overhead.
 */
interface Held {
  readonly item: Pending;
  readonly mutated: boolean;
  readonly failed: boolean;
  readonly answer: unknown;
}

/** A group on its way to disk: its changes, and the answers held until they are durable. */
interface Group {
  readonly changes: Change[];
  readonly held: Held[];
}

/** What one command did when applied in memory. */
export type Applied = { readonly result: Result; readonly changes: readonly Change[] };

/** The database side of the queue: apply a command in memory, make a group durable. */
export interface QueueHost {
  /**
   * Brings the in-memory state up to date with disk before a step (load,
   * reload); `undefined` when there is nothing to do, so the step runs now.
   */
  prepare(): Promise<void> | undefined;
  /** Runs one command in memory. Throws for a rejected command, which then changed nothing. */
  apply(command: Command): Applied;
  /** Makes a group's changes durable; on failure, memory is back at the last durable state. */
  commit(changes: readonly Change[]): Promise<void>;
}

/**
 * Steps run synchronously until one has to wait (a load, a look for outside
 * changes, a commit), so a step costs no asynchronous hop it does not need,
 * and commands queued while a step waits run together in the next one.
 */
export class CommandQueue {
  private readonly queue: Pending[] = [];
  private running = false;
  private readonly idle: (() => void)[] = [];

  constructor(private readonly host: QueueHost) {}

  run(command: Command): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ command, resolve, reject });
      if (!this.running) {
        this.running = true;
        this.drain();
      }
    });
  }

  /** Resolves once every queued command has been answered. */
  drained(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Runs steps until the queue is empty; a step that waits resumes the drain when it is done. */
  private drain(): void {
    while (this.queue.length > 0) {
      const waiting = this.step();
      if (waiting !== undefined) {
        void waiting.then(() => this.drain());
        return;
      }
    }
    this.running = false;
    for (const wake of this.idle.splice(0)) wake();
  }

  private step(): Promise<void> | undefined {
    let preparing: Promise<void> | undefined;
    try {
      preparing = this.host.prepare();
    } catch (error) {
      this.rejectAll(error);
      return undefined;
    }
    if (preparing === undefined) return this.runGroup();
    return preparing.then(
      () => this.runGroup(),
      (error: unknown) => this.rejectAll(error),
    );
  }

  private rejectAll(error: unknown): void {
    for (const item of this.queue.splice(0)) item.reject(error);
  }

  /** Applies every queued command in order; the mutations among them go to disk as one commit. */
  private runGroup(): Promise<void> | undefined {
    const group: Group = { changes: [], held: [] };
    this.applyQueued(group);
    if (group.changes.length === 0) return undefined;
    // Mutations queued in this same turn (say, a Promise.all of inserts) join the group before it is written.
    return Promise.resolve().then(() => {
      this.applyQueued(group);
      return this.commit(group);
    });
  }

  private applyQueued(group: Group): void {
    const { changes, held } = group;
    for (const item of this.queue.splice(0)) {
      let applied: Applied;
      try {
        applied = this.host.apply(item.command);
      } catch (error) {
        if (changes.length === 0) item.reject(error);
        else held.push({ item, mutated: false, failed: true, answer: error });
        continue;
      }
      const { result } = applied;
      if (applied.changes.length > 0) {
        for (const change of applied.changes) changes.push(change);
        held.push({ item, mutated: true, failed: false, answer: result });
      } else if (changes.length === 0) {
        item.resolve(result);
      } else {
        held.push({ item, mutated: false, failed: false, answer: result });
      }
    }
  }

  private commit({ changes, held }: Group): Promise<void> {
    return this.host.commit(changes).then(
      () => {
        for (const { item, failed, answer } of held) {
          if (failed) item.reject(answer);
          else item.resolve(answer as Result);
        }
      },
      (error: unknown) => {
        const rerun: Pending[] = [];
        for (const entry of held) {
          if (entry.mutated) entry.item.reject(error);
          else rerun.push(entry.item);
        }
        this.queue.unshift(...rerun);
      },
    );
  }
}
