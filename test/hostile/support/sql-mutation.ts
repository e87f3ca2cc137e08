/**
 * Mutated SQL: statements from a small corpus covering every statement form
 * of CONTRACT §4, cut into rough tokens and mutated one to four times
 * (a token dropped, doubled, swapped with its neighbour or replaced by a
 * hostile one; a character inserted; the text truncated). Most results are
 * syntax errors; the property is that each is a clean §7 answer whose
 * position points into the text it was given.
 */
import fc from "fast-check";

export const CORPUS: readonly string[] = [
  "SELECT * FROM t",
  "SELECT id, s FROM t WHERE n > 3 AND s IS NOT NULL ORDER BY s DESC, id LIMIT 5 OFFSET 1",
  "SELECT id FROM t WHERE NOT (b = TRUE) OR r <= -1.5",
  "SELECT t.id FROM t WHERE t.s = 'it''s' -- trailing comment",
  'SELECT "id" FROM t /* block */ WHERE id = ?',
  "SELECT id FROM t WHERE (n = 1 OR n = 2) AND (s <> 'a' OR s IS NULL);",
  "INSERT INTO t (id, n, s) VALUES (5000, 1, 'x'), (5001, NULL, 'y')",
  "INSERT INTO t (id, b) VALUES (?, ?)",
  "UPDATE t SET n = 7, s = ? WHERE id = 5000",
  "DELETE FROM t WHERE id >= 5000",
  "CREATE TABLE IF NOT EXISTS v (a INT PRIMARY KEY, b VARCHAR(10) NOT NULL UNIQUE, c BOOL DEFAULT FALSE, d DOUBLE, CHECK (a > 0))",
  "CREATE TABLE w2 (a TEXT, b BIGINT REFERENCES t(id), PRIMARY KEY (a), UNIQUE (a, b))",
  "DROP TABLE IF EXISTS v",
  "EXPLAIN SELECT * FROM t WHERE id = 1",
  "SELECT * FROM t JOIN t AS u ON t.id = u.id WHERE u.n < 5",
  "SELECT t.s, u.s FROM t LEFT JOIN t u ON t.id = u.n ORDER BY t.id",
];

const TOKEN = /'(?:[^']|'')*'|"[^"]*"|--[^\n]*|\/\*[\s\S]*?\*\/|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|\s+|<>|!=|<=|>=|./g;

export function tokens(sql: string): string[] {
  return sql.match(TOKEN) ?? [];
}

const HOSTILE_TOKENS = [
  "(", ")", ",", ";", "'", '"', "?", "--", "/*", "*/", "*", ".", "=", "<", "!", "-", "--\n",
  "\u0000", "\u2028", "\r", "\t", "\u{1F600}", "\ud800", "é",
  "SELECT", "FROM", "WHERE", "NULL", "NOT", "AND", "OR", "IS", "LIMIT", "OFFSET", "JOIN", "ON", "VALUES", "TABLE", "PRIMARY", "KEY", "EXPLAIN", "DROP",
  "9e999", "1e400", "9007199254740993", "-0", "0.", ".5", "1.2.3", "00", "-9223372036854775809",
  "__proto__", "constructor", "T", "x".repeat(100), "'unterminated", '"unterminated', "''''", "/* never closed",
];

type Edit = (t: string[], at: number, pick: number) => void;

const EDITS: readonly Edit[] = [
  (t, at) => void t.splice(at, 1),
  (t, at) => void t.splice(at, 0, t[at] ?? ""),
  (t, at) => {
    if (at + 1 < t.length) [t[at], t[at + 1]] = [t[at + 1]!, t[at]!];
  },
  (t, at, pick) => void t.splice(at, 1, HOSTILE_TOKENS[pick % HOSTILE_TOKENS.length]!),
  (t, at, pick) => void t.splice(at, 0, HOSTILE_TOKENS[pick % HOSTILE_TOKENS.length]!),
  (t, at) => void t.splice(at),
];

export interface MutatedSql {
  readonly sql: string;
  readonly params: readonly (string | number | boolean | null)[];
}

export const mutatedSql: fc.Arbitrary<MutatedSql> = fc
  .tuple(
    fc.constantFrom(...CORPUS),
    fc.array(fc.tuple(fc.nat(), fc.nat(EDITS.length - 1), fc.nat()), { minLength: 1, maxLength: 4 }),
    fc.array(fc.oneof(fc.integer({ min: 5000, max: 5100 }), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant(null)), { maxLength: 3 }),
  )
  .map(([source, edits, params]) => {
    const t = tokens(source);
    for (const [at, which, pick] of edits) EDITS[which]!(t, t.length === 0 ? 0 : at % t.length, pick);
    return { sql: t.join(""), params };
  });

/** Where an offset falls, as §4 counts it: 1-based line and column in UTF-16 units, lines split at "\n". */
export function lineColumn(sql: string, offset: number): { line: number; column: number } {
  const before = sql.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}
