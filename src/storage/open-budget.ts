/**
 * The open-database budget of a data directory: how many databases the
 * service keeps in memory at once, and how much memory their data may take;
 * and, when it is over, which databases to close.
 *
 * Only idle databases are closed (nothing queued or running, nothing on its
 * way to disk, no checkpoint and no streamed answer under way), least
 * recently used first, and never the most recently used one: a database
 * that alone exceeds the memory budget stays open while it is the one in
 * use, and is closed once another one is wanted. When every candidate is
 * busy the directory stays over budget until one is idle (the caller looks
 * again). Pure: the caller says what is open.
 *
 * Memory is estimated, not measured (V8 cannot say which objects belong to
 * which database): a database counts as its stored state — the document and
 * journal bytes it read or wrote — times `HEAP_PER_STORED_BYTE`.
 */

export interface OpenBudget {
  /** At most this many databases open. Undefined: no limit. */
  readonly databases?: number | undefined;
  /** At most this much estimated memory for open databases' data, in bytes. Undefined: no limit. */
  readonly memoryBytes?: number | undefined;
}

/**
 * Heap bytes a loaded database takes per byte of its `.store` document: an
 * opened 100k-user + 300k-order database measured 1.30x its file (issue 18,
 * `npm run bench -- heap`: V8's heap and the array buffers its number
 * columns and index links live in; the strings, key indexes and column
 * arrays). A table whose rows were much updated holds more until it is
 * compacted (`Table.compact`: at most twice its rows, and 1,024, in its
 * heap). Small databases cost more than this per byte (a few kB of fixed
 * structure each), which the count bounds.
 */
export const HEAP_PER_STORED_BYTE = 1.35;

/** An open database, as the budget sees it. */
export interface Candidate {
  /** When it was last used: larger is more recent. */
  readonly used: number;
  /** Whether it may be closed now. */
  readonly idle: boolean;
  /** Bytes of stored state it holds (document and journal). */
  readonly bytes: number;
}

export interface Evictions<T> {
  /** What to close, least recently used first. */
  readonly close: readonly T[];
  /** Still over budget after those close: every other database is busy (or the most recent). */
  readonly over: boolean;
}

/** The estimated memory of `bytes` of stored state. */
export function estimatedMemory(bytes: number): number {
  return bytes * HEAP_PER_STORED_BYTE;
}

function within(budget: OpenBudget, count: number, bytes: number): boolean {
  return (budget.databases === undefined || count <= budget.databases) && (budget.memoryBytes === undefined || estimatedMemory(bytes) <= budget.memoryBytes);
}

/** The databases to close so that what stays open fits `budget`. */
export function evictions<T extends Candidate>(open: readonly T[], budget: OpenBudget): Evictions<T> {
  let count = open.length;
  let bytes = 0;
  for (const candidate of open) bytes += candidate.bytes;
  if (within(budget, count, bytes)) return { close: [], over: false };
  let newest: T | undefined;
  for (const candidate of open) if (newest === undefined || candidate.used > newest.used) newest = candidate;
  const idle = open.filter((candidate) => candidate.idle && candidate !== newest).sort((a, b) => a.used - b.used);
  const close: T[] = [];
  for (const candidate of idle) {
    if (within(budget, count, bytes)) break;
    close.push(candidate);
    count -= 1;
    bytes -= candidate.bytes;
  }
  return { close, over: !within(budget, count, bytes) };
}
