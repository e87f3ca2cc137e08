/**
 * Binds a wire expression (CONTRACT §5) into a typed `BoundExpr`.
 *
 * This is where type rules live: text never compares with a number or a
 * boolean, boolean never with a number, integer and real compare as numbers,
 * and AND/OR/NOT/WHERE/ON/CHECK take booleans — all `type_mismatch`, never a
 * coercion. A parameter's type is not known until values arrive, so each
 * slot records what it must hold (`ParamUse`) and the executor checks it.
 */

import type { ColumnType, Expression, Value } from "../commands/types.js";
import { StoreError, assertNever } from "../errors.js";
import type { BoundExpr, CompareOp, ParamUse } from "./plan.js";
import { Scope, tableScope, type ScopeSource } from "./scope.js";
import type { TableInfo } from "./table-info.js";

export const MAX_DEPTH = 256;

/** The static type of a bound expression: `null` for a NULL literal, `unknown` for a parameter. */
export type StaticType = ColumnType | "null" | "unknown";

export function literalType(value: Value): StaticType {
  if (value === null) return "null";
  if (typeof value === "string") return "text";
  if (typeof value === "boolean") return "boolean";
  return Number.isInteger(value) ? "integer" : "real";
}

export function typeOf(e: BoundExpr): StaticType {
  switch (e.kind) {
    case "const":
      return literalType(e.value);
    case "param":
      return "unknown";
    case "column":
      return e.type;
    case "compare":
    case "is-null":
    case "and":
    case "or":
    case "not":
      return "boolean";
    default:
      return assertNever(e, "expression");
  }
}

/** Type families that compare with each other. */
function family(t: ColumnType): "text" | "number" | "boolean" {
  return t === "integer" || t === "real" ? "number" : t;
}

/** Collects what each parameter slot must hold; the first typed use of a slot wins. */
export class ParamUses {
  private readonly uses: (ParamUse | undefined)[] = [];

  use(index: number, use: ParamUse): void {
    const current = this.uses[index];
    if (current === undefined || current.kind === "any") this.uses[index] = use;
  }

  list(): ParamUse[] {
    const out: ParamUse[] = [];
    for (let i = 0; i < this.uses.length; i++) out.push(this.uses[i] ?? { kind: "any" });
    return out;
  }
}

const OPS: Record<string, CompareOp> = { "=": "=", "!=": "<>", "<>": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };

export class ExprBinder {
  constructor(
    readonly scope: Scope,
    readonly params: ParamUses,
  ) {}

  bind(e: Expression, depth = 0): BoundExpr {
    if (depth > MAX_DEPTH) throw new StoreError("invalid_request", `Expression nested deeper than ${MAX_DEPTH} levels`);
    switch (e.type) {
      case "literal":
        return { kind: "const", value: e.value };
      case "param":
        this.params.use(e.index, { kind: "any" });
        return { kind: "param", index: e.index };
      case "identifier":
        return this.identifier(e.name, depth);
      case "comparison": {
        const op = Object.hasOwn(OPS, e.op) ? OPS[e.op] : undefined;
        if (op === undefined) throw new StoreError("invalid_request", `Unknown comparison operator "${e.op}"`);
        const left = this.bind(e.left, depth + 1);
        const right = this.bind(e.right, depth + 1);
        this.checkComparable(left, right, e.op);
        return { kind: "compare", op, left, right };
      }
      case "is-null":
        return { kind: "is-null", expr: this.bind(e.expr, depth + 1), not: e.not === true };
      case "and":
      case "or": {
        if (e.operands.length === 0) throw new StoreError("invalid_request", `"${e.type}" needs at least one operand`);
        const operands = e.operands.map((o) => this.boolean(o, depth + 1, e.type.toUpperCase()));
        return { kind: e.type, operands };
      }
      case "not":
        return { kind: "not", expr: this.boolean(e.expr, depth + 1, "NOT") };
      default:
        return assertNever(e, "expression type");
    }
  }

  /** Binds an expression that must be boolean (WHERE, ON, CHECK, AND/OR/NOT operands). */
  boolean(e: Expression, depth: number, where: string): BoundExpr {
    const bound = this.bind(e, depth);
    const t = typeOf(bound);
    if (bound.kind === "param") this.params.use(bound.index, { kind: "compare", type: "boolean" });
    else if (t !== "boolean" && t !== "null") throw new StoreError("type_mismatch", `${where} needs a boolean, got ${t}`);
    return bound;
  }

  private identifier(name: string, depth: number): BoundExpr {
    const r = this.scope.resolve(name);
    if (r.kind === "column") {
      return { kind: "column", source: r.source.index, column: r.column, name, type: r.source.table.types[r.column] as ColumnType };
    }
    return this.bindComputed(r.source, r.expr, depth + 1);
  }

  /** A computed field inlined: its expression sees only its own table's stored columns, at its source's position. */
  bindComputed(source: ScopeSource, expr: Expression, depth = 0): BoundExpr {
    const inner = new ExprBinder(new Scope([{ table: source.table, name: source.table.name, index: source.index }], true), this.params);
    return inner.bind(expr, depth);
  }

  private checkComparable(left: BoundExpr, right: BoundExpr, op: string): void {
    const lt = typeOf(left);
    const rt = typeOf(right);
    if (left.kind === "param" && rt !== "unknown" && rt !== "null") this.params.use(left.index, { kind: "compare", type: rt });
    if (right.kind === "param" && lt !== "unknown" && lt !== "null") this.params.use(right.index, { kind: "compare", type: lt });
    // Two parameters: neither type is known until values arrive, so the pair is checked then, before any row is read.
    if (left.kind === "param" && right.kind === "param") {
      this.params.use(left.index, { kind: "compare-param", with: right.index });
      this.params.use(right.index, { kind: "compare-param", with: left.index });
    }
    if (lt === "unknown" || rt === "unknown" || lt === "null" || rt === "null") return;
    if (family(lt) !== family(rt)) throw new StoreError("type_mismatch", `Cannot compare ${lt} with ${rt} using ${op}`);
  }
}

/** Binds a check or computed-field expression against its own table (stored columns only). */
export function bindTableExpr(table: TableInfo, e: Expression, mustBeBoolean: boolean): BoundExpr {
  const params = new ParamUses();
  const binder = new ExprBinder(tableScope(table, true), params);
  const bound = mustBeBoolean ? binder.boolean(e, 0, "CHECK") : binder.bind(e, 0);
  if (params.list().length > 0) throw new StoreError("invalid_request", "Checks and computed fields cannot use parameters");
  return bound;
}
