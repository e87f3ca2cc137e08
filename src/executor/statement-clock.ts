/**
 * The instant 'now' stands for in the date and time functions: one per
 * statement, as SQLite reads its clock once per statement, so
 * `datetime('now')` is the same in every row and in every place a
 * statement writes it. The engine runs each command inside
 * `atStatementTime` (a transaction's steps each their own); the first read
 * within it fixes the instant for the rest. A read outside any statement
 * takes the clock afresh rather than keep a stale instant.
 */

let current: { ms?: number } | undefined;

/** Runs one statement with its own 'now', restoring the enclosing one (a transaction's) after. */
export function atStatementTime<T>(run: () => T): T {
  const outer = current;
  current = {};
  try {
    return run();
  } finally {
    current = outer;
  }
}

/** The statement's 'now', in milliseconds since 1970-01-01 UTC. */
export function statementNow(): number {
  if (current === undefined) return Date.now();
  return (current.ms ??= Date.now());
}
