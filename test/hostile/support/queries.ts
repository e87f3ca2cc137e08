/**
 * fast-check generators for selects over the fixed table, and a printer that
 * turns the same select into SQL text (with some literals sent as `?`
 * parameters), so one generated query is checked through both the JSON and
 * the SQL surface against the one reference.
 *
 * Selects read the table alone or joined (inner or left, by table name or an
 * alias) with the second table. Most comparisons are well typed; a share are
 * deliberately not (text against number, an unknown or ambiguous column, a
 * number used as a condition) so the error paths are fuzzed too.
 */
import fc from "fast-check";
import type { ComparisonOp, Expression, Value } from "../../../src/commands/types.js";
import { INTEGER_POOL, JOIN_TABLE, OUTPUT_COLUMNS, REAL_POOL, TABLE, TEXT_POOL, type ColumnType } from "./dataset.js";
import type { ReferenceSelect } from "./reference.js";

const OPS: readonly ComparisonOp[] = ["=", "!=", "<>", "<", "<=", ">", ">="];
const TYPES: readonly ColumnType[] = ["integer", "real", "text", "boolean"];

/** The names a query may write, by type, as they would be written in one FROM clause. */
interface Scope {
  readonly key: string;
  readonly names: Readonly<Record<ColumnType, readonly string[]>>;
  /** Names that are wrong here: unknown, wrong case, ambiguous. */
  readonly wrong: readonly string[];
}

const SINGLE: Scope = {
  key: TABLE,
  names: { integer: ["id", "n", "r", "id", "n", `${TABLE}.id`, `${TABLE}.n`], real: ["r", "n", `${TABLE}.r`], text: ["s", "s", `${TABLE}.s`], boolean: ["b", "big", `${TABLE}.big`] },
  wrong: ["nope", "T.n", "N", "u.id"],
};

function joinScope(alias: string): Scope {
  const t = (c: string) => `${TABLE}.${c}`;
  const a = (c: string) => `${alias}.${c}`;
  return {
    key: `${TABLE}+${alias}`,
    names: { integer: [t("id"), t("n"), a("id"), a("t_id"), "t_id", "n"], real: [t("r"), "r"], text: [t("s"), "s", a("tag"), "tag"], boolean: [t("b"), "b", "big", t("big")] },
    // Not the table's own name behind an alias: whether `u.tag` still works under `AS x` is the contract's gap.
    wrong: ["id", "nope", `${alias}.n`, alias === JOIN_TABLE ? "x.tag" : "y.tag"],
  };
}

function literalOf(type: ColumnType): fc.Arbitrary<Value> {
  switch (type) {
    case "integer":
      return fc.oneof(fc.constantFrom(...INTEGER_POOL), fc.integer({ min: -1000, max: 1000 }));
    case "real":
      return fc.oneof(fc.constantFrom(...REAL_POOL), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
    case "text":
      return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TEXT_POOL) }, { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }) });
    case "boolean":
      return fc.boolean();
  }
}

function operandOf(scope: Scope, type: ColumnType): fc.Arbitrary<Expression> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...scope.names[type]).map((name): Expression => ({ type: "identifier", name })) },
    { weight: 4, arbitrary: literalOf(type).map((value): Expression => ({ type: "literal", value })) },
    { weight: 1, arbitrary: fc.constant<Expression>({ type: "literal", value: null }) },
  );
}

function leafOf(scope: Scope): fc.Arbitrary<Expression> {
  const comparison = fc
    .tuple(fc.constantFrom(...TYPES), fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...TYPES) }))
    .chain(([left, mismatch]) => fc.tuple(operandOf(scope, left), operandOf(scope, mismatch ?? left), fc.constantFrom(...OPS)))
    .map(([left, right, op]): Expression => ({ type: "comparison", op, left, right }));
  const oddity = fc.oneof(
    fc.constantFrom(...scope.wrong).map((name): Expression => ({ type: "identifier", name })),
    fc.constantFrom<Expression>({ type: "identifier", name: "n" }, { type: "literal", value: 1 }, { type: "literal", value: "yes" }),
    operandOf(scope, "integer").map((left): Expression => ({ type: "comparison", op: "=", left: { type: "comparison", op: ">", left, right: { type: "literal", value: 1 } }, right: { type: "literal", value: true } })),
  );
  return fc.oneof(
    { weight: 12, arbitrary: comparison },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...TYPES).chain((type) => operandOf(scope, type)), fc.constantFrom(undefined, true, false))
        .map(([expr, not]): Expression => (not === undefined ? { type: "is-null", expr } : { type: "is-null", expr, not })),
    },
    { weight: 2, arbitrary: operandOf(scope, "boolean") },
    { weight: 1, arbitrary: oddity },
  );
}

