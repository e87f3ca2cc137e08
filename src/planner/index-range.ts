/**
 * Index ranges for the `access-path` pass: which secondary index, walked in
 * key order, reaches a query's rows best when no key lookup does.
 *
 * An index is a candidate when its walk narrows the rows — equality on some
 * leading columns (constants or parameters), then on the next column a
 * bound (`<`, `<=`, `>`, `>=`, BETWEEN; the first of each side is taken) or
 * a LIKE whose pattern may have a literal start — or when it yields the
 * rows in ORDER BY's order and a LIMIT lets the walk stop early. ORDER BY
 * is served when its keys, less columns fixed by equality, are exactly the
 * index's remaining columns, all one direction: ties on the whole key then
 * come in table order, as the stable sort would give them (a shorter ORDER
 * BY would see ties ordered by later index columns instead).
 *
 * Candidates rank by equality columns, then a two-sided bound over one
 * side or a LIKE, then serving ORDER BY; the first index wins a tie. With
 * no statistics this is a rule, not a cost: a bound is taken to narrow.
 */

import type { AccessPath, BoundExpr, RangeBound, SortKey } from "./plan.js";
import type { KeyInfo, TableInfo } from "./table-info.js";

/** What the access path may serve besides WHERE: a select's ORDER BY, and whether a LIMIT cuts it short. */
export interface OrderWanted {
  readonly orderBy: readonly SortKey[];
  readonly limited: boolean;
}

export function isSlotOrConst(e: BoundExpr): boolean {
  return e.kind === "const" || e.kind === "param";
}

/** A const pattern with a wildcard first has no literal start to seek. */
function seekable(pattern: BoundExpr): boolean {
  if (pattern.kind !== "const") return pattern.kind === "param";
  return typeof pattern.value === "string" && pattern.value !== "" && pattern.value[0] !== "%" && pattern.value[0] !== "_";
}

interface Narrowing {
  lower?: RangeBound;
  upper?: RangeBound;
  like?: { readonly pattern: BoundExpr; readonly escape?: BoundExpr };
}

const FLIP = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as const;

/** Bounds and LIKE prefixes on column `position` of the first source among `terms`. */
function narrowing(terms: readonly BoundExpr[], position: number, text: boolean): Narrowing {
  const found: Narrowing = {};
  const isColumn = (e: BoundExpr): boolean => e.kind === "column" && e.source === 0 && e.column === position;
  for (const t of terms) {
    // An index orders texts by code point: a comparison in another collation narrows nothing here.
    if (t.kind === "compare" && t.collation !== undefined) continue;
    if (t.kind === "compare" && t.op !== "=" && t.op !== "<>") {
      const [op, other] = isColumn(t.left) ? [t.op, t.right] : isColumn(t.right) ? [FLIP[t.op], t.left] : [undefined, t.left];
      if (op === undefined || !isSlotOrConst(other)) continue;
      const bound = { value: other, inclusive: op === "<=" || op === ">=" };
      if (op === ">" || op === ">=") found.lower ??= bound;
      else found.upper ??= bound;
    } else if (t.kind === "between" && !t.not && t.lowCollation === undefined && t.highCollation === undefined && isColumn(t.expr) && isSlotOrConst(t.low) && isSlotOrConst(t.high)) {
      found.lower ??= { value: t.low, inclusive: true };
      found.upper ??= { value: t.high, inclusive: true };
    } else if (t.kind === "like" && !t.not && text && isColumn(t.expr) && seekable(t.pattern) && (t.escape === undefined || isSlotOrConst(t.escape))) {
      found.like ??= t.escape === undefined ? { pattern: t.pattern } : { pattern: t.pattern, escape: t.escape };
    }
  }
  return found;
}

/** The direction in which walking `key` past its first `fixed` columns gives ORDER BY's order; undefined when it does not. */
function servedOrder(orderBy: readonly SortKey[], key: KeyInfo, fixed: number, types: TableInfo["types"]): "asc" | "desc" | undefined {
  const held = new Set(key.positions.slice(0, fixed));
  const rest = orderBy.filter((k) => !(k.expr.kind === "column" && k.expr.source === 0 && held.has(k.expr.column)));
  const wanted = key.positions.slice(fixed);
  if (rest.length !== wanted.length || rest.length === 0) return undefined;
  const direction = rest[0]?.direction;
  // The walk puts NULL first going up and last going down: a key that wants it elsewhere is not served.
  const nullsAsWalked = (k: SortKey): boolean => k.nulls === undefined || k.nulls === (k.direction === "asc" ? "first" : "last");
  // The walk orders texts by code point: a text key sorted in NOCASE or RTRIM is not served.
  const binary = (k: SortKey, column: number): boolean => k.collation === undefined || types[column] !== "text";
  const fits = rest.every((k, i) => k.expr.kind === "column" && k.expr.source === 0 && k.expr.column === wanted[i] && k.direction === direction && nullsAsWalked(k) && binary(k, k.expr.column));
  return fits ? direction : undefined;
}

export function chooseRange(table: TableInfo, terms: readonly BoundExpr[], eq: ReadonlyMap<number, BoundExpr>, order: OrderWanted | undefined): AccessPath | undefined {
  let best: { score: number; path: AccessPath } | undefined;
  for (const key of table.keys) {
    if (key.kind !== "index") continue;
    let fixed = 0;
    while (fixed < key.positions.length && eq.has(key.positions[fixed] as number)) fixed++;
    const next = key.positions[fixed];
    const found: Narrowing = next === undefined ? {} : narrowing(terms, next, table.types[next] === "text");
    const bounds = found.lower !== undefined && found.upper !== undefined ? 2 : found.lower !== undefined || found.upper !== undefined ? 1 : 0;
    const direction = order === undefined || order.orderBy.length === 0 ? undefined : servedOrder(order.orderBy, key, fixed, table.types);
    const serves = direction !== undefined && (order?.limited ?? false);
    // A LIKE is used only without bounds on the column (both narrow it; one range walk takes one).
    const like = bounds === 0 ? found.like : undefined;
    const score = fixed * 8 + (bounds === 2 ? 4 : bounds === 1 || like !== undefined ? 2 : 0) + (serves ? 1 : 0);
    if (score === 0 || (best !== undefined && best.score >= score)) continue;
    best = {
      score,
      path: {
        kind: "index-range",
        index: key.name,
        columns: key.columns,
        equal: key.positions.slice(0, fixed).map((p) => eq.get(p) as BoundExpr),
        ...(bounds > 0 && found.lower !== undefined ? { lower: found.lower } : {}),
        ...(bounds > 0 && found.upper !== undefined ? { upper: found.upper } : {}),
        ...(like !== undefined ? { like } : {}),
        order: direction ?? "table",
      },
    };
  }
  return best?.path;
}
