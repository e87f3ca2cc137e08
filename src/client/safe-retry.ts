/**
 * When may the client send a command again after an attempt failed?
 *
 * Only when sending it twice cannot do anything sending it once would not:
 * - the server certainly never ran it: the connection was refused, or the
 *   server answered 503 `shutting_down` (its drain gate turns a command away
 *   before running it, CONTRACT §8) — safe for every command;
 * - the command only reads (`select`, `describe`, `validate`, `explain`, or
 *   SQL whose first keyword is SELECT, WITH — which only starts a select
 *   here — or EXPLAIN) — safe after any broken
 *   connection, since a read changes nothing however often it runs.
 * A write whose connection broke mid-way is never resent: it may have been
 * applied. A timeout is never retried either: the caller's time is spent.
 */

const READ_KINDS = new Set(["select", "describe", "validate", "explain"]);

/** Leading whitespace and SQL comments (`-- …` to end of line, `/* … *\/`), then the first word. */
const FIRST_WORD = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/;

/** True for a command that only reads. Anything unrecognised counts as a write. */
export function onlyReads(command: unknown): boolean {
  if (typeof command !== "object" || command === null) return false;
  const { kind, sql } = command as { kind?: unknown; sql?: unknown };
  if (typeof kind === "string" && READ_KINDS.has(kind)) return true;
  if (kind !== "sql" || typeof sql !== "string") return false;
  const word = FIRST_WORD.exec(sql)?.[1]?.toUpperCase();
  return word === "SELECT" || word === "WITH" || word === "EXPLAIN";
}

/** Node's network error codes for a connection that was never made: nothing was sent. */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/** True when a failed `fetch` never reached a server (its cause chain carries a connect-time error code). */
export function neverConnected(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== undefined && NEVER_CONNECTED.has(code)) return true;
    // undici reports a refused connection inside an AggregateError (one per address tried).
    if (cause instanceof AggregateError && cause.errors.every((inner) => neverConnected(inner))) return true;
  }
  return false;
}