const conditions = new Map<string, fc.Arbitrary<Expression>>();

/** A condition over `scope`, up to `depth` levels of and/or/not above the leaves. */
export function condition(depth = 3, scope: Scope = SINGLE): fc.Arbitrary<Expression> {
  const key = `${scope.key}:${depth}`;
  const cached = conditions.get(key);
  if (cached) return cached;
  const leaf = leafOf(scope);
  const inner = depth <= 0 ? leaf : condition(depth - 1, scope);
  const made =
    depth <= 0
      ? leaf
      : fc.oneof(
          { weight: 3, arbitrary: leaf },
          { weight: 2, arbitrary: fc.array(inner, { minLength: 1, maxLength: 4 }).map((operands): Expression => ({ type: "and", operands })) },
          { weight: 2, arbitrary: fc.array(inner, { minLength: 1, maxLength: 4 }).map((operands): Expression => ({ type: "or", operands })) },
          { weight: 1, arbitrary: inner.map((expr): Expression => ({ type: "not", expr })) },
        );
  conditions.set(key, made);
  return made;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const direction = fc.constantFrom<"asc" | "desc" | undefined>("asc", "desc", undefined);

/** Order by some names, then by names that make the order total (ties are unspecified). */
function ordering(names: readonly string[], tieBreakers: readonly string[]) {
  return fc.option(
    fc.tuple(fc.shuffledSubarray([...names], { maxLength: 2 }), fc.array(direction, { minLength: 4, maxLength: 4 })).map(([cols, dirs]) =>
      [...cols, ...tieBreakers].map((column, i) => (dirs[i] === undefined ? { column } : { column, direction: dirs[i]! })),
    ),
    { nil: undefined },
  );
}

const page = {
  limit: fc.option(fc.nat(25), { nil: undefined }),
  offset: fc.option(fc.nat(25), { nil: undefined }),
  output: fc.constantFrom<"objects" | "arrays" | undefined>(undefined, "objects", "arrays"),
};

function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const singleSelect: fc.Arbitrary<ReferenceSelect> = fc
  .record({
    columns: fc.oneof(fc.constant<"*">("*"), fc.shuffledSubarray(OUTPUT_COLUMNS, { minLength: 1 })),
    where: fc.option(condition(3), { nil: undefined }),
    orderBy: ordering(OUTPUT_COLUMNS.filter((c) => c !== "id"), ["id"]),
    ...page,
  })
  .map((r) => clean<Mutable<ReferenceSelect>>(r));

const joinedSelect: fc.Arbitrary<ReferenceSelect> = fc
  .tuple(fc.constantFrom<"inner" | "left">("inner", "left"), fc.constantFrom(JOIN_TABLE, "x"), fc.nat(3))
  .chain(([type, alias, onKind]) => {
    const scope = joinScope(alias);
    const a = (c: string) => ({ type: "identifier", name: `${alias}.${c}` }) as const;
    const t = (c: string) => ({ type: "identifier", name: `${TABLE}.${c}` }) as const;
    const on: fc.Arbitrary<Expression> = [
      fc.constant<Expression>({ type: "comparison", op: "=", left: t("id"), right: a("t_id") }),
      fc.constant<Expression>({ type: "comparison", op: "<=", left: t("n"), right: a("id") }),
      condition(0, scope).map((extra): Expression => ({ type: "and", operands: [{ type: "comparison", op: "=", left: a("t_id"), right: t("id") }, extra] })),
      condition(1, scope),
    ][onKind]!;
    const output = [...OUTPUT_COLUMNS.map((c) => `${TABLE}.${c}`), `${alias}.id`, `${alias}.t_id`, `${alias}.tag`, "tag", "s", "big", "t_id"];
    return fc.record({
      join: on.map((expr) => ({ type, table: JOIN_TABLE, on: expr, ...(alias === JOIN_TABLE ? {} : { as: alias }) })),
      columns: fc.oneof({ weight: 2, arbitrary: fc.constant<"*">("*") }, { weight: 5, arbitrary: fc.shuffledSubarray(output, { minLength: 1, maxLength: 5 }) }, { weight: 1, arbitrary: fc.constantFrom(["id"], [...scope.wrong]) }),
      where: fc.option(condition(2, scope), { nil: undefined }),
      orderBy: ordering([...scope.names.integer, ...scope.names.text, "b"], [`${TABLE}.id`, `${alias}.id`]),
      ...page,
    });
  })
  .map(({ join, ...r }) => clean<Mutable<ReferenceSelect>>({ ...r, joins: [join] }));

export const select: fc.Arbitrary<ReferenceSelect> = fc.oneof({ weight: 3, arbitrary: singleSelect }, { weight: 2, arbitrary: joinedSelect });

/** The JSON command for a generated select. */
export function selectCommand(s: ReferenceSelect): Record<string, unknown> {
  return { kind: "select", table: TABLE, ...s };
}

function plainNumber(n: number): string | undefined {
  if (Object.is(n, -0)) return "0";
  const text = String(n);
  return /^-?\d+(\.\d+)?$/.test(text) ? text : undefined;
}

/**
 * SQL text for a select; literals go inline or as `?` (always `?` where SQL
 * has no plain spelling, e.g. 1e300). OFFSET needs LIMIT in SQL, so the
 * returned `select` is what the SQL actually asks for.
 */
export function toSql(s: ReferenceSelect, inlineLiterals: boolean): { sql: string; params: Value[]; select: ReferenceSelect } {
  const params: Value[] = [];
  const lit = (value: Value): string => {
    if (value === null) return "NULL";
    if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
    if (inlineLiterals) {
      if (typeof value === "string" && !value.includes("\u0000")) return `'${value.replaceAll("'", "''")}'`;
      if (typeof value === "number" && plainNumber(value) !== undefined) return plainNumber(value)!;
    }
    params.push(value);
    return "?";
  };
  const expr = (e: Expression): string => {
    switch (e.type) {
      case "literal":
        return lit(e.value);
      case "identifier":
        return e.name;
      case "comparison":
        return `(${expr(e.left)} ${e.op} ${expr(e.right)})`;
      case "is-null":
        return `(${expr(e.expr)} IS ${e.not === true ? "NOT " : ""}NULL)`;
      case "and":
      case "or":
        return `(${e.operands.map(expr).join(e.type === "and" ? " AND " : " OR ")})`;
      case "not":
        return `(NOT ${expr(e.expr)})`;
      case "param":
        throw new Error("no params in generated expressions");
      default:
        throw new Error(`the fuzzers generate §5 expressions only, not ${e.type}`);
    }
  };
  let sql = `SELECT ${s.columns === "*" ? "*" : s.columns.join(", ")} FROM ${TABLE}`;
  for (const join of s.joins ?? []) {
    sql += ` ${join.type === "left" ? "LEFT" : "INNER"} JOIN ${join.table}${join.as ? ` AS ${join.as}` : ""} ON ${expr(join.on)}`;
  }
  if (s.where) sql += ` WHERE ${expr(s.where)}`;
  if (s.orderBy && s.orderBy.length > 0) sql += ` ORDER BY ${s.orderBy.map((o) => `${o.column}${o.direction ? ` ${o.direction.toUpperCase()}` : ""}`).join(", ")}`;
  const sqlSelect: Mutable<ReferenceSelect> = { columns: s.columns };
  if (s.joins) sqlSelect.joins = s.joins;
  if (s.where) sqlSelect.where = s.where;
  if (s.orderBy) sqlSelect.orderBy = s.orderBy;
  if (s.limit !== undefined) {
    sql += ` LIMIT ${s.limit}`;
    sqlSelect.limit = s.limit;
    if (s.offset !== undefined) {
      sql += ` OFFSET ${s.offset}`;
      sqlSelect.offset = s.offset;
    }
  }
  return { sql, params, select: sqlSelect };
}
