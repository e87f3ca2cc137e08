/**
 * Auto-parameterization of JSON plan commands (select, update, delete), so
 * that commands differing only in literal values share one prepared plan,
 * as SQL texts with `?` do.
 *
 * `shapeOf` walks a command once and yields its shape key — everything bind
 * reads (kind, table, columns, joins, where, orderBy, limit/offset, output,
 * `set` keys) with each literal replaced by a slot naming the literal's JSON
 * type — and the literal values in slot order. Binding succeeds or fails on
 * a literal's type family alone (integer and real only differ in an error's
 * wording, and a failing command is never cached), so two commands with one
 * key bind to one plan. `withSlots` rewrites the command with literal n
 * replaced by parameter slot n, in the same walk order: a select's joins'
 * ON in order then its `where`; an update's `set` values then its `where`.
 *
 * The key is a prefix code: every name is length-prefixed (`5:users`), every
 * node starts with its own tag and lists are bracketed, so no two commands
 * that bind differently share a key, whatever their names hold. It starts
 * with NUL, which no SQL text the lexer accepts begins with, so it never
 * meets a SQL text in the shared plan cache. Anything the key cannot stand
 * for — a parameter slot, a value no column type holds, a malformed field, a
 * tree deeper than bind accepts — makes `shapeOf` answer `undefined`, and the
 * command is bound as written, uncached, with today's errors.
 */

import type { DeleteCommand, Expression, Join, OrderBy, SelectCommand, UpdateCommand, Value, ValueOrParam } from "../commands/types.js";
import { MAX_DEPTH } from "./bind-expr.js";

export type ParameterizableCommand = SelectCommand | UpdateCommand | DeleteCommand;

export interface Shape {
  readonly key: string;
  /** The literal values, slot by slot: the parameters of the cached plan. */
  readonly values: readonly Value[];
}

/** The key's first character: never the first character of a SQL text that lexes. */
export const SHAPE_KEY_PREFIX = "\u0000";

class KeyWriter {
  key = SHAPE_KEY_PREFIX;
  readonly values: Value[] = [];

  name(s: unknown): boolean {
    if (typeof s !== "string") return false;
    this.key += `${s.length}:${s}`;
    return true;
  }

  optionalName(s: unknown): boolean {
    if (s === undefined) {
      this.key += "-";
      return true;
    }
    return this.name(s);
  }

  /** A literal (or `set` value): its slot and type tag; the value goes to `values`. */
  slot(value: unknown): boolean {
    switch (typeof value) {
      case "string":
        this.key += "?s";
        break;
      case "number":
        if (!Number.isFinite(value)) return false;
        this.key += "?n";
        break;
      case "boolean":
        this.key += "?b";
        break;
      default:
        if (value !== null) return false;
        this.key += "?z";
    }
    this.values.push(value);
    return true;
  }

  /** A limit or offset: kept in the key as written (the plan holds it), when bind would accept it. */
  count(n: unknown): boolean {
    if (n === undefined) {
      this.key += "-";
      return true;
    }
    if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
    this.key += `#${n as number};`;
    return true;
  }

  expr(e: Expression, depth: number): boolean {
    if (depth > MAX_DEPTH || typeof e !== "object" || e === null) return false;
    switch (e.type) {
      case "literal":
        return this.slot(e.value);
      case "identifier":
        this.key += "i";
        return this.name(e.name);
      case "comparison":
        this.key += "c";
        return this.name(e.op) && this.expr(e.left, depth + 1) && this.expr(e.right, depth + 1);
      case "is-null":
        // bind reads `not === true`: anything else is IS NULL.
        this.key += e.not === true ? "N" : "n";
        return this.expr(e.expr, depth + 1);
      case "and":
      case "or":
        if (!Array.isArray(e.operands)) return false;
        this.key += e.type === "and" ? "&(" : "|(";
        for (const o of e.operands) if (!this.expr(o, depth + 1)) return false;
        this.key += ")";
        return true;
      case "not":
        this.key += "!";
        return this.expr(e.expr, depth + 1);
      default:
        // A parameter slot (it needs values the command does not carry) or no expression at all.
        return false;
    }
  }

