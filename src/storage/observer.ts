/**
 * What storage measures as it works, for whoever keeps metrics (the
 * service's `/metrics`): the one interface storage reports measurements
 * into, so storage never imports the server.
 *
 * Each method is called where the work happens, after it happened, with
 * plain numbers; an observer must be cheap (a tally, never formatting) and
 * must not throw. Storage calls it through optional chaining, so without one
 * a measurement costs nothing but the clock reads around it. Incidents worth
 * a log line (a journal discarded, a failed checkpoint) travel separately as
 * `StorageEvent`s.
 */

export interface StorageObserver {
  /** A database was read from disk: the bytes of its document and journal, and the seconds the load took (replay included). */
  loaded(bytes: number, seconds: number): void;
  /** A commit group was made durable — one journal append with its fsync, or a new database's first document: the seconds it took. */
  persisted(seconds: number): void;
  /** A checkpoint folded the journal into the document: the seconds from its start to the journal's reset. */
  checkpointed(seconds: number): void;
  /** A checkpoint failed (it changed nothing; the journal keeps every change). */
  checkpointFailed(): void;
  /** An idle database was closed to stay within the open-database budget. */
  evicted(): void;
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
