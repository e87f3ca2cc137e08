/**
 * An independent reference for selects over one table: a tiny tree-walking
 * evaluator with SQL three-valued logic, written from CONTRACT §4–§5 and
 * sharing no code with the engine. The fuzzers compare every accepted query
 * with it.
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

function columnOf(name: string, table: string, columns: Readonly<Record<string, ColumnType>>): ColumnType | undefined {
  const bare = name.startsWith(`${table}.`) ? name.slice(table.length + 1) : name;
  return Object.prototype.hasOwnProperty.call(columns, bare) ? columns[bare] : undefined;
}

/**
 * The verdict for a where clause. Every contract error in the tree is
 * collected (which one the server names first is its choice); a construct
 * the contract leaves open also allows `type_mismatch`, the code a strict
 * engine gives it.
 */
export function check(expr: Expression, table: string, columns: Readonly<Record<string, ColumnType>>): Verdict {
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
        const type = columnOf(e.name, table, columns);
        if (type !== undefined) return type;
        errors.add("unknown_column");
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

export function evaluate(expr: Expression, row: Row, table: string): Value {
  switch (expr.type) {
    case "literal":
      return expr.value;
    case "identifier": {
      const bare = expr.name.startsWith(`${table}.`) ? expr.name.slice(table.length + 1) : expr.name;
      return row[bare] ?? null;
    }
    case "comparison": {
      const left = evaluate(expr.left, row, table);
      const right = evaluate(expr.right, row, table);
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
      const isNull = evaluate(expr.expr, row, table) === null;
      return expr.not === true ? !isNull : isNull;
    }
    case "and": {
      let unknown = false;
      for (const operand of expr.operands) {
        const v = evaluate(operand, row, table);
        if (v === false) return false;
        if (v === null) unknown = true;
      }
      return unknown ? null : true;
    }
    case "or": {
      let unknown = false;
      for (const operand of expr.operands) {
        const v = evaluate(operand, row, table);
        if (v === true) return true;
        if (v === null) unknown = true;
      }
      return unknown ? null : false;
    }
    case "not": {
      const v = evaluate(expr.expr, row, table);
      return v === null ? null : !v;
    }
    case "param":
      throw new Error("reference: unbound parameter");
  }
}

export interface ReferenceSelect {
  readonly columns: "*" | readonly string[];
  readonly where?: Expression;
  readonly orderBy?: readonly { readonly column: string; readonly direction?: "asc" | "desc" }[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: "objects" | "arrays";
}

/** The §6 rows result a select must produce over `rows` (insertion order). */
export function referenceSelect(select: ReferenceSelect, table: string, allColumns: readonly string[], rows: readonly Row[]) {
  let kept = select.where ? rows.filter((row) => evaluate(select.where!, row, table) === true) : [...rows];
  const order = select.orderBy ?? [];
  if (order.length > 0) {
    kept = [...kept].sort((a, b) => {
      for (const { column, direction } of order) {
        const x = a[column] ?? null;
        const y = b[column] ?? null;
        // NULL first ascending, last descending (§4): i.e. NULL is the smallest value.
        const c = x === null ? (y === null ? 0 : -1) : y === null ? 1 : compareValues(x, y);
        if (c !== 0) return direction === "desc" ? -c : c;
      }
      return 0;
    });
  }
  const offset = select.offset ?? 0;
  kept = kept.slice(offset, select.limit === undefined ? undefined : offset + select.limit);
  const columns = select.columns === "*" ? [...allColumns] : [...select.columns];
  const project = (row: Row) =>
    select.output === "arrays" ? columns.map((c) => row[c] ?? null) : Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
  return { kind: "rows", columns, rows: kept.map(project), rowCount: kept.length };
}
