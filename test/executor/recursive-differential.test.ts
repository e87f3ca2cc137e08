/**
 * Recursive WITH tables against SQLite (better-sqlite3, in memory): walks
 * down and up a generated forest (`tree`, parents before children) and
 * round a generated graph with cycles (`links`, with UNION), counters,
 * series and LIMITs that stop a recursion, over both engines holding the
 * same rows. Answers compare as multisets, or in order under a total ORDER
 * BY; a query with a LIMIT but no ORDER BY compares in order too, since
 * both engines make a recursive table's rows step by step in the same
 * order (SQLite's queue takes one step's rows before the next's).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { engines, run, sameRows } from "./support/both-engines.js";
import { rng, type TableDef } from "./support/sql-generator.js";

const next = rng(20261201);
const int = (n: number): number => Math.floor(next() * n);

const TREE_SIZE = 300;
const tree: TableDef = {
  name: "tree",
  columns: [{ name: "id", type: "integer" }, { name: "parent", type: "integer" }, { name: "name", type: "text" }, { name: "w", type: "integer" }],
  rows: Array.from({ length: TREE_SIZE }, (_, i) => [i + 1, i < 5 || int(10) === 0 ? null : 1 + int(i), `n${i + 1}`, int(20) - 5]),
  indexes: [["tree_parent", "parent"]],
};
const links: TableDef = {
  name: "links",
  columns: [{ name: "id", type: "integer" }, { name: "src", type: "integer" }, { name: "dst", type: "integer" }],
  rows: Array.from({ length: 120 }, (_, i) => [i + 1, 1 + int(60), 1 + int(60)]),
  indexes: [],
};
const { ours, theirs } = engines([tree, links]);

const SUBTREE = "WITH RECURSIVE sub(id, depth, path) AS (SELECT id, 0, name FROM tree WHERE id = ? UNION ALL SELECT t.id, sub.depth + 1, sub.path || '/' || t.name FROM tree t JOIN sub ON t.parent = sub.id) ";
const queries: readonly { readonly sql: string; readonly params?: readonly Value[]; readonly ordered?: boolean }[] = [
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) SELECT x FROM c", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 25", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x * x AS sq FROM c WHERE x % 7 = 3 LIMIT 12 OFFSET 2", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 5 UNION ALL SELECT x + 3 FROM c LIMIT 10 OFFSET 4) SELECT x FROM c", ordered: true },
  { sql: "WITH RECURSIVE f(a, b, n) AS (SELECT 0, 1, 1 UNION ALL SELECT b, a + b, n + 1 FROM f WHERE n < 70) SELECT n, a FROM f", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x * 1.5 FROM c WHERE x < 1000) SELECT x FROM c", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT (x * 7 + 3) % 50 FROM c) SELECT x FROM c ORDER BY x", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 1 UNION SELECT x % 4 + 1 FROM c) SELECT x FROM c ORDER BY x", ordered: true },
  { sql: "WITH RECURSIVE c(x, k) AS (SELECT 1, 'a' UNION ALL SELECT x * 2, k || 'l' FROM c WHERE x < 64 UNION ALL SELECT x * 3, k || 'r' FROM c WHERE x < 64) SELECT x, k FROM c" },
  ...[1, 2, 3, 4, 5].map((root) => ({ sql: `${SUBTREE}SELECT id, depth, path FROM sub`, params: [root] })),
  ...[1, 3].map((root) => ({ sql: `${SUBTREE}SELECT depth, count(*) AS n, sum(t.w) AS w FROM sub JOIN tree t ON t.id = sub.id GROUP BY depth ORDER BY depth`, params: [root], ordered: true })),
  { sql: `${SUBTREE.replace("WHERE id = ?", "WHERE parent IS NULL")}SELECT id, depth, path FROM sub` },
  ...[17, 150, 299].map((leaf) => ({
    sql: "WITH RECURSIVE up(id, n) AS (SELECT parent, 1 FROM tree WHERE id = ? UNION ALL SELECT t.parent, up.n + 1 FROM up JOIN tree t ON t.id = up.id) SELECT id, n FROM up",
    params: [leaf],
    ordered: true,
  })),
  ...[1, 7, 30].map((start) => ({ sql: "WITH RECURSIVE reach(node) AS (SELECT ? UNION SELECT l.dst FROM links l JOIN reach ON l.src = reach.node) SELECT node FROM reach ORDER BY node", params: [start], ordered: true })),
  { sql: "WITH RECURSIVE reach(node, hops) AS (SELECT 2, 0 UNION ALL SELECT l.dst, hops + 1 FROM reach JOIN links l ON l.src = reach.node WHERE hops < 4) SELECT node, hops FROM reach" },
  { sql: "WITH RECURSIVE reach(node) AS (SELECT src FROM links WHERE id <= 3 UNION SELECT l.dst FROM reach LEFT JOIN links l ON l.src = reach.node WHERE l.dst IS NOT NULL) SELECT count(*) AS n FROM reach" },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 40), sq(x, y) AS (SELECT x, x * x FROM c) SELECT sq.x, sq.y, t.name FROM sq JOIN tree t ON t.id = sq.y ORDER BY sq.x", ordered: true },
  { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30) SELECT id, name FROM tree WHERE id IN (SELECT x * 10 FROM c) AND EXISTS (SELECT 1 FROM c WHERE c.x = tree.w)" },
];

test(`${queries.length} recursive queries agree with SQLite`, () => {
  for (const [i, query] of queries.entries()) {
    const params = query.params ?? [];
    const answers = run(ours, theirs, { sql: query.sql, params, ordered: query.ordered ?? false });
    const show = (rows: Value[][]): string => JSON.stringify(rows.slice(0, 12)) + (rows.length > 12 ? ` … (${rows.length} rows)` : "");
    assert.ok(answers.ours.length > 0, `query ${i} returned no rows: ${query.sql}`);
    assert.ok(sameRows(answers.ours, answers.theirs, query.ordered ?? false), `query ${i}: ${query.sql}\nparams ${JSON.stringify(params)}\nstoredb ${show(answers.ours)}\nsqlite  ${show(answers.theirs)}`);
  }
});

test.run();
