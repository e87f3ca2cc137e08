/**
 * Which collation a comparison or an ordering of text takes: SQLite's
 * rules (`sqlite3ExprCollSeq`, `sqlite3BinaryCompareCollSeq` and
 * `multiSelectCollSeq` in its sources), over bound expressions.
 *
 * An expression's collation is explicit when a `COLLATE` stands in it —
 * not inside a subquery — and then it is the first such one, looking at
 * left operands before right ones (`lower(x COLLATE nocase)` and
 * `(x COLLATE nocase) || 'y'` carry NOCASE); a CAST passes its operand's
 * on. Else a column has its own: a derived table's column the collation
 * of its select's expression, a stored column binary (storedb's columns
 * declare no other). Any other expression has none.
 *
 * A comparison takes its left side's explicit collation, else its right
 * side's, else its left column's, else its right column's, else binary. A GROUP BY key, a DISTINCT column, an ORDER BY key
 * and min/max's argument take their own; a compound's result column the
 * first select's that has one. Collations change only how two texts
 * compare: the binder keeps one only where a side can be text.
 */

import type { Collation } from "../commands/types.js";
import type { BoundExpr, TextCollation } from "./plan.js";
import { typeOf } from "./static-types.js";
import { children } from "./walk.js";

/** The first `COLLATE` in `e`'s own expression (not its subqueries'), left before right; undefined if none. */
export function explicitCollation(e: BoundExpr): Collation | undefined {
  if (e.kind === "collate") return e.collation;
  for (const child of children(e)) {
    const found = explicitCollation(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `e`'s collation as SQLite's `sqlite3ExprCollSeq` finds it: explicit, else a column's own (through CASTs), else none. */
export function exprCollation(e: BoundExpr): Collation | undefined {
  return explicitCollation(e) ?? columnCollation(e);
}

/** The collation of the column `e` is (through CASTs): a derived column's, else binary; undefined when `e` is no column. */
function columnCollation(e: BoundExpr): Collation | undefined {
  let x = e;
  while (x.kind === "cast" || x.kind === "assert-type") x = x.expr;
  return x.kind === "column" ? (x.collation ?? "binary") : undefined;
}

/** How `e`'s own texts compare (a GROUP BY key, a DISTINCT column, an ORDER BY key, min/max's argument); undefined: binary. */
export function collationOf(e: BoundExpr): TextCollation | undefined {
  return textual(exprCollation(e), [e]);
}

/** The collation of a comparison of `left` with `right` (`sqlite3BinaryCompareCollSeq`); undefined: binary. */
export function comparisonCollation(left: BoundExpr, right: BoundExpr): TextCollation | undefined {
  return textual(explicitCollation(left) ?? explicitCollation(right) ?? columnCollation(left) ?? columnCollation(right), [left, right]);
}

/** `collation` where it can matter — not binary, and a side may be text — else undefined. */
export function textual(collation: Collation | undefined, sides: readonly BoundExpr[]): TextCollation | undefined {
  if (collation === undefined || collation === "binary") return undefined;
  return sides.some((s) => {
    const t = typeOf(s);
    return t === "text" || t === "unknown";
  })
    ? collation
    : undefined;
}
