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
/** Inside a CHECK: the clock and the time zone are off limits (`steadily`). */
let steady = false;

/** What a CHECK that reads the clock or the time zone meets: its answer would change after the row is written. */
export class UnsteadyRead extends Error {}

/**
 * Runs a CHECK's evaluation: reading the clock ('now') or the time zone
 * ('localtime', 'utc') throws `UnsteadyRead`, as SQLite refuses the same at
 * run time. Binding refuses these when written as constants; a value from
 * a column (`date(d)` with d = 'now') only shows here.
 */
export function steadily<T>(run: () => T): T {
  const outer = steady;
  steady = true;
  try {
    return run();
  } finally {
    steady = outer;
  }
}

/** Called before the time zone is read. */
export function readingZone(): void {
  if (steady) throw new UnsteadyRead();
}

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
  if (steady) throw new UnsteadyRead();
  if (current === undefined) return Date.now();
  return (current.ms ??= Date.now());
}
