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
 *
 * A hold (the library's `db.transaction`) takes its turn in the same line:
 * once the commands before it are answered and durable, its holder gets a
 * `Lease` — the database to itself, one command at a time — and everything
 * queued after it waits until the lease ends, when the changes made under it
 * are committed as one group or undone.
 */

import type { Change } from "../catalog/types.js";
import type { Command } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { StoreError } from "../errors.js";

interface Pending {
  readonly command: Command;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

/** A holder waiting for the database to itself. */
interface Hold {
  readonly grant: (lease: Lease) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The database held by one holder: commands run at once, in memory; `end`
 * makes the changes they reported durable as one group (`keep`) or undoes
 * them, and lets the queue go on. A commit that fails rejects `end` after
 * memory is back at the last durable state.
 */
export interface Lease {
  apply(command: Command): Applied;
  end(changes: readonly Change[], keep: boolean): Promise<void>;
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
  /** Undoes changes applied under a lease that is given up. */
  rollback(changes: readonly Change[]): void;
}

/**
 * Steps run synchronously until one has to wait (a load, a look for outside
 * changes, a commit), so a step costs no asynchronous hop it does not need,
 * and commands queued while a step waits run together in the next one.
 */
export class CommandQueue {
  private readonly queue: (Pending | Hold)[] = [];
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

  /** The database to the caller alone, once every command queued before is answered and durable (see `Lease`). */
  hold(): Promise<Lease> {
    return new Promise<Lease>((grant, reject) => {
      this.queue.push({ grant, reject });
      if (!this.running) {
        this.running = true;
        this.drain();
      }
    });
  }

  /** A command is queued or running (a step may be waiting for a load or a commit). */
  get busy(): boolean {
    return this.running;
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
    if (preparing === undefined) return this.next();
    return preparing.then(
      () => this.next(),
      (error: unknown) => this.rejectAll(error),
    );
  }

  /** A hold at the head of the line is granted; otherwise the commands up to the next hold run as one group. */
  private next(): Promise<void> | undefined {
    const head = this.queue[0];
    if (head !== undefined && "grant" in head) {
      this.queue.shift();
      return this.lease(head);
    }
    return this.runGroup();
  }

  /** Grants `hold` its lease; resolves when the lease has ended (committed or undone). */
  private lease(hold: Hold): Promise<void> {
    return new Promise<void>((done) => {
      let ended = false;
      hold.grant({
        apply: (command) => {
          if (ended) throw new StoreError("invalid_request", "The transaction is over: it took no more commands.");
          return this.host.apply(command);
        },
        end: (changes, keep) => {
          if (ended) return Promise.resolve();
          ended = true;
          let ending: Promise<void>;
          if (changes.length === 0) ending = Promise.resolve();
          else if (keep) ending = this.host.commit(changes);
          else {
            try {
              this.host.rollback(changes);
              ending = Promise.resolve();
            } catch (error) {
              ending = Promise.reject(error);
            }
          }
          return ending.finally(done);
        },
      });
    });
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

  /** Applies the commands at the head of the line, up to a hold (which waits for this group to be durable). */
  private applyQueued(group: Group): void {
    const { changes, held } = group;
    let end = this.queue.findIndex((item) => "grant" in item);
    if (end === -1) end = this.queue.length;
    for (const item of this.queue.splice(0, end) as Pending[]) {
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
