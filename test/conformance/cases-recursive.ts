/**
 * Conformance cases for WITH tables that read themselves (SQL `WITH
 * RECURSIVE`, JSON `from: {kind: "with"}`, the builder's `withTable`) and
 * for a WITH table's column list: counting, a walk down a parent/child
 * table, UNION against UNION ALL (a walk round a cycle ends with UNION),
 * the table's own LIMIT and OFFSET, a LIMIT over it stopping a recursion
 * that would not end, several recursive selects, column types unified
 * with the recursive select's; and each misuse SQLite refuses (the table
 * read in its first select, twice in one select, in a subquery; an
 * aggregate or a window function in the recursive select), those storedb
 * refuses beyond it (ORDER BY, DISTINCT, INTERSECT), and the bound on the
 * rows one recursion makes.
 *
 * Fixture rows (see `cases-expressions.ts`): users' ages 36, 17, NULL, 52,
 * 28 (u1..u5).
 */

import { col, eq, lt, val, withTable } from "../../src/api/expressions.js";
import type { Expression } from "../../src/commands/types.js";
import { AS, B, C, I, L, c, err, misuse, mut, rows, tx, txr, type Case } from "./dsl.js";

type Select = Record<string, unknown>;
/** A select without FROM, or over `table`. */
const S = (columns: unknown[], extra: Select = {}): Select => ({ kind: "select", columns, ...extra });
const Q = (table: string, columns: "*" | unknown[], extra: Select = {}): Select => ({ kind: "select", table, columns, ...extra });
const W = (name: string, select: Select, columns?: string[]): Select => ({ kind: "with", name, ...(columns === undefined ? {} : { columns }), select });
const AGG = (name: string, arg: string): Expression => ({ type: "aggregate", name, arg: I(arg) }) as Expression;

/** `c(x)`: 1, then x + 1 while `step` allows, joined by `op`; `extra` goes on the whole compound. */
const counter = (step: Select, op = "union-all", extra: Select = {}): Select =>
  W("c", S([AS(L(1), "x")], { compound: [{ op, select: Q("c", [AS(B("+", "x", 1), "x")], step) }], ...extra }), ["x"]);
const xs = (...values: number[]) => rows(["x"], ...values.map((v) => [v]));

// A parent/child table: 1 → 2, 3; 2 → 4; 4 → 5; and 6 ↔ 7, a cycle.
const nodes = "nodes";
const createNodes = [null, { kind: "create-table", schema: { name: nodes, columns: { id: "integer", parent: "integer", name: "text" }, primary_key: { columns: ["id"] } } },
  "CREATE TABLE nodes (id INTEGER PRIMARY KEY, parent INTEGER, name TEXT)"] as const;
const NODES: [number, number | null, string][] = [[1, null, "root"], [2, 1, "a"], [3, 1, "b"], [4, 2, "c"], [5, 4, "d"], [6, 7, "p"], [7, 6, "q"]];
const fillNodes = [null, { kind: "insert", table: nodes, rows: NODES.map(([id, parent, name]) => ({ id, parent, name })) },
  `INSERT INTO nodes VALUES ${NODES.map(([id, parent, name]) => `(${id}, ${parent ?? "NULL"}, '${name}')`).join(", ")}`] as const;

/** The subtree under `root`: each node's name and depth, walking `parent` links down. */
const subtree = (root: number, op: "union" | "union-all", extra: Select = {}): Select =>
  W("sub", Q(nodes, ["id", "name", AS(L(0), "depth")], {
    where: C("=", "id", root),
    ...extra,
    compound: [{ op, select: Q(nodes, ["n.id", "n.name", AS(B("+", "sub.depth", 1), "depth")], { as: "n", joins: [{ type: "inner", table: "sub", on: C("=", "n.parent", I("sub.id")) }] }) }],
  }));

/** A recursive table whose recursive select joins one nested `depth` - 1 deep; each widens its column to real. */
const nested = (depth: number): string =>
  depth === 0
    ? "SELECT 1 AS z"
    : `WITH RECURSIVE r${depth}(x) AS (SELECT 1 UNION ALL SELECT r${depth}.x + 0.5 FROM r${depth} JOIN (${nested(depth - 1)}) AS d${depth} ON TRUE WHERE r${depth}.x < 2) SELECT x AS z FROM r${depth} ORDER BY x DESC LIMIT 1`;

