/**
 * Outer-join simplification (`outer-joins.ts`): which joins a condition
 * after them makes inner or one-sided, one line per case, read from the
 * plan `explain` returns. A condition that may be TRUE on a padded row
 * (NULLs for the padded sources) must leave the join as written; the
 * results of these shapes are compared with SQLite by the conformance and
 * join-differential tests.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Engine } from "../../src/catalog/engine.js";
import type { PlanResult } from "../../src/commands/results.js";
import type { Value } from "../../src/commands/types.js";
import type { SelectPlan } from "../../src/planner/plan.js";

const engine = Engine.empty();
for (const name of ["a", "b", "c"]) {
  engine.execute({ kind: "create-table", schema: { name, columns: { id: "integer", x: "integer", s: "text", f: "boolean" }, primary_key: { columns: ["id"] } } });
}

function joinTypes(sql: string, params: readonly Value[] = []): string {
  const result = engine.execute({ kind: "explain", command: { kind: "sql", sql, params: [...params] } }).result as PlanResult;
  return (result.plan.statement as SelectPlan).joins.map((j) => j.type).join(" ");
}

const LEFT = "SELECT * FROM a LEFT JOIN b ON b.id = a.id";
const RIGHT = "SELECT * FROM a RIGHT JOIN b ON b.id = a.id";
const FULL = "SELECT * FROM a FULL JOIN b ON b.id = a.id";

const CASES: readonly (readonly [string, string, (readonly Value[])?])[] = [
  // Conditions that are never TRUE while b is NULL.
  [`${LEFT} WHERE b.x > 10`, "inner"],
  [`${LEFT} WHERE b.id IS NOT NULL`, "inner"],
  [`${LEFT} WHERE b.x = ?`, "inner", [3]],
  [`${LEFT} WHERE b.x = ?`, "inner", [null]],
  [`${LEFT} WHERE b.x + a.x > 1`, "inner"],
  [`${LEFT} WHERE lower(b.s) = 'q'`, "inner"],
  [`${LEFT} WHERE octet_length(b.s) > 1`, "inner"],
  [`${LEFT} WHERE likely(b.x > 10)`, "inner"],
  [`${LEFT} WHERE likelihood(b.f, 0.25)`, "inner"],
  [`${LEFT} WHERE b.s LIKE 'q%'`, "inner"],
  [`${LEFT} WHERE b.x IN (1, 2)`, "inner"],
  [`${LEFT} WHERE b.x NOT IN (1, 2)`, "inner"],
  [`${LEFT} WHERE b.x BETWEEN 1 AND 5`, "inner"],
  [`${LEFT} WHERE NOT (b.x IS NULL)`, "inner"],
  [`${LEFT} WHERE b.x IS 5`, "inner"],
  [`${LEFT} WHERE b.x IS ?`, "inner", [5]],
  [`${LEFT} WHERE b.x IS NOT b.id`, "inner"],
  [`${LEFT} WHERE b.f`, "inner"],
  [`${LEFT} WHERE b.f = TRUE AND a.x IS NULL`, "inner"],
  [`${LEFT} WHERE b.x > 1 OR b.s = 'q'`, "inner"],
  [`${LEFT} WHERE coalesce(b.f, FALSE)`, "inner"],
  [`${LEFT} WHERE CASE WHEN a.x > 0 THEN b.x > 1 ELSE FALSE END`, "inner"],
  [`${LEFT} WHERE nullif(b.x, a.x) > 1`, "inner"],
  [`${LEFT} WHERE CAST(b.x AS text) = '1'`, "inner"],
  // Conditions that may be TRUE while b is NULL.
  [`${LEFT} WHERE b.x IS NULL`, "left"],
  [`${LEFT} WHERE unlikely(b.x IS NULL)`, "left"],
  [`${LEFT} WHERE b.x IS ?`, "left", [null]],
  [`${LEFT} WHERE b.x IS a.x`, "left"],
  [`${LEFT} WHERE b.x IS NOT DISTINCT FROM a.x`, "left"],
  [`${LEFT} WHERE b.x IS NOT 5`, "left"],
  [`${LEFT} WHERE b.x IS DISTINCT FROM 5`, "left"],
  [`${LEFT} WHERE coalesce(b.x, 0) < 10`, "left"],
  // replace(x, '', NULL) is x: a NULL replacement leaves it able to pass; a NULL text or pattern does not.
  [`${LEFT} WHERE replace('A', a.s, b.s) LIKE 'a%'`, "left"],
  [`${LEFT} WHERE replace(b.s, a.s, 'x') LIKE 'a%'`, "inner"],
  [`${LEFT} WHERE replace('A', b.s, a.s) LIKE 'a%'`, "inner"],
  [`${LEFT} WHERE ifnull(b.f, TRUE)`, "left"],
  [`${LEFT} WHERE b.x > 1 OR a.x > 1`, "left"],
  [`${LEFT} WHERE b.x > 1 OR b.id IS NULL`, "left"],
  [`${LEFT} WHERE NOT (b.x > 1 AND FALSE)`, "left"],
  [`${LEFT} WHERE CASE WHEN b.x IS NULL THEN TRUE ELSE b.x > 1 END`, "left"],
  [`${LEFT} WHERE CASE WHEN a.x > 0 THEN b.x > 1 END IS NULL`, "left"],
  [`${LEFT} WHERE (b.x > 1) IS NOT TRUE`, "left"],
  [`${LEFT} WHERE typeof(b.x) = 'null'`, "left"],
  [`${LEFT} WHERE concat(b.s, 'q') = 'q'`, "left"],
  [`${LEFT} WHERE (a.x IN (SELECT c.x FROM c WHERE c.id = b.id)) IS NOT TRUE`, "left"],
  [`${LEFT} WHERE NOT EXISTS (SELECT 1 FROM c WHERE c.id = b.x)`, "left"],
  [`${LEFT} WHERE a.x > 1`, "left"],
  // A RIGHT join pads every source before it; a FULL join either side.
  [`${RIGHT} WHERE a.x > 1`, "inner"],
  [`${RIGHT} WHERE b.x > 1`, "right"],
  [`${FULL} WHERE a.x > 1`, "left"],
  [`${FULL} WHERE b.x > 1`, "right"],
  [`${FULL} WHERE a.x > 1 AND b.x > 1`, "inner"],
  [`${FULL} WHERE a.x > 1 OR b.x > 1`, "full"],
  [`${FULL} WHERE a.x = b.x`, "inner"],
  // A later inner or RIGHT join's ON filters the joins before it; a LEFT or FULL join's does not.
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id JOIN c ON c.x = b.x", "inner inner"],
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id LEFT JOIN c ON c.x = b.x", "left left"],
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id RIGHT JOIN c ON c.x = b.x", "inner right"],
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id FULL JOIN c ON c.x = b.x", "left full"],
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id JOIN c ON c.x = b.x OR b.x IS NULL", "left inner"],
  ["SELECT * FROM a RIGHT JOIN b ON b.id = a.id LEFT JOIN c ON c.id = a.id WHERE c.x > 0", "inner inner"],
  ["SELECT * FROM a FULL JOIN b ON b.id = a.id FULL JOIN c ON c.id = b.id WHERE c.x > 0", "right right"],
  ["SELECT * FROM a FULL JOIN b ON b.id = a.id FULL JOIN c ON c.id = b.id WHERE c.x > 0 AND b.x > 0", "right inner"],
  ["SELECT * FROM a FULL JOIN b ON b.id = a.id FULL JOIN c ON c.id = b.id WHERE a.x > 0", "left left"],
  // The ON of the join itself never simplifies it.
  ["SELECT * FROM a LEFT JOIN b ON b.id = a.id AND b.x > 1", "left"],
  // A merged USING column of a FULL join reads either side.
  ["SELECT * FROM a FULL JOIN b USING (id) WHERE id > 1", "full"],
  ["SELECT * FROM a FULL JOIN b USING (id) WHERE a.id > 1", "left"],
  ["SELECT * FROM a LEFT JOIN b USING (id) WHERE id > 1", "left"],
];

test("a condition after an outer join makes it inner only when no padded row can pass it", () => {
  for (const [sql, expected, params] of CASES) assert.is(joinTypes(sql, params), expected, sql);
});

test("explain shows the join as planned, the same from JSON", () => {
  const result = engine.execute({
    kind: "explain",
    command: { kind: "select", table: "a", columns: ["a.id"], joins: [{ type: "left", table: "b", on: { type: "literal", value: true } }], where: { type: "comparison", op: ">", left: { type: "identifier", name: "b.x" }, right: { type: "literal", value: 1 } } },
  }).result as PlanResult;
  assert.is((result.plan.statement as SelectPlan).joins[0]?.type, "inner");
});

test.run();
