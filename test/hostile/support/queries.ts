/**
 * fast-check generators for selects over the fixed table, and a printer that
 * turns the same select into SQL text (with some literals sent as `?`
 * parameters), so one generated query is checked through both the JSON and
 * the SQL surface against the one reference.
 *
 * Most comparisons are well typed; a share are deliberately not (text against
 * number, an unknown column, a number used as a condition) so the error
 * paths are fuzzed too.
 */
import fc from "fast-check";
import type { ComparisonOp, Expression, Value } from "../../../src/commands/types.js";
import { INTEGER_POOL, OUTPUT_COLUMNS, REAL_POOL, TABLE, TEXT_POOL, type ColumnType } from "./dataset.js";
import type { ReferenceSelect } from "./reference.js";

const OPS: readonly ComparisonOp[] = ["=", "!=", "<>", "<", "<=", ">", ">="];
const COLUMNS_OF: Readonly<Record<ColumnType, readonly string[]>> = { integer: ["id", "n", "r"], real: ["r", "n"], text: ["s"], boolean: ["b", "big"] };

function name(column: string): fc.Arbitrary<string> {
  return fc.constantFrom(column, column, column, `${TABLE}.${column}`);
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

function operandOf(type: ColumnType): fc.Arbitrary<Expression> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...COLUMNS_OF[type]).chain(name).map((n): Expression => ({ type: "identifier", name: n })) },
    { weight: 4, arbitrary: literalOf(type).map((value): Expression => ({ type: "literal", value })) },
    { weight: 1, arbitrary: fc.constant<Expression>({ type: "literal", value: null }) },
  );
}

const TYPES: readonly ColumnType[] = ["integer", "real", "text", "boolean"];

const comparison: fc.Arbitrary<Expression> = fc
  .tuple(fc.constantFrom(...TYPES), fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...TYPES) }))
  .chain(([left, mismatch]) => fc.tuple(operandOf(left), operandOf(mismatch ?? left), fc.constantFrom(...OPS)))
  .map(([left, right, op]): Expression => ({ type: "comparison", op, left, right }));

const oddity: fc.Arbitrary<Expression> = fc.oneof(
  fc.constantFrom<Expression>(
    { type: "identifier", name: "nope" },
    { type: "identifier", name: "T.n" },
    { type: "identifier", name: "N" },
    { type: "identifier", name: "n" },
    { type: "literal", value: 1 },
    { type: "literal", value: "yes" },
  ),
  operandOf("integer").map((left): Expression => ({ type: "comparison", op: "=", left: { type: "comparison", op: ">", left, right: { type: "literal", value: 1 } }, right: { type: "literal", value: true } })),
);

const leaf: fc.Arbitrary<Expression> = fc.oneof(
  { weight: 12, arbitrary: comparison },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...TYPES).chain(operandOf), fc.constantFrom(undefined, true, false))
      .map(([expr, not]): Expression => (not === undefined ? { type: "is-null", expr } : { type: "is-null", expr, not })),
  },
  { weight: 2, arbitrary: operandOf("boolean") },
  { weight: 1, arbitrary: oddity },
);

const byDepth = new Map<number, fc.Arbitrary<Expression>>();

/** A condition up to `depth` levels of and/or/not above the leaves. */
export function condition(depth = 3): fc.Arbitrary<Expression> {
  const cached = byDepth.get(depth);
  if (cached) return cached;
  const inner = depth <= 0 ? leaf : condition(depth - 1);
  const made =
    depth <= 0
      ? leaf
      : fc.oneof(
          { weight: 3, arbitrary: leaf },
          { weight: 2, arbitrary: fc.array(inner, { minLength: 1, maxLength: 4 }).map((operands): Expression => ({ type: "and", operands })) },
          { weight: 2, arbitrary: fc.array(inner, { minLength: 1, maxLength: 4 }).map((operands): Expression => ({ type: "or", operands })) },
          { weight: 1, arbitrary: inner.map((expr): Expression => ({ type: "not", expr })) },
        );
  byDepth.set(depth, made);
  return made;
}

export const select: fc.Arbitrary<ReferenceSelect> = fc
  .record(
    {
      columns: fc.oneof(fc.constant<"*">("*"), fc.shuffledSubarray(OUTPUT_COLUMNS, { minLength: 1 })),
      where: condition(3),
      orderBy: fc.option(
        fc.tuple(fc.shuffledSubarray(OUTPUT_COLUMNS.filter((c) => c !== "id"), { maxLength: 2 }), fc.array(fc.constantFrom<"asc" | "desc" | undefined>("asc", "desc", undefined), { minLength: 3, maxLength: 3 })),
        { nil: undefined },
      ),
      limit: fc.option(fc.nat(25), { nil: undefined }),
      offset: fc.option(fc.nat(25), { nil: undefined }),
      output: fc.constantFrom<"objects" | "arrays" | undefined>(undefined, "objects", "arrays"),
    },
    { requiredKeys: ["columns"] },
  )
  .map((r) => {
    const out: { -readonly [K in keyof ReferenceSelect]: ReferenceSelect[K] } = { columns: r.columns };
    if (r.where !== undefined) out.where = r.where;
    if (r.orderBy !== undefined) {
      // Ties are unspecified, so every ordering ends on the primary key.
      const [cols, dirs] = r.orderBy;
      out.orderBy = [...cols, "id"].map((column, i) => (dirs[i] === undefined ? { column } : { column, direction: dirs[i] }));
    }
    if (r.limit !== undefined) out.limit = r.limit;
    if (r.offset !== undefined) out.offset = r.offset;
    if (r.output !== undefined) out.output = r.output;
    return out;
  });

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
    }
  };
  let sql = `SELECT ${s.columns === "*" ? "*" : s.columns.join(", ")} FROM ${TABLE}`;
  if (s.where) sql += ` WHERE ${expr(s.where)}`;
  if (s.orderBy && s.orderBy.length > 0) sql += ` ORDER BY ${s.orderBy.map((o) => `${o.column}${o.direction ? ` ${o.direction.toUpperCase()}` : ""}`).join(", ")}`;
  const sqlSelect: { -readonly [K in keyof ReferenceSelect]: ReferenceSelect[K] } = { columns: s.columns };
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
