/**
 * The library's transaction: `db.transaction(async (tx) => …)` (CONTRACT
 * §11). `tx` is a `Queryable` over a database held for the callback alone
 * (a `Lease` of its command queue): its commands run at once, in memory,
 * each seeing the ones before it, and their changes are collected. When the
 * callback resolves they are made durable as one journal record, all or
 * nothing; when it throws, or outlives its timeout, they are undone and
 * nothing of them was ever visible to anyone else.
 *
 * Other callers of the same database wait meanwhile in its queue, as behind
 * any command, and run after the transaction ends. A call on the database
 * itself from inside the callback would wait for the callback — a deadlock
 * — so it is refused at once (an `AsyncLocalStorage` marks the callback's
 * asynchronous context).
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "./api/queryable.js";
import type { DerivedInput } from "./api/expressions.js";
import { TableQuery } from "./api/table-query.js";
import type { Change } from "./catalog/types.js";
import { checkThen } from "./checked.js";
import type { Result } from "./commands/results.js";
import type { Command, Value } from "./commands/types.js";
import { StoreError } from "./errors.js";
import type { Lease } from "./storage/command-queue.js";

export interface TransactionOptions {
  /**
   * How long the callback may hold the database, in milliseconds (default
   * 5,000; `Infinity` for no limit). Past it the transaction is undone, the
   * database is let go, and `transaction()` rejects.
   */
  readonly timeoutMs?: number;
}

export const DEFAULT_TRANSACTION_TIMEOUT_MS = 5000;

/** The commands of one transaction, on its held database. */
export class Transaction implements Queryable {
  readonly #lease: Lease;
  readonly #changes: Change[] = [];
  #over = false;

  /** Made by `Database.transaction`. */
  constructor(lease: Lease) {
    this.#lease = lease;
  }

  execute(command: unknown): Promise<Result> {
    return checkThen(command, (checked) => this.#run(checked));
  }

  sql(text: string, params: readonly Value[] = []): Promise<Result> {
    return this.execute({ kind: "sql", sql: text, params });
  }

  table(name: string | DerivedInput): TableQuery {
    return new TableQuery(name, (command) => this.execute(command));
  }

  #run(command: Command): Promise<Result> {
    if (this.#over) return Promise.reject(new StoreError("invalid_request", "The transaction is over: its callback already finished, failed or ran out of time."));
    if (command.kind === "transaction" || command.kind === "checkpoint") {
      return Promise.reject(new StoreError("invalid_request", `A transaction cannot run "${command.kind}": transactions do not nest, and a checkpoint folds only what is durable.`));
    }
    try {
      const applied = this.#lease.apply(command);
      for (const change of applied.changes) this.#changes.push(change);
      return Promise.resolve(applied.result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Ends the transaction: its changes made durable as one group (`keep`), or undone. Takes no commands after. */
  finish(keep: boolean): Promise<void> {
    this.#over = true;
    return this.#lease.end(this.#changes, keep);
  }
}

/** Marks the asynchronous context of a running callback with its database's hold. */
const holding = new AsyncLocalStorage<object>();

/** Whether the caller runs inside the callback of the transaction that holds `hold`. */
export function insideTransaction(hold: object | undefined): boolean {
  return hold !== undefined && holding.getStore() === hold;
}

/** The checked timeout, in milliseconds. */
export function transactionTimeout(options: TransactionOptions): number {
  const ms = options.timeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS;
  if (typeof ms !== "number" || Number.isNaN(ms) || ms <= 0) throw new StoreError("invalid_request", "transaction: timeoutMs must be a number of milliseconds > 0 (or Infinity).");
  return ms;
}

/**
 * Runs `fn(tx)` marked with `hold`, for at most `timeoutMs`; resolves with
 * its value, rejects with what it threw or with the timeout.
 */
export function runCallback<T>(fn: (tx: Transaction) => T | Promise<T>, tx: Transaction, hold: object, timeoutMs: number): Promise<T> {
  const work = holding.run(hold, () => new Promise<T>((resolve) => resolve(fn(tx))));
  if (timeoutMs === Infinity) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The callback may still settle later; its outcome no longer matters, and must not surface as unhandled.
      work.catch(() => undefined);
      reject(new StoreError("invalid_request", `The transaction's callback did not finish within ${timeoutMs} ms: nothing it did was kept.`));
    }, timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
