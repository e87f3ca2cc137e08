/**
 * Conformance cases for window functions (JSON `{"type":"window"}`, SQL
 * `f(…) OVER (…)` and the WINDOW clause, the builder's `over()`): ranking,
 * ntile, lag and lead, first and last value, running and moving aggregates
 * in ROWS, GROUPS and the default RANGE frame, EXCLUDE, windows over a
 * grouping, ORDER BY by a window's result name, the rows' order without
 * ORDER BY (the window's, as SQLite's); and the refusals: a window function
 * in WHERE, RANGE with an offset over two keys, a frame that starts after
 * it ends, a sum of text, ntile of 0.
 *
 * Fixture rows (see `fixture.ts`): orders 1..6 of users u1, u1, u2, u3, u5,
 * u5, amounts 250, 20, 99.5, 100, 5, NULL; statuses shipped, new, shipped,
 * cancelled, new, new.
 */

import { count, cumeDist, denseRank, firstValue, gt, lag, lastValue, lead, ntile, over, rank, rowNumber, sum } from "../../src/api/expressions.js";
import type { Expression, OrderBy, WindowSpec } from "../../src/commands/types.js";
import { AS, C, I, L, c, err, misuse, rows, sel, type Case } from "./dsl.js";

const orders = "orders";
const byId: OrderBy[] = [{ column: "id" }];
const AGG = (name: string, arg: string): Expression => ({ type: "aggregate", name, arg: I(arg) }) as Expression;
const W = (name: string, args: Expression[], spec: WindowSpec = {}): Expression => ({ type: "window", name, args, over: spec }) as Expression;