  optionalExpr(e: Expression | undefined): boolean {
    if (e === undefined) {
      this.key += "-";
      return true;
    }
    return this.expr(e, 0);
  }

  select(cmd: SelectCommand): boolean {
    this.key += "S";
    if (!this.name(cmd.table)) return false;
    if (cmd.columns === "*") this.key += "*";
    else if (!this.names(cmd.columns)) return false;
    if (!this.joins(cmd.joins ?? [])) return false;
    if (!this.optionalExpr(cmd.where)) return false;
    if (!this.orderBy(cmd.orderBy ?? [])) return false;
    return this.count(cmd.limit) && this.count(cmd.offset) && this.optionalName(cmd.output);
  }

  update(cmd: UpdateCommand): boolean {
    this.key += "U";
    if (!this.name(cmd.table)) return false;
    const set: unknown = cmd.set;
    if (typeof set !== "object" || set === null || Array.isArray(set)) return false;
    this.key += "{";
    for (const [column, value] of Object.entries(set as Record<string, unknown>)) if (!this.name(column) || !this.slot(value)) return false;
    this.key += "}";
    return this.expr(cmd.where, 0);
  }

  delete(cmd: DeleteCommand): boolean {
    this.key += "D";
    return this.name(cmd.table) && this.expr(cmd.where, 0);
  }

  private names(list: unknown): boolean {
    if (!Array.isArray(list)) return false;
    this.key += "[";
    for (const n of list) if (!this.name(n)) return false;
    this.key += "]";
    return true;
  }

  private joins(joins: readonly Join[]): boolean {
    if (!Array.isArray(joins)) return false;
    this.key += "[";
    for (const j of joins) {
      if (typeof j !== "object" || j === null) return false;
      if (!this.name(j.type) || !this.name(j.table) || !this.optionalName(j.as) || !this.expr(j.on, 0)) return false;
    }
    this.key += "]";
    return true;
  }

  private orderBy(items: readonly OrderBy[]): boolean {
    if (!Array.isArray(items)) return false;
    this.key += "[";
    for (const o of items) {
      if (typeof o !== "object" || o === null) return false;
      if (!this.name(o.column) || !this.optionalName(o.direction)) return false;
    }
    this.key += "]";
    return true;
  }
}

/** The shape key and literal values of a command, or `undefined` when it must be bound as written. */
export function shapeOf(cmd: ParameterizableCommand): Shape | undefined {
  const w = new KeyWriter();
  const ok = cmd.kind === "select" ? w.select(cmd) : cmd.kind === "update" ? w.update(cmd) : w.delete(cmd);
  return ok ? { key: w.key, values: w.values } : undefined;
}

/** The command with literal n (in `shapeOf`'s order) replaced by parameter slot n. Only for commands `shapeOf` accepted. */
export function withSlots<C extends ParameterizableCommand>(cmd: C): C {
  let next = 0;
  const slot = (): { readonly type: "param"; readonly index: number } => ({ type: "param", index: next++ });
  const expr = (e: Expression): Expression => {
    switch (e.type) {
      case "literal":
        return slot();
      case "comparison":
        return { ...e, left: expr(e.left), right: expr(e.right) };
      case "is-null":
      case "not":
        return { ...e, expr: expr(e.expr) };
      case "and":
      case "or":
        return { ...e, operands: e.operands.map(expr) };
      default:
        return e;
    }
  };
  switch (cmd.kind) {
    case "select": {
      const joins = cmd.joins?.map((j) => ({ ...j, on: expr(j.on) }));
      const where = cmd.where === undefined ? undefined : expr(cmd.where);
      return { ...cmd, ...(joins === undefined ? {} : { joins }), ...(where === undefined ? {} : { where }) };
    }
    case "update": {
      // fromEntries defines own keys: even one named `__proto__` stays a key, as in the command.
      const set: Record<string, ValueOrParam> = Object.fromEntries(Object.keys(cmd.set).map((column) => [column, slot()]));
      return { ...cmd, set, where: expr(cmd.where) };
    }
    case "delete":
      return { ...cmd, where: expr(cmd.where) };
  }
}
