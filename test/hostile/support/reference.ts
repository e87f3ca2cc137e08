/**
 * An independent reference for selects over a table and its joins: a tiny
 * tree-walking evaluator with SQL three-valued logic, written from CONTRACT
 * §4–§5 and sharing no code with the engine. The fuzzers compare every
 * accepted query with it.
 *
 * Rows are keyed by qualified name (`t.id`, `x.tag`); a name resolves as §4
 * says: qualified by source (alias, else table), or bare when exactly one
 * source has it (two: `ambiguous_column`; none: `unknown_column`).
 *
 * `check` decides statically what the contract says must happen before any
 * row is read: run, a 400 with a given code, or "unspecified" where the
 * contract is silent (a number compared with a boolean, a non-boolean used as
 * a condition) — there only the error shape is checked, not the rows.
 */
import type { Expression, Value } from "../../../src/commands/types.js";
import type { ColumnType, Row } from "./dataset.js";

export type Verdict = { readonly kind: "ok" } | { readonly kind: "error"; readonly codes: readonly string[] } | { readonly kind: "unspecified" };

type StaticType = ColumnType | "null" | "bool-result";

class Rejected extends Error {
  constructor(readonly verdict: Verdict) {
    super("rejected");
  }
}

const MAX_DEPTH = 256;

function family(type: StaticType): "text" | "number" | "boolean" | "null" {
  switch (type) {
    case "text":
      return "text";
    case "integer":
    case "real":
      return "number";
    case "boolean":
    case "bool-result":
      return "boolean";
    case "null":
      return "null";
  }
}

function literalType(value: Value): StaticType {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return "text";
    case "number":
      return Number.isInteger(value) ? "integer" : "real";
    case "boolean":
      return "boolean";
  }
}

/** A source of rows in a select: the table, or a join by its alias (else its table name). */
export interface Source {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
}

/** A row of the joined relation, keyed `source.column`. */
export type QRow = Readonly<Record<string, Value>>;

export type Resolved = { readonly key: string; readonly type: ColumnType } | { readonly error: "unknown_column" | "ambiguous_column" };

export function resolve(name: string, sources: readonly Source[]): Resolved {
  const has = (source: Source, column: string) => Object.prototype.hasOwnProperty.call(source.columns, column);
  const dot = name.indexOf(".");
  if (dot >= 0) {
    const source = sources.find((s) => s.name === name.slice(0, dot));
    const column = name.slice(dot + 1);
    return source && has(source, column) ? { key: name, type: source.columns[column]! } : { error: "unknown_column" };
  }
  const matches = sources.filter((s) => has(s, name));
  if (matches.length === 0) return { error: "unknown_column" };
  if (matches.length > 1) return { error: "ambiguous_column" };
  return { key: `${matches[0]!.name}.${name}`, type: matches[0]!.columns[name]! };
}

export function qualify(row: Readonly<Record<string, Value>>, source: string): QRow {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [`${source}.${column}`, value]));
}

/**
 * The verdict for a where clause. Every contract error in the tree is
 * collected (which one the server names first is its choice); a construct
 * the contract leaves open also allows `type_mismatch`, the code a strict
 * engine gives it.
 */
export function check(expr: Expression, sources: readonly Source[]): Verdict {
  const errors = new Set<string>();
  let unspecified = false;
  const condition = (e: Expression, depth: number): void => {
    const f = family(typeOf(e, depth));
    if (f !== "boolean" && f !== "null") unspecified = true;
  };
  const typeOf = (e: Expression, depth: number): StaticType => {
    if (depth > MAX_DEPTH) throw new Rejected({ kind: "error", codes: ["invalid_request"] });
    switch (e.type) {
      case "literal":
        return literalType(e.value);
      case "identifier": {
        const found = resolve(e.name, sources);
        if ("key" in found) return found.type;
        errors.add(found.error);
        return "null";
      }
      case "comparison": {
        const left = family(typeOf(e.left, depth + 1));
        const right = family(typeOf(e.right, depth + 1));
        if (left !== "null" && right !== "null" && left !== right) {
          if (left === "text" || right === "text") errors.add("type_mismatch");
          else unspecified = true;
        }
        return "bool-result";
      }
      case "is-null":
        typeOf(e.expr, depth + 1);
        return "bool-result";
      case "and":
      case "or":
        if (e.operands.length === 0) errors.add("invalid_request");
        for (const operand of e.operands) condition(operand, depth + 1);
        return "bool-result";
      case "not":
        condition(e.expr, depth + 1);
        return "bool-result";
      case "param":
        errors.add("invalid_request");
        return "null";
      default:
        throw new Error(`reference: the fuzzers generate §5 expressions only, not ${e.type}`);
    }
  };
  try {
    condition(expr, 1);
  } catch (error) {
    if (error instanceof Rejected) return error.verdict;
    throw error;
  }
  if (errors.size > 0) return { kind: "error", codes: [...errors, ...(unspecified ? ["type_mismatch"] : [])] };
  return unspecified ? { kind: "unspecified" } : { kind: "ok" };
}

