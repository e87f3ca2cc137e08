/**
 * Grouping (CONTRACT §11): GROUP BY's keys, and the rewrite that makes
 * everything after the grouping — the select list, HAVING, ORDER BY — read
 * groups instead of source rows.
 *
 * A GROUP BY term is an expression over the sources; an integer literal is
 * a column number of the select list (any other literal a constant), and a
 * name no source has is a result name (as in SQLite; `binder` reads them).
 * Neither may be an aggregate.
 *
 * The rewrite replaces each part of an expression that is one of the keys
 * (compared as bound expressions, so `a + 1` matches `a + 1` wherever it
 * was written, and a computed field its own expression) by a `group-key`
 * reference; aggregates are already `aggregate` references. A source column
 * left over is neither grouped nor aggregated: `sql_error` from SQL,
 * `invalid_request` from JSON, naming it.
 */

import type { Collation, Expression } from "../commands/types.js";
import { StoreError } from "../errors.js";
import type { ExprBinder } from "./bind-expr.js";
import type { BoundExpr, OutputColumn } from "./plan.js";
import { typeOf } from "./static-types.js";
import { mapChildren, sameExprKey, some } from "./walk.js";

const isAggregate = (e: BoundExpr): boolean => some(e, (x) => x.kind === "aggregate");

/** The GROUP BY keys, bound over the sources and result names (`binder` refuses aggregates). */
export function bindGroupBy(items: readonly Expression[], binder: ExprBinder): BoundExpr[] {
  const columns = binder.results ?? [];
  return items.map((written) => binder.at(written, () => {
    // `GROUP BY 1 COLLATE nocase` and a result name under COLLATE still name the result column (as SQLite): the COLLATEs go around it.
    const collations: Collation[] = [];
    let item = written;
    while (item.type === "collate") {
      collations.push(item.collation);
      item = item.expr;
    }
    const number = item.type === "literal" && Number.isInteger(item.value);
    if (!number && !(item.type === "identifier" && item.name.indexOf(".") < 0)) item = written;
    let key: BoundExpr | undefined;
    if (item.type === "literal" && Number.isInteger(item.value)) {
      const column = columns[(item.value as number) - 1];
      if (column === undefined) throw binder.misuse(`GROUP BY column number ${item.value} is out of range: the select list has ${columns.length} column(s)`);
      key = column.expr;
    } else {
      key = binder.bind(item);
    }
    if (item !== written) for (let i = collations.length - 1; i >= 0; i--) key = { kind: "collate", expr: key, collation: collations[i]! };
    if (isAggregate(key)) throw binder.misuse("GROUP BY cannot group by an aggregate");
    return key;
  }));
}

/** `e` over groups: its parts that are keys become key references; a source column left is an error naming it. */
export function overGroups(e: BoundExpr, keys: readonly BoundExpr[], binder: ExprBinder, where: string): BoundExpr {
  const texts = keys.map(sameExprKey);
  // A key under COLLATE also stands for its expression without it (`SELECT name … GROUP BY name COLLATE nocase`, as SQLite): its group's first value.
  const bare = keys.map((k) => {
    while (k.kind === "collate") k = k.expr;
    return sameExprKey(k);
  });
  const rewrite = (x: BoundExpr): BoundExpr => {
    // Constants, parameters, aggregates and a subquery's outer values are the same for a whole group.
    if (x.kind === "const" || x.kind === "param" || x.kind === "aggregate" || x.kind === "window" || x.kind === "outer" || x.kind === "group-key") return x;
    const text = sameExprKey(x);
    let index = texts.indexOf(text);
    if (index < 0) index = bare.indexOf(text);
    if (index >= 0) return { kind: "group-key", index, type: typeOf(keys[index]!) };
    if (x.kind === "column") {
      throw binder.misuse(`Column "${x.name}" in ${where} is neither grouped nor aggregated: add it to GROUP BY or use it in an aggregate`);
    }
    return mapChildren(x, rewrite);
  };
  return rewrite(e);
}