export const windowCases: readonly Case[] = [
  c("row_number per partition, the partition sorted descending (NULLs last)",
    (t) => t(orders).select("id", over(rowNumber(), { partitionBy: ["user_id"], orderBy: [{ column: "amount", direction: "desc" }] }).as("rn")).orderBy("id"),
    sel(orders, ["id", AS(W("row_number", [], { partitionBy: [I("user_id")], orderBy: [{ column: "amount", direction: "desc" }] }), "rn")], { orderBy: byId }),
    "SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY amount DESC) AS rn FROM orders ORDER BY id",
    rows(["id", "rn"], [1, 1], [2, 2], [3, 1], [4, 1], [5, 1], [6, 2])),
  c("rank leaves gaps after ties, dense_rank does not; cume_dist counts up to the last peer",
    (t) => t(orders).select("id", over(rank(), { orderBy: ["status"] }).as("r"), over(denseRank(), { orderBy: ["status"] }).as("d"), over(cumeDist(), { orderBy: ["status"] }).as("c")).orderBy("id"),
    sel(orders, ["id", AS(W("rank", [], { orderBy: [{ column: "status" }] }), "r"), AS(W("dense_rank", [], { orderBy: [{ column: "status" }] }), "d"), AS(W("cume_dist", [], { orderBy: [{ column: "status" }] }), "c")], { orderBy: byId }),
    "SELECT id, rank() OVER (ORDER BY status) AS r, dense_rank() OVER (ORDER BY status) AS d, cume_dist() OVER (ORDER BY status) AS c FROM orders ORDER BY id",
    rows(["id", "r", "d", "c"], [1, 5, 3, 1], [2, 2, 2, 4 / 6], [3, 5, 3, 1], [4, 1, 1, 1 / 6], [5, 2, 2, 4 / 6], [6, 2, 2, 4 / 6])),
  c("a running sum: the default frame runs to the current row's last peer",
    (t) => t(orders).select("id", over(sum("amount"), { orderBy: ["id"] }).as("total")),
    sel(orders, ["id", AS(W("sum", [I("amount")], { orderBy: byId }), "total")]),
    "SELECT id, sum(amount) OVER (ORDER BY id) AS total FROM orders",
    rows(["id", "total"], [1, 250], [2, 270], [3, 369.5], [4, 469.5], [5, 474.5], [6, 474.5])),
  c("a moving sum over ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
    (t) => t(orders).select("id", over(sum("amount"), { orderBy: ["id"], frame: { units: "rows", start: { preceding: 1 }, end: { following: 1 } } }).as("s")).orderBy("id"),
    sel(orders, ["id", AS(W("sum", [I("amount")], { orderBy: byId, frame: { units: "rows", start: { preceding: 1 }, end: { following: 1 } } }), "s")], { orderBy: byId }),
    "SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM orders ORDER BY id",
    rows(["id", "s"], [1, 270], [2, 369.5], [3, 219.5], [4, 204.5], [5, 105], [6, 5])),
  c("lag with a default and lead past the end",
    (t) => t(orders).select("id", over(lag("amount", 1, 0), { orderBy: ["id"] }).as("before"), over(lead("id"), { orderBy: ["id"] }).as("next")).orderBy("id"),
    sel(orders, ["id", AS(W("lag", [I("amount"), L(1), L(0)], { orderBy: byId }), "before"), AS(W("lead", [I("id")], { orderBy: byId }), "next")], { orderBy: byId }),
    "SELECT id, lag(amount, 1, 0) OVER (ORDER BY id) AS before, lead(id) OVER (ORDER BY id) AS next FROM orders ORDER BY id",
    rows(["id", "before", "next"], [1, 0, 2], [2, 250, 3], [3, 20, 4], [4, 99.5, 5], [5, 100, 6], [6, 5, null])),
  c("first_value and last_value over the whole partition",
    (t) => {
      const window = { partitionBy: ["user_id"], orderBy: ["id"], frame: { units: "rows", start: "unbounded preceding", end: "unbounded following" } } as const;
      return t(orders).select("id", over(firstValue("id"), window).as("f"), over(lastValue("id"), window).as("l")).orderBy("id");
    },
    sel(orders, ["id", ...(["first_value", "last_value"] as const).map((name, i) =>
      AS(W(name, [I("id")], { partitionBy: [I("user_id")], orderBy: byId, frame: { units: "rows", start: "unbounded preceding", end: "unbounded following" } }), i === 0 ? "f" : "l"))], { orderBy: byId }),
    "SELECT id, first_value(id) OVER w AS f, last_value(id) OVER w AS l FROM orders WINDOW w AS (PARTITION BY user_id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY id",
    rows(["id", "f", "l"], [1, 1, 2], [2, 1, 2], [3, 3, 3], [4, 4, 4], [5, 5, 6], [6, 5, 6])),
  c("GROUPS frame with EXCLUDE GROUP: the neighbouring users' orders, not one's own",
    (t) => t(orders).select("id", over(sum("amount"), { orderBy: ["user_id"], frame: { units: "groups", start: { preceding: 1 }, end: { following: 1 }, exclude: "group" } }).as("s")).orderBy("id"),
    sel(orders, ["id", AS(W("sum", [I("amount")], { orderBy: [{ column: "user_id" }], frame: { units: "groups", start: { preceding: 1 }, end: { following: 1 }, exclude: "group" } }), "s")], { orderBy: byId }),
    "SELECT id, sum(amount) OVER (ORDER BY user_id GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) AS s FROM orders ORDER BY id",
    rows(["id", "s"], [1, 99.5], [2, 99.5], [3, 370], [4, 104.5], [5, 100], [6, 100])),
  c("a window over a grouping ranks the groups by their aggregate",
    (t) => t(orders).select("user_id", sum("amount").as("total"), over(rank(), { orderBy: [{ expr: sum("amount"), direction: "desc" }] }).as("r")).groupBy("user_id").orderBy("user_id"),
    sel(orders, ["user_id", AS(AGG("sum", "amount"), "total"), AS(W("rank", [], { orderBy: [{ expr: AGG("sum", "amount"), direction: "desc" }] }), "r")], { groupBy: [I("user_id")], orderBy: [{ column: "user_id" }] }),
    "SELECT user_id, sum(amount) AS total, rank() OVER (ORDER BY sum(amount) DESC) AS r FROM orders GROUP BY user_id ORDER BY user_id",
    rows(["user_id", "total", "r"], ["u1", 270, 1], ["u2", 99.5, 3], ["u3", 100, 2], ["u5", 5, 4])),
  c("ntile: the first buckets take the extra rows",
    (t) => t(orders).select("id", over(ntile(4), { orderBy: ["id"] }).as("q")).orderBy("id"),
    sel(orders, ["id", AS(W("ntile", [L(4)], { orderBy: byId }), "q")], { orderBy: byId }),
    "SELECT id, ntile(4) OVER (ORDER BY id) AS q FROM orders ORDER BY id",
    rows(["id", "q"], [1, 1], [2, 1], [3, 2], [4, 2], [5, 3], [6, 4])),
  c("ORDER BY a window's result name, after the WHERE",
    (t) => t(orders).select("id", over(count(), { partitionBy: ["user_id"] }).as("n")).where(gt("id", 1)).orderBy("n", "desc").orderBy("id"),
    sel(orders, ["id", AS(W("count", [], { partitionBy: [I("user_id")] }), "n")], { where: C(">", "id", 1), orderBy: [{ column: "n", direction: "desc" }, { column: "id" }] }),
    "SELECT id, count(*) OVER (PARTITION BY user_id) AS n FROM orders WHERE id > 1 ORDER BY n DESC, id",
    rows(["id", "n"], [5, 2], [6, 2], [2, 1], [3, 1], [4, 1])),
  c("without ORDER BY, rows come in the window's order (NULL first ascending), as SQLite's",
    (t) => t(orders).select("id", over(rowNumber(), { orderBy: ["amount"] }).as("rn")),
    sel(orders, ["id", AS(W("row_number", [], { orderBy: [{ column: "amount" }] }), "rn")]),
    "SELECT id, row_number() OVER (ORDER BY amount) AS rn FROM orders",
    rows(["id", "rn"], [6, 1], [5, 2], [2, 3], [3, 4], [4, 5], [1, 6])),
  c("a window extends a named one: its PARTITION BY, then ORDER BY and a frame of its own",
    (t) => t(orders).select("id", over(sum("amount"), { partitionBy: ["user_id"], orderBy: ["id"], frame: { units: "rows", start: { preceding: 1 } } }).as("s")).orderBy("id"),
    sel(orders, ["id", AS(W("sum", [I("amount")], { partitionBy: [I("user_id")], orderBy: byId, frame: { units: "rows", start: { preceding: 1 } } }), "s")], { orderBy: byId }),
    "SELECT id, sum(amount) OVER w2 AS s FROM orders WINDOW w AS (PARTITION BY user_id), w2 AS (w ORDER BY id ROWS 1 PRECEDING) ORDER BY id",
    rows(["id", "s"], [1, 250], [2, 270], [3, 99.5], [4, 100], [5, 5], [6, 5])),
  c("over and window stay names where no window follows them",
    (t) => t(orders).select(count().as("over")),
    sel(orders, [AS({ type: "aggregate", name: "count" } as Expression, "over")]),
    "SELECT count(*) over FROM orders",
    rows(["over"], [6]),
    [sel(orders, [AS(I("window.id"), "window")], { as: "window", where: C("=", "window.id", 2) }), rows(["window"], [2])]),
  c("window as a table's alias and a column's, in SQL",
    null,
    sel(orders, [AS(I("window.id"), "window")], { as: "window", where: C("=", "window.id", 2) }),
    "SELECT window.id window FROM orders window WHERE window.id = 2",
    rows(["window"], [2])),
  c("a window function in VALUES is misuse: there are no rows",
    null,
    null,
    "INSERT INTO orders (id, user_id) VALUES (7, row_number() OVER ())",
    err("sql_error")),
  c("a window function in WHERE is misuse",
    null,
    sel(orders, ["id"], { where: C(">", W("row_number", []), 1) }),
    "SELECT id FROM orders WHERE row_number() OVER () > 1",
    misuse),
  c("RANGE with an offset needs exactly one ORDER BY term",
    null,
    sel(orders, ["id", AS(W("sum", [I("amount")], { orderBy: [{ column: "id" }, { column: "amount" }], frame: { units: "range", start: { preceding: 1 } } }), "s")]),
    "SELECT id, sum(amount) OVER (ORDER BY id, amount RANGE 1 PRECEDING) AS s FROM orders",
    misuse),
  c("a frame may not start after it ends",
    null,
    sel(orders, ["id", AS(W("sum", [I("amount")], { orderBy: byId, frame: { units: "rows", start: { following: 1 }, end: "current row" } }), "s")]),
    "SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) AS s FROM orders",
    misuse),
  c("sum() over a window takes numbers",
    (t) => t(orders).select("id", over(sum("status")).as("s")),
    sel(orders, ["id", AS(W("sum", [I("status")]), "s")]),
    "SELECT id, sum(status) OVER () AS s FROM orders",
    err("type_mismatch")),
  c("ntile's bucket count is a positive integer, checked when it runs",
    (t) => t(orders).select("id", over(ntile(0), { orderBy: ["id"] }).as("q")),
    sel(orders, ["id", AS(W("ntile", [L(0)], { orderBy: byId }), "q")]),
    "SELECT id, ntile(0) OVER (ORDER BY id) AS q FROM orders",
    err("invalid_request")),
];