/** Whether a comparison somewhere sets two literals of different families against each other. */
export function literalMismatch(expr: Expression): boolean {
  switch (expr.type) {
    case "comparison":
      if (expr.left.type === "literal" && expr.right.type === "literal") {
        const [l, r] = [family(literalType(expr.left.value)), family(literalType(expr.right.value))];
        if (l !== "null" && r !== "null" && l !== r) return true;
      }
      return literalMismatch(expr.left) || literalMismatch(expr.right);
    case "is-null":
    case "not":
      return literalMismatch(expr.expr);
    case "and":
    case "or":
      return expr.operands.some(literalMismatch);
    case "literal":
    case "identifier":
    case "param":
      return false;
    default:
      throw new Error(`reference: the fuzzers generate §5 expressions only, not ${expr.type}`);
  }
}

/** Compares by Unicode code point, as §5 demands (not by UTF-16 unit, as JS `<` does). */
export function compareText(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

/** Non-null values of one family. */
export function compareValues(a: Exclude<Value, null>, b: Exclude<Value, null>): number {
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  if (typeof a === "number" && typeof b === "number") return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  throw new Error(`reference: cannot compare ${typeof a} with ${typeof b}`);
}

export function evaluate(expr: Expression, row: QRow, sources: readonly Source[]): Value {
  switch (expr.type) {
    case "literal":
      return expr.value;
    case "identifier": {
      const found = resolve(expr.name, sources);
      if (!("key" in found)) throw new Error(`reference: ${found.error} ${expr.name}`);
      return row[found.key] ?? null;
    }
    case "comparison": {
      const left = evaluate(expr.left, row, sources);
      const right = evaluate(expr.right, row, sources);
      if (left === null || right === null) return null;
      const c = compareValues(left, right);
      switch (expr.op) {
        case "=":
          return c === 0;
        case "!=":
        case "<>":
          return c !== 0;
        case "<":
          return c < 0;
        case "<=":
          return c <= 0;
        case ">":
          return c > 0;
        case ">=":
          return c >= 0;
      }
      throw new Error("reference: unknown operator");
    }
    case "is-null": {
      const isNull = evaluate(expr.expr, row, sources) === null;
      return expr.not === true ? !isNull : isNull;
    }
    case "and": {
      let unknown = false;
      for (const operand of expr.operands) {
        const v = evaluate(operand, row, sources);
        if (v === false) return false;
        if (v === null) unknown = true;
      }
      return unknown ? null : true;
    }
    case "or": {
      let unknown = false;
      for (const operand of expr.operands) {
        const v = evaluate(operand, row, sources);
        if (v === true) return true;
        if (v === null) unknown = true;
      }
      return unknown ? null : false;
    }
    case "not": {
      const v = evaluate(expr.expr, row, sources);
      return v === null ? null : !v;
    }
    case "param":
      throw new Error("reference: unbound parameter");
    default:
      throw new Error(`reference: the fuzzers generate §5 expressions only, not ${expr.type}`);
  }
}

export interface ReferenceJoin {
  readonly type: "inner" | "left";
  readonly table: string;
  readonly as?: string;
  readonly on: Expression;
}

export interface ReferenceSelect {
  readonly columns: "*" | readonly string[];
  readonly joins?: readonly ReferenceJoin[];
  readonly where?: Expression;
  readonly orderBy?: readonly { readonly column: string; readonly direction?: "asc" | "desc" }[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: "objects" | "arrays";
}

/** A table as a select sees it: its name, column types (computed included, in `*` order) and rows. */
export interface ReferenceTable {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly rows: readonly Row[];
}

function sourcesOf(select: ReferenceSelect, base: ReferenceTable, tables: Readonly<Record<string, ReferenceTable>>): Source[] {
  return [base, ...(select.joins ?? []).map((j) => ({ name: j.as ?? j.table, columns: tables[j.table]?.columns ?? {} }))].map((s) => ({ name: s.name, columns: s.columns }));
}

/** The verdict for a whole select: every name it uses, each join condition in its scope, and the where. */
export function checkSelect(select: ReferenceSelect, base: ReferenceTable, tables: Readonly<Record<string, ReferenceTable>>): Verdict {
  const sources = sourcesOf(select, base, tables);
  const verdicts: Verdict[] = [];
  (select.joins ?? []).forEach((join, i) => {
    if (!(join.table in tables)) verdicts.push({ kind: "error", codes: ["table_not_found"] });
    verdicts.push(check(join.on, sources.slice(0, i + 2)));
  });
  if (select.where) verdicts.push(check(select.where, sources));
  const names = [...(select.columns === "*" ? [] : select.columns), ...(select.orderBy ?? []).map((o) => o.column)];
  for (const name of names) {
    const found = resolve(name, sources);
    if (!("key" in found)) verdicts.push({ kind: "error", codes: [found.error] });
  }
  const errors = verdicts.flatMap((v) => (v.kind === "error" ? v.codes : []));
  if (errors.length > 0) return { kind: "error", codes: [...new Set(errors), ...(verdicts.some((v) => v.kind === "unspecified") ? ["type_mismatch"] : [])] };
  return verdicts.some((v) => v.kind === "unspecified") ? { kind: "unspecified" } : { kind: "ok" };
}

/** The §6 rows result a select must produce (left rows in order, each with its matches in right-table order). */
export function referenceSelect(select: ReferenceSelect, base: ReferenceTable, tables: Readonly<Record<string, ReferenceTable>>) {
  const sources = sourcesOf(select, base, tables);
  let rows: QRow[] = base.rows.map((row) => qualify(row, base.name));
  (select.joins ?? []).forEach((join, i) => {
    const right = tables[join.table]!;
    const scope = sources.slice(0, i + 2);
    const name = scope[i + 1]!.name;
    const nulls = Object.fromEntries(Object.keys(right.columns).map((c) => [`${name}.${c}`, null]));
    rows = rows.flatMap((left) => {
      const matches = right.rows.map((r) => ({ ...left, ...qualify(r, name) })).filter((merged) => evaluate(join.on, merged, scope) === true);
      return matches.length > 0 || join.type === "inner" ? matches : [{ ...left, ...nulls }];
    });
  });
  const key = (name: string): string => {
    const found = resolve(name, sources);
    if (!("key" in found)) throw new Error(`reference: ${found.error} ${name}`);
    return found.key;
  };
  let kept = select.where ? rows.filter((row) => evaluate(select.where!, row, sources) === true) : rows;
  const order = (select.orderBy ?? []).map((o) => ({ key: key(o.column), desc: o.direction === "desc" }));
  if (order.length > 0) {
    kept = [...kept].sort((a, b) => {
      for (const o of order) {
        const x = a[o.key] ?? null;
        const y = b[o.key] ?? null;
        // NULL first ascending, last descending (§4): i.e. NULL is the smallest value.
        const c = x === null ? (y === null ? 0 : -1) : y === null ? 1 : compareValues(x, y);
        if (c !== 0) return o.desc ? -c : c;
      }
      return 0;
    });
  }
  const offset = select.offset ?? 0;
  kept = kept.slice(offset, select.limit === undefined ? undefined : offset + select.limit);
  // `*`: bare names for one table; with joins, every source's columns qualified, source by source.
  const columns =
    select.columns !== "*" ? [...select.columns] : sources.length === 1 ? Object.keys(base.columns) : sources.flatMap((s) => Object.keys(s.columns).map((c) => `${s.name}.${c}`));
  const keys = select.columns !== "*" ? columns.map(key) : sources.flatMap((s) => Object.keys(s.columns).map((c) => `${s.name}.${c}`));
  const project = (row: QRow) => (select.output === "arrays" ? keys.map((k) => row[k] ?? null) : Object.fromEntries(columns.map((c, i) => [c, row[keys[i]!] ?? null])));
  return { kind: "rows", columns, rows: kept.map(project), rowCount: kept.length };
}