/**
 * WITH tables t1 … t`length`: t1 is `first`; each next one is 1, then x + 0.5 plus the count of the one before, read in
 * a subquery of its recursive select (so each widens x to real, and is bound again over it).
 */
const chain = (length: number, first: string): string =>
  Array.from({ length }, (_, i) => (i === 0 ? `t1(x) AS (${first})` : `t${i + 1}(x) AS (SELECT 1 UNION ALL SELECT x + 0.5 + (SELECT count(*) FROM t${i}) FROM t${i + 1} WHERE x < 2)`)).join(", ");

/**
 * WITH tables t1 … t`length` chained as `chain`'s, where each also reads the column of the one after it, which reads
 * it in a subquery: an integer there in that one's first pass, real once it widens.
 */
const askingChain = (length: number): string =>
  Array.from({ length }, (_, i) => {
    const k = i + 1;
    if (k === 1) return "t1(x1) AS (SELECT 1 WHERE x2 > 0)";
    const next = k < length ? ` AND x${k + 1} > 0` : "";
    return `t${k}(x${k}) AS (SELECT 1 UNION ALL SELECT x${k} + 0.5 + (SELECT count(*) FROM t${k - 1}) FROM t${k} WHERE x${k} < 2${next})`;
  }).join(", ");

export const recursiveCases: readonly Case[] = [
  // ---- counting
  c("WITH RECURSIVE counts until its recursive select's WHERE stops it", null,
    { kind: "select", from: counter({ where: C("<", "x", 5) }), columns: ["x"] },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5) SELECT x FROM c", xs(1, 2, 3, 4, 5)),
  c("the builder's withTable: a recursive table started from a stored row",
    (t) => t(withTable("c", t("users").select(col("age").as("n")).where(eq("id", "u2")).unionAll(t("c").select(col("n").add(10).as("n")).where(lt("n", 40))))).select("n"),
    { kind: "select", from: W("c", Q("users", [AS(I("age"), "n")], { where: C("=", "id", "u2"), compound: [{ op: "union-all", select: Q("c", [AS(B("+", "n", 10), "n")], { where: C("<", "n", 40) }) }] })), columns: ["n"] },
    "WITH RECURSIVE c AS (SELECT age AS n FROM users WHERE id = 'u2' UNION ALL SELECT n + 10 AS n FROM c WHERE n < 40) SELECT n FROM c",
    rows(["n"], [17], [27], [37], [47])),
  c("a LIMIT in the recursive table ends a recursion that would not end", null,
    { kind: "select", from: counter({}, "union-all", { limit: 4 }), columns: ["x"] },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 4) SELECT x FROM c", xs(1, 2, 3, 4)),
  c("the recursive table's OFFSET skips its first rows, which still recurse", null,
    { kind: "select", from: counter({}, "union-all", { limit: 2, offset: 3 }), columns: ["x"] },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2 OFFSET 3) SELECT x FROM c", xs(4, 5)),
  c("a LIMIT over a filtered read of it ends a recursion that would not end, as in SQLite", null,
    { kind: "select", from: counter({}), columns: ["x"], where: C("=", B("%", "x", 3), 0), limit: 3 },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x % 3 = 0 LIMIT 3", xs(3, 6, 9)),
  c("a LIMIT over it that its own LIMIT leaves short", null,
    { kind: "select", from: counter({}, "union-all", { limit: 10 }), columns: ["x"], where: C(">", "x", 8), limit: 3 },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10) SELECT x FROM c WHERE x > 8 LIMIT 3", xs(9, 10)),
  c("a LIMIT over a join that reads it first ends it too", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 17 UNION ALL SELECT x + 1 FROM c) SELECT c.x, u.id FROM c JOIN users u ON u.age = c.x LIMIT 2",
    rows(["c.x", "u.id"], [17, "u2"], [28, "u5"])),
  c("a recursive table read twice and in a subquery", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 17 UNION ALL SELECT x + 1 FROM c WHERE x < 30) SELECT a.x FROM c a JOIN c b ON b.x = a.x + 11 WHERE a.x IN (SELECT age FROM users) AND b.x IN (SELECT x FROM c) ORDER BY a.x",
    rows(["a.x"], [17])),
  c("parameters in a recursive table", null, null,
    ["WITH RECURSIVE c(x) AS (SELECT CAST(? AS integer) UNION ALL SELECT x * 2 FROM c WHERE x < ?) SELECT x FROM c", [3, 20]], xs(3, 6, 12, 24)),
  c("several recursive selects run over each step's rows in turn", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM c WHERE x < 4 UNION ALL SELECT x * 3 FROM c WHERE x < 4) SELECT x FROM c ORDER BY x",
    xs(1, 2, 3, 4, 6, 6, 9)),
  // SQLite's queue: each row's rows from the first recursive select, then the second's, before the next row's.
  c("several recursive selects under a LIMIT: the rows and order of SQLite's queue", null,
    { kind: "select", columns: ["x"], limit: 8, from: W("c", S([AS(L(1), "x")], { compound: [
      { op: "union-all", select: Q("c", [AS(B("*", "x", 2), "x")], { where: C("<", "x", 300) }) },
      { op: "union-all", select: Q("c", [AS(B("+", "x", 100), "x")], { where: C("<", "x", 300) }) }] }), ["x"]) },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM c WHERE x < 300 UNION ALL SELECT x + 100 FROM c WHERE x < 300) SELECT x FROM c LIMIT 8",
    xs(1, 2, 101, 4, 102, 202, 201, 8)),
  c("the builder's withTable with two recursive selects, under a LIMIT: SQLite's queue order",
    (t) => t(withTable("c", t("users").select(col("age").as("n")).where(eq("id", "u2"))
      .unionAll(t("c").select(col("n").mul(2).as("n")).where(lt("n", 300)))
      .unionAll(t("c").select(col("n").add(100).as("n")).where(lt("n", 300))))).select("n").limit(8),
    null,
    "WITH RECURSIVE c AS (SELECT age AS n FROM users WHERE id = 'u2' UNION ALL SELECT n * 2 AS n FROM c WHERE n < 300 UNION ALL SELECT n + 100 AS n FROM c WHERE n < 300) SELECT n FROM c LIMIT 8",
    rows(["n"], [17], [34], [117], [68], [134], [234], [217], [136])),
  c("several recursive selects joined by UNION: which repeat is dropped follows the queue", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x * 2 FROM c WHERE x < 300 UNION SELECT x + 100 FROM c WHERE x < 300 LIMIT 12) SELECT x FROM c",
    xs(1, 2, 101, 4, 102, 202, 201, 8, 104, 204, 404, 302)),
  c("a recursive table joined to the table it walks keeps the queue's order under a LIMIT", null, null,
    "WITH e(src, dst) AS (SELECT 1, 2 UNION ALL SELECT 1, 3 UNION ALL SELECT 3, 30 UNION ALL SELECT 2, 20), r(n) AS (SELECT 1 UNION ALL SELECT e.dst FROM e JOIN r ON e.src = r.n) SELECT n FROM r LIMIT 4",
    rows(["n"], [1], [2], [3], [20])),
  c("a fan-out of millions under a LIMIT makes only the rows it keeps", null, null,
    "WITH RECURSIVE big(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM big WHERE x < 4000), r(n) AS (SELECT 1 UNION ALL SELECT n + big.x FROM r JOIN big ON TRUE) SELECT n FROM r LIMIT 4",
    rows(["n"], [1], [2], [3], [4])),
  c("a fan-out through two joins under a LIMIT: the joins run over as few queued rows as are wanted", null, null,
    "WITH RECURSIVE big(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM big WHERE x < 4000), r(n) AS (SELECT 1 UNION ALL SELECT n + a.x FROM r JOIN big a ON TRUE JOIN big b ON b.x = a.x) SELECT n FROM r LIMIT 5",
    rows(["n"], [1], [2], [3], [4], [5])),
  c("a LIMIT over it asks for no more than the bound, though the rows it wants lie near it", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x = 999999 LIMIT 1", xs(999999)),

  // ---- UNION and UNION ALL
  c("UNION adds a row once: a walk round a cycle ends", null,
    { kind: "select", from: W("c", S([AS(L(1), "x")], { compound: [{ op: "union", select: Q("c", [AS(B("+", B("%", "x", 3), 1), "x")]) }] }), ["x"]), columns: ["x"] },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION SELECT x % 3 + 1 FROM c) SELECT x FROM c", xs(1, 2, 3)),
  c("UNION ALL goes round the cycle again, until the LIMIT", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x % 3 + 1 FROM c LIMIT 7) SELECT x FROM c", xs(1, 2, 3, 1, 2, 3, 1)),
  c("UNION drops repeats among the first rows too", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 1 UNION SELECT x % 2 + 1 FROM c) SELECT x FROM c", xs(1, 2)),

  // ---- a parent/child table
  tx("a walk down a parent/child table: the subtree under a node, with depths", [createNodes, fillNodes,
    [null, { kind: "select", from: subtree(2, "union-all"), columns: ["name", "depth"] },
      "WITH RECURSIVE sub AS (SELECT id, name, 0 AS depth FROM nodes WHERE id = 2 UNION ALL SELECT n.id, n.name, sub.depth + 1 AS depth FROM nodes n JOIN sub ON n.parent = sub.id) SELECT name, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["name", "depth"], ["a", 0], ["c", 1], ["d", 2]))),
  tx("a walk up to the root, as a path", [createNodes, fillNodes,
    [null,
      { kind: "select", columns: ["path"], where: { type: "is-null", expr: I("id") }, from: W("up", Q(nodes, ["parent", "name"], {
        where: C("=", "id", 5),
        compound: [{ op: "union-all", select: Q("up", ["n.parent", AS(B("||", B("||", "up.path", "<"), I("n.name")), "path")], { joins: [{ type: "inner", table: nodes, as: "n", on: C("=", "n.id", I("up.id")) }] }) }],
      }), ["id", "path"]) },
      "WITH RECURSIVE up(id, path) AS (SELECT parent, name FROM nodes WHERE id = 5 UNION ALL SELECT n.parent, up.path || '<' || n.name FROM up JOIN nodes n ON n.id = up.id) SELECT path FROM up WHERE id IS NULL"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["path"], ["d<c<a<root"]))),
  tx("a walk round a cycle of parents ends with UNION", [createNodes, fillNodes,
    [null, { kind: "select", from: subtree(6, "union", { limit: 4 }), columns: ["name", "depth"] },
      "WITH RECURSIVE sub AS (SELECT id, name, 0 AS depth FROM nodes WHERE id = 6 UNION SELECT n.id, n.name, sub.depth + 1 AS depth FROM nodes n JOIN sub ON n.parent = sub.id LIMIT 4) SELECT name, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["name", "depth"], ["p", 0], ["q", 1], ["p", 2], ["q", 3]))),
  tx("a walk written FROM the table JOIN the recursive table, under a LIMIT: each node's children in turn, as SQLite's queue", [createNodes, fillNodes,
    [null, { kind: "select", from: subtree(1, "union-all", { limit: 4 }), columns: ["name", "depth"] },
      "WITH RECURSIVE sub AS (SELECT id, name, 0 AS depth FROM nodes WHERE id = 1 UNION ALL SELECT n.id, n.name, sub.depth + 1 AS depth FROM nodes n JOIN sub ON n.parent = sub.id LIMIT 4) SELECT name, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["name", "depth"], ["root", 0], ["a", 1], ["b", 1], ["c", 2]))),
  tx("a recursive table on the right of a LEFT JOIN, which SQLite refuses", [createNodes,
    [null,
      { kind: "select", columns: "*", from: W("sub", S([AS(L(1), "id")], { compound: [{ op: "union-all", select: Q(nodes, ["n.id"], { as: "n", joins: [{ type: "left", table: "sub", on: C("=", "n.parent", I("sub.id")) }] }) }] })) },
      "WITH RECURSIVE sub(id) AS (SELECT 1 UNION ALL SELECT n.id FROM nodes n LEFT JOIN sub ON n.parent = sub.id) SELECT id FROM sub"]],
    { error: "invalid_request", sql: "sql_error", step: 1 }),
  tx("a recursive table on the left of a LEFT JOIN: a walk down that ends in a NULL", [createNodes, fillNodes,
    [null,
      { kind: "select", columns: ["id", "depth"], from: W("sub", S([AS(L(2), "id"), AS(L(0), "depth")], { compound: [{ op: "union-all", select: Q("sub", [AS(I("c.id"), "id"), AS(B("+", "depth", 1), "depth")], {
        joins: [{ type: "left", table: nodes, as: "c", on: C("=", "c.parent", I("sub.id")) }],
        where: { type: "is-null", expr: I("sub.id"), not: true } }) }] }), ["id", "depth"]) },
      "WITH RECURSIVE sub(id, depth) AS (SELECT 2, 0 UNION ALL SELECT c.id, depth + 1 FROM sub LEFT JOIN nodes c ON c.parent = sub.id WHERE sub.id IS NOT NULL) SELECT id, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["id", "depth"], [2, 0], [4, 1], [5, 2], [null, 3]))),
  tx("a walk written as a comma join, its join condition in WHERE", [createNodes, fillNodes,
    [null,
      { kind: "select", columns: ["id", "depth"], from: W("sub", S([AS(L(2), "id"), AS(L(0), "depth")], { compound: [{ op: "union-all", select: Q(nodes, [AS(I("n.id"), "id"), AS(B("+", "depth", 1), "depth")], {
        as: "n", joins: [{ type: "cross", table: "sub" }], where: C("=", "n.parent", I("sub.id")) }) }] }), ["id", "depth"]) },
      "WITH RECURSIVE sub(id, depth) AS (SELECT 2, 0 UNION ALL SELECT n.id, depth + 1 FROM nodes n, sub WHERE n.parent = sub.id) SELECT id, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["id", "depth"], [2, 0], [4, 1], [5, 2]))),
  tx("a walk joined by USING a column both sides name, under a LIMIT: SQLite's queue order", [createNodes, fillNodes,
    [null,
      { kind: "select", columns: ["parent", "depth"], from: W("sub", S([AS(L(1), "parent"), AS(L(0), "depth")], { compound: [{ op: "union-all", select: Q("sub", [AS(I("n.id"), "parent"), AS(B("+", "depth", 1), "depth")], {
        joins: [{ type: "inner", table: nodes, as: "n", using: ["parent"] }] }) }], limit: 4 }), ["parent", "depth"]) },
      "WITH RECURSIVE sub(parent, depth) AS (SELECT 1, 0 UNION ALL SELECT n.id, depth + 1 FROM sub JOIN nodes n USING (parent) LIMIT 4) SELECT parent, depth FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["parent", "depth"], [1, 0], [2, 1], [3, 1], [4, 2]))),
  tx("a recursive table on the right of a RIGHT JOIN, which SQLite refuses", [createNodes,
    [null,
      { kind: "select", columns: "*", from: W("sub", S([AS(L(1), "id")], { compound: [{ op: "union-all", select: Q(nodes, ["n.id"], { as: "n", joins: [{ type: "right", table: "sub", on: C("=", "n.parent", I("sub.id")) }] }) }] })) },
      "WITH RECURSIVE sub(id) AS (SELECT 1 UNION ALL SELECT n.id FROM nodes n RIGHT JOIN sub ON n.parent = sub.id) SELECT id FROM sub"]],
    { error: "invalid_request", sql: "sql_error", step: 1 }),
  tx("a recursive table on either side of a FULL JOIN is refused", [createNodes,
    [null,
      { kind: "select", columns: "*", from: W("sub", S([AS(L(1), "id")], { compound: [{ op: "union", select: Q("sub", ["n.id"], { joins: [{ type: "full", table: nodes, as: "n", on: C("=", "n.parent", I("sub.id")) }] }) }] })) },
      "WITH RECURSIVE sub(id) AS (SELECT 1 UNION SELECT n.id FROM sub FULL OUTER JOIN nodes n ON n.parent = sub.id) SELECT id FROM sub"]],
    { error: "invalid_request", sql: "sql_error", step: 1 }),
  tx("a recursive table on the left of a RIGHT JOIN is refused: run over many queued rows at once, its unmatched rows would not repeat per row as SQLite's", [createNodes,
    [null,
      { kind: "select", columns: "*", from: W("sub", S([AS(L(1), "id")], { compound: [{ op: "union", select: Q("sub", ["n.id"], { joins: [{ type: "right", table: nodes, as: "n", on: C("=", "n.parent", I("sub.id")) }] }) }] })) },
      "WITH RECURSIVE sub(id) AS (SELECT 1 UNION SELECT n.id FROM sub RIGHT JOIN nodes n ON n.parent = sub.id) SELECT id FROM sub"]],
    { error: "invalid_request", sql: "sql_error", step: 1 }),
  tx("the same walk keyed on ids alone stops once every node is met", [createNodes, fillNodes,
    [null,
      { kind: "select", columns: ["id"], from: W("sub", S([AS(L(6), "id")], { compound: [{ op: "union", select: Q(nodes, ["n.id"], { as: "n", joins: [{ type: "inner", table: "sub", on: C("=", "n.parent", I("sub.id")) }] }) }] })) },
      "WITH RECURSIVE sub(id) AS (SELECT 6 UNION SELECT n.id FROM nodes n JOIN sub ON n.parent = sub.id) SELECT id FROM sub"]],
    txr(mut("create-table", nodes, 0), mut("insert", nodes, 7), rows(["id"], [6], [7]))),

  // ---- column lists and types
  c("a column list names a WITH table's columns", null,
    { kind: "select", from: W("t", Q("users", ["id", "age"], { where: C(">", "age", 30) }), ["who", "years"]), columns: ["who", "years"], orderBy: [{ column: "who" }] },
    "WITH t(who, years) AS (SELECT id, age FROM users WHERE age > 30) SELECT who, years FROM t ORDER BY who", rows(["who", "years"], ["u1", 36], ["u4", 52])),
  c("a column list of the wrong length", null,
    { kind: "select", from: W("t", Q("users", ["id"]), ["a", "b"]), columns: "*" },
    "WITH t(a, b) AS (SELECT id FROM users) SELECT * FROM t", misuse),
  c("a column list naming one column twice", null,
    { kind: "select", from: W("t", Q("users", ["id", "name"]), ["a", "a"]), columns: "*" },
    "WITH t(a, a) AS (SELECT id, name FROM users) SELECT * FROM t", misuse),
  c("a recursive select's real widens an integer column to real", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 0.5 FROM c WHERE x < 2) SELECT x, typeof(x) AS t FROM c",
    rows(["x", "t"], [1, "real"], [1.5, "real"], [2, "real"])),
  c("recursive tables nested 20 deep, each widened to real, bind in linear time (each was bound again per widening)", null, null,
    `${nested(20)}`, rows(["z"], [2])),
  // Each was bound again per widening of the one after it (2^36 binds), as a table name behind an alias or a read of
  // the enclosing query made each binding hold only for the subquery it was read in.
  c("36 chained recursive tables, each reading the one before in a subquery and widened to real, bind in linear time", null, null,
    `WITH RECURSIVE ${chain(36, "SELECT count(*) FROM orders o WHERE orders.amount > 0")} SELECT count(*) AS n FROM t36`, rows(["n"], [2])),
  c("36 chained recursive tables reading the enclosing row bind in linear time", null, null,
    `WITH RECURSIVE ${chain(36, "SELECT id FROM orders WHERE user_id = u.id")} SELECT u.id AS id, (SELECT count(*) FROM t2) AS a, (SELECT max(x) FROM t36) AS n FROM users u ORDER BY u.id`,
    rows(["id", "a", "n"], ["u1", 2, 3.5], ["u2", 2, 3.5], ["u3", 2, 3.5], ["u4", 3, 3.5], ["u5", 2, 3.5])),
  // Each read a column of the one after it, an integer in its first pass and real in the next: with only the last
  // binding kept, each pass bound the one before again (2^36 binds).
  c("36 chained recursive tables, each reading a column of the one reading it, bind in linear time", null, null,
    `WITH RECURSIVE ${askingChain(36)} SELECT count(*) AS n FROM t36`, rows(["n"], [2])),
  c("a column NULL in the first rows takes the type the recursive select gives it, as in SQLite", null, null,
    "WITH RECURSIVE c(x, p) AS (SELECT 1, NULL UNION ALL SELECT x + 1, x FROM c WHERE x < 5) SELECT * FROM c",
    rows(["x", "p"], [1, null], [2, 1], [3, 2], [4, 3], [5, 4])),
  c("a column NULL in the first rows widened to real by the recursive select", null, null,
    "WITH RECURSIVE c(x, p) AS (SELECT 1, NULL UNION ALL SELECT x + 1, x * 0.5 FROM c WHERE x < 3) SELECT x, p, typeof(p) AS t FROM c",
    rows(["x", "p", "t"], [1, null, "null"], [2, 0.5, "real"], [3, 1, "real"])),
  c("CAST(NULL AS integer) in the first rows types the column", null, null,
    "WITH RECURSIVE c(x, p) AS (SELECT 1, CAST(NULL AS integer) UNION ALL SELECT x + 1, p FROM c WHERE x < 3) SELECT * FROM c",
    rows(["x", "p"], [1, null], [2, null], [3, null])),
  c("a column NULL in the first rows the recursive select only carries on has no type", null, null,
    "WITH RECURSIVE c(x, p) AS (SELECT 1, NULL UNION ALL SELECT x + 1, p FROM c WHERE x < 3) SELECT * FROM c", err("sql_error")),
  c("a recursive select yielding text for a number column", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT 'a' FROM c WHERE x < 2) SELECT x FROM c", err("type_mismatch")),
  c("a recursive select of another width", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x, x FROM c WHERE x < 2) SELECT * FROM c", err("sql_error")),

  // ---- misuse, as SQLite refuses it
  c("a recursive table read in its first select", null,
    { kind: "select", from: W("c", Q("c", [AS(L(1), "x")], { compound: [{ op: "union-all", select: S([AS(L(1), "x")]) }] })), columns: "*" },
    "WITH RECURSIVE c(x) AS (SELECT x FROM c UNION ALL SELECT 1) SELECT x FROM c", misuse),
  c("a recursive select reading it twice", null,
    { kind: "select", from: counter({ as: "a", joins: [{ type: "inner", table: "c", as: "b", on: C("=", "a.x", I("b.x")) }], where: C("<", "a.x", 3) }), columns: "*" },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT a.x + 1 FROM c a JOIN c b ON a.x = b.x WHERE a.x < 3) SELECT x FROM c", misuse),
  c("a recursive table read in a subquery of its recursive select", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < (SELECT count(*) FROM c)) SELECT x FROM c", err("sql_error")),
  c("a recursive table read only in a subquery", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT age FROM users WHERE age IN (SELECT x FROM c)) SELECT x FROM c", err("sql_error")),
  c("an aggregate in the recursive select", null,
    { kind: "select", from: W("c", S([AS(L(1), "x")], { compound: [{ op: "union-all", select: Q("c", [AS(AGG("max", "x"), "x")], { where: C("<", "x", 3) }) }] })), columns: "*" },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT max(x) + 1 FROM c WHERE x < 3) SELECT x FROM c", misuse),
  c("a window function in the recursive select", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + row_number() OVER () FROM c WHERE x < 3) SELECT x FROM c", err("sql_error")),

  // ---- misuse storedb refuses beyond SQLite
  c("ORDER BY in a recursive table (SQLite's queue order)", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 ORDER BY 1) SELECT x FROM c", err("sql_error")),
  c("DISTINCT in a recursive select", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT DISTINCT x + 1 FROM c WHERE x < 3) SELECT x FROM c", err("sql_error")),
  c("INTERSECT before a recursive select", null,
    { kind: "select", from: counter({ where: C("<", "x", 3) }, "intersect"), columns: "*" },
    "WITH RECURSIVE c(x) AS (SELECT 1 INTERSECT SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c", misuse),
  c("a select that does not read the table after one that does", null, null,
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3 UNION ALL SELECT 10) SELECT x FROM c", err("sql_error")),
  c("a recursion no LIMIT ends stops at 1,000,000 rows", null,
    { kind: "select", from: counter({}), columns: [AS(AGG("count", "x"), "n")] },
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(x) AS n FROM c", err("invalid_request")),
  c("a recursion whose text doubles stops at the bound on its text, before memory runs out", null, null,
    "WITH RECURSIVE r(s) AS (SELECT 'ab' UNION ALL SELECT s || s FROM r) SELECT length(s) AS n FROM r", err("invalid_request")),
  c("a fan-out past the bound stops as its rows are made", null, null,
    "WITH RECURSIVE big(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM big WHERE x < 4000), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r JOIN big ON TRUE) SELECT count(*) AS n FROM r",
    err("invalid_request")),
  c("a WITH table the builder reads stops at the bound too",
    (t) => t(withTable("c", t("users").select(val(0).as("n")).where(eq("id", "u1")).unionAll(t("c").select(col("n").add(1).as("n"))))).select("n").orderBy("n"),
    null, null, err("invalid_request")),
];
