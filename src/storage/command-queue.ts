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

/** What one command did when applied in memory. */
export type Applied = { readonly result: Result; readonly changes: readonly Change[] };

/** The database side of the queue: apply a command in memory, make a group durable. */
export interface QueueHost {
  /** Brings the in-memory state up to date with disk before a step (load, reload). */
  prepare(): Promise<void>;
  /** Runs one command in memory. Throws for a rejected command, which then changed nothing. */
  apply(command: Command): Applied;
  /** Makes a group's changes durable; on failure, memory is back at the last durable state. */
  commit(changes: readonly Change[]): Promise<void>;
}

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
        void this.drain();
      }
    });
  }

  /** Resolves once every queued command has been answered. */
  drained(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.step();
    this.running = false;
    for (const wake of this.idle.splice(0)) wake();
  }

  private async step(): Promise<void> {
    try {
      await this.host.prepare();
    } catch (error) {
      for (const item of this.queue.splice(0)) item.reject(error);
      return;
    }
    const group = this.queue.splice(0);
    const changes: Change[] = [];
    /** Answers held until the group is durable: mutations, and what ran after one. */
    const held: { item: Pending; settle: () => void; mutated: boolean }[] = [];
    for (const item of group) {
      let applied: Applied;
      try {
        applied = this.host.apply(item.command);
      } catch (error) {
        if (changes.length === 0) item.reject(error);
        else held.push({ item, settle: () => item.reject(error), mutated: false });
        continue;
      }
      const { result } = applied;
      if (applied.changes.length > 0) {
        for (const change of applied.changes) changes.push(change);
        held.push({ item, settle: () => item.resolve(result), mutated: true });
      } else if (changes.length === 0) {
        item.resolve(result);
      } else {
        held.push({ item, settle: () => item.resolve(result), mutated: false });
      }
    }
    if (changes.length === 0) return;
    try {
      await this.host.commit(changes);
    } catch (error) {
      const rerun: Pending[] = [];
      for (const entry of held) {
        if (entry.mutated) entry.item.reject(error);
        else rerun.push(entry.item);
      }
      this.queue.unshift(...rerun);
      return;
    }
    for (const entry of held) entry.settle();
  }
}
