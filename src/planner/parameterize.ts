/**
 * Auto-parameterization of JSON plan commands (select, insert, update,
 * delete), so that commands differing only in literal values share one
 * prepared plan, as SQL texts with `?` do.
 *
 * `shapeOf` walks a command once and yields its shape — the tokens of
 * everything bind reads (kind, table and alias, columns, joins, where,
 * orderBy, whether there is a limit/offset, output, `set` keys, an insert's
 * row keys), with each
 * literal replaced by a token naming its JSON type — a hash of those tokens,
 * and the values in slot order: the literals, then a select's limit and
 * offset. A slot carries its literal's type (`ParamSlot.literal`: text,
 * integer — an integral number —, real, boolean or null), so it binds and
 * computes exactly as the literal would, and two commands with equal tokens
 * bind to one plan (a failing command is never cached). Literals whose value bind reads are part of the shape, never
 * slots: an ORDER BY or GROUP BY column number, a LIKE's ESCAPE,
 * likelihood's p, unixepoch's texts (bare or inside hints), and with
 * GROUP BY or DISTINCT every literal of the list, GROUP BY, HAVING and
 * ORDER BY (bind matches those expressions with each other); a window's
 * PARTITION BY and ORDER BY literals and its frame (a window function's
 * arguments are slots). `withSlots` rewrites a
 * command with literal n replaced by parameter slot n, in the same walk
 * order: a select's column expressions, its joins' ON in order, its
 * `where`, its groupBy, its `having`, its orderBy expressions; an update's joins' ON (UPDATE … FROM),
 * its `set` values (the literals inside an expression value too) then its `where`, then a write's
 * RETURNING expressions. `withCountSlots` then makes the bound plan's limit and offset
 * the slots after those, so the pages of one query (the same select at
 * another offset) share a plan too: a page of 20 that prepared its own plan
 * took 7.8 µs, against 0.53 µs on the shared one (bench/executor, Q6).
 *
 * The tokens are a prefix code: tags are numbers, names are strings (so a
 * column named "1" never reads as a tag, nor a string literal as a number),
 * optional fields are tagged present or absent, and lists end with their own
 * tag. Equal token lists therefore mean equal shapes. The hash only finds a
 * candidate: the cache compares tokens (`sameShape`) before it trusts one.
 * No key string is built: concatenating one per command cost several times
 * this walk (measured), more than the whole plan run of a point select.
 *
 * Anything the tokens cannot stand for — a parameter slot, a value no column
 * type holds, a malformed field, a tree deeper than bind accepts, a compound
 * select (UNION and the rest), a derived table at any depth, an INSERT …
 * SELECT, or an insert of more tokens than the caller caches — makes
 * `shapeOf` answer `undefined`: the command is bound as written, uncached,
 * with today's errors.
 */

import type {
  DeleteCommand,
  Expression,
  InsertCommand,
  OnConflict,
  FrameBoundSpec,
  Join,
  OrderBy,
  ParamSlot,
  Returning,
  SelectColumn,
  SelectCommand,
  SetValue,
  UpdateCommand,
  Value,
  WindowFrameSpec,
  WindowSpec,
} from "../commands/types.js";
import { MAX_DEPTH } from "./bind-expr.js";
import { FUNCTIONS, constantArgOf, functionNamed, hintNamed } from "./functions.js";
import type { Count, ParamUse, Plan } from "./plan.js";

export type ParameterizableCommand = SelectCommand | InsertCommand | UpdateCommand | DeleteCommand;

export type Token = number | string;

export interface Shape {
  /** A 30-bit hash of `tokens` (a small integer, the cheapest map key). */
  readonly hash: number;
  readonly tokens: readonly Token[];
  /** The values, slot by slot (the literals, then limit and offset): the parameters of the shape's plan. */
  readonly values: readonly Value[];
  /** How many of `values` are literals (the slots `withSlots` makes). */
  readonly literals: number;
}

/** Tags: each node, marker and literal type has its own number. */
const enum Tag {
  Select = 1,
  Update,
  Delete,
  Star,
  List,
  End,
  None,
  Some,
  Join,
  Order,
  Set,
  Text,
  Integer,
  Real,
  Boolean,
  Null,
  Identifier,
  Comparison,
  IsNull,
  IsNotNull,
  And,
  Or,
  Not,
  Binary,
  Negate,
  In,
  NotIn,
  Between,
  NotBetween,
  Like,
  NotLike,
  Glob,
  NotGlob,
  Collate,
  Case,
  Cast,
  Function,
  ColumnExpr,
  OrderExpr,
  OrderNumber,
  Aggregate,
  AggregateDistinct,
  GroupBy,
  GroupNumber,
  Distinct,
  Inline,
  SetExpr,
  InSelect,
  NotInSelect,
  Subquery,
  Exists,
  NotExists,
  Window,
  Insert,
  Row,
  RowValue,
  SetRows,
}

const FNV_PRIME = 0x01000193;

class ShapeWriter {
  hash = 0x811c9dc5 | 0;
  readonly tokens: Token[] = [];
  readonly values: Value[] = [];
  literals = 0;

  tag(t: number): void {
    this.tokens.push(t);
    this.hash = Math.imul(this.hash ^ t, FNV_PRIME);
  }

  name(s: unknown): boolean {
    if (typeof s !== "string") return false;
    this.tokens.push(s);
    let h = Math.imul(this.hash ^ s.length, FNV_PRIME);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
    this.hash = h;
    return true;
  }

  optionalName(s: unknown): boolean {
    if (s === undefined) {
      this.tag(Tag.None);
      return true;
    }
    this.tag(Tag.Some);
    return this.name(s);
  }

  /**
   * While set, literals are written into the shape instead of slotted (see
   * `inlinesLiterals`).
   */
  inline = false;

  /** A literal (or `set` value): its type's tag; the value goes to `values` — or, inlined, into the tokens. */
  slot(value: unknown): boolean {
    if (this.inline) {
      if (typeof value === "number" && !Number.isFinite(value)) return false;
      if (value !== null && typeof value === "object") return false;
      this.tag(Tag.Inline);
      return this.name(JSON.stringify(value));
    }
    switch (typeof value) {
      case "string":
        this.tag(Tag.Text);
        break;
      case "number":
        if (!Number.isFinite(value)) return false;
        // Integer and real compute differently (`7 / 2`, `7.5 / 2`): each binds its own plan.
        this.tag(Number.isInteger(value) ? Tag.Integer : Tag.Real);
        break;
      case "boolean":
        this.tag(Tag.Boolean);
        break;
      default:
        if (value !== null) return false;
        this.tag(Tag.Null);
    }
    this.values.push(value);
    this.literals++;
    return true;
  }

  /** A limit or offset, when bind would accept it: a slot after the literals (they all come first in the walk). */
  count(n: unknown): boolean {
    if (n === undefined) {
      this.tag(Tag.None);
      return true;
    }
    if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
    this.tag(Tag.Some);
    this.values.push(n as number);
    return true;
  }

  expr(e: Expression, depth: number): boolean {
    if (depth > MAX_DEPTH || typeof e !== "object" || e === null) return false;
    switch (e.type) {
      case "literal":
        return this.slot(e.value);
      case "identifier":
        this.tag(Tag.Identifier);
        return this.name(e.name);
      case "comparison":
        this.tag(Tag.Comparison);
        return this.name(e.op) && this.expr(e.left, depth + 1) && this.expr(e.right, depth + 1);
      case "is-null":
        // bind reads `not === true`: anything else is IS NULL.
        this.tag(e.not === true ? Tag.IsNotNull : Tag.IsNull);
        return this.expr(e.expr, depth + 1);
      case "and":
      case "or":
        if (!Array.isArray(e.operands)) return false;
        this.tag(e.type === "and" ? Tag.And : Tag.Or);
        for (const o of e.operands) if (!this.expr(o, depth + 1)) return false;
        this.tag(Tag.End);
        return true;
      case "not":
        this.tag(Tag.Not);
        return this.expr(e.expr, depth + 1);
      case "binary":
        this.tag(Tag.Binary);
        return this.name(e.op) && this.expr(e.left, depth + 1) && this.expr(e.right, depth + 1);
      case "negate":
        this.tag(Tag.Negate);
        return this.expr(e.expr, depth + 1);
      case "in":
        if (e.select !== undefined) {
          if (e.values !== undefined) return false;
          this.tag(e.not === true ? Tag.NotInSelect : Tag.InSelect);
          return this.expr(e.expr, depth + 1) && this.subquery(e.select, depth + 1);
        }
        this.tag(e.not === true ? Tag.NotIn : Tag.In);
        return e.values !== undefined && this.list(e.values, depth + 1) && this.expr(e.expr, depth + 1);
      case "subquery":
        this.tag(Tag.Subquery);
        // Which column is shape: another column is another plan.
        return this.optionalName(e.column === undefined ? undefined : String(e.column)) && this.subquery(e.select, depth + 1);
      case "row":
        this.tag(Tag.RowValue);
        return Array.isArray(e.items) && this.list(e.items, depth + 1);
      case "exists":
        this.tag(e.not === true ? Tag.NotExists : Tag.Exists);
        return this.subquery(e.select, depth + 1);
      case "between":
        this.tag(e.not === true ? Tag.NotBetween : Tag.Between);
        return this.expr(e.expr, depth + 1) && this.expr(e.low, depth + 1) && this.expr(e.high, depth + 1);
      case "like":
        this.tag(e.not === true ? Tag.NotLike : Tag.Like);
        // The escape is bound as written (its length is checked then), so it is shape, not a slot.
        if (typeof e.escape === "object") return false;
        return this.optionalName(e.escape) && this.expr(e.expr, depth + 1) && this.expr(e.pattern, depth + 1);
      case "glob":
        this.tag(e.not === true ? Tag.NotGlob : Tag.Glob);
        return this.expr(e.expr, depth + 1) && this.expr(e.pattern, depth + 1);
      case "collate":
        this.tag(Tag.Collate);
        return this.name(e.collation) && this.expr(e.expr, depth + 1);
      case "case":
        this.tag(Tag.Case);
        if (!this.optionalExpr(e.operand, depth + 1) || !Array.isArray(e.when)) return false;
        for (const w of e.when) {
          if (typeof w !== "object" || w === null || !this.expr(w.when, depth + 1) || !this.expr(w.then, depth + 1)) return false;
        }
        this.tag(Tag.End);
        return this.optionalExpr(e.else, depth + 1);
      case "cast":
        this.tag(Tag.Cast);
        return this.name(e.as) && this.expr(e.expr, depth + 1);
      case "function": {
        this.tag(Tag.Function);
        if (!this.name(e.name) || !Array.isArray(e.args)) return false;
        const kept = keptArgs(e);
        const outer = this.inline;
        for (let i = 0; i < e.args.length; i++) {
          const arg = e.args[i] as Expression;
          this.inline = outer || kept(arg, i);
          const ok = this.expr(arg, depth + 1);
          this.inline = outer;
          if (!ok) return false;
        }
        this.tag(Tag.End);
        return true;
      }
      case "aggregate":
        this.tag(e.distinct === true ? Tag.AggregateDistinct : Tag.Aggregate);
        return this.name(e.name) && this.optionalExpr(e.arg, depth + 1) && this.optionalName(e.separator) && this.optionalExpr(e.value, depth + 1) && this.optionalExpr(e.filter, depth + 1);
      case "window":
        this.tag(Tag.Window);
        return this.name(e.name) && this.list(e.args ?? [], depth + 1) && this.optionalName(e.separator) && this.window(e.over, depth + 1) && this.optionalExpr(e.filter, depth + 1);
      default:
        // A parameter slot (it needs values the command does not carry) or no expression at all.
        return false;
    }
  }

  /**
   * A window: its PARTITION BY and ORDER BY literals are shape (the binder
   * tells one window from another by its expressions, and rows come out in
   * the first window's order), its frame written out.
   */
  private window(over: WindowSpec, depth: number): boolean {
    if (typeof over !== "object" || over === null) return false;
    const outer = this.inline;
    this.inline = true;
    // A window's ORDER BY has no column numbers: an integer there is a constant.
    const ok = this.list(over.partitionBy ?? [], depth) && this.orderBy(over.orderBy ?? [], depth, false) && this.frame(over.frame);
    this.inline = outer;
    return ok;
  }

  private frame(frame: WindowFrameSpec | undefined): boolean {
    if (frame === undefined) {
      this.tag(Tag.None);
      return true;
    }
    if (typeof frame !== "object" || frame === null) return false;
    this.tag(Tag.Some);
    if (!this.name(frame.units) || !this.frameBound(frame.start)) return false;
    if (frame.end === undefined) this.tag(Tag.None);
    else if (!this.frameBound(frame.end)) return false;
    return this.optionalName(frame.exclude);
  }

  /** A frame bound: its words, or its side and offset (tagged apart, so the two never read alike). */
  private frameBound(bound: FrameBoundSpec): boolean {
    this.tag(Tag.Some);
    if (typeof bound === "string") return this.name(bound);
    if (typeof bound !== "object" || bound === null) return false;
    const [side, offset] = "preceding" in bound ? ["preceding", bound.preceding] : ["following", (bound as { following: unknown }).following];
    this.tag(Tag.Window);
    return typeof offset === "number" && Number.isFinite(offset) && this.name(side) && this.name(String(offset));
  }

  private optionalExpr(e: Expression | undefined, depth: number): boolean {
    if (e === undefined) {
      this.tag(Tag.None);
      return true;
    }
    this.tag(Tag.Some);
    return this.expr(e, depth);
  }

  private list(items: readonly Expression[], depth: number): boolean {
    if (!Array.isArray(items)) return false;
    for (const item of items) if (!this.expr(item, depth)) return false;
    this.tag(Tag.End);
    return true;
  }

  /** A subquery's select: its literals are slots in the same walk; its LIMIT and OFFSET are shape (slots for counts come last). */
  private subquery(cmd: SelectCommand, depth: number): boolean {
    if (depth > MAX_DEPTH || typeof cmd !== "object" || cmd === null) return false;
    const outerInline = this.inline;
    const ok = this.select(cmd, true);
    this.inline = outerInline;
    return ok;
  }

  select(cmd: SelectCommand, nested = false): boolean {
    // A compound select or a derived table is bound as written: the selects it holds are no part of this walk's shape.
    if (cmd.compound !== undefined || cmd.from !== undefined) return false;
    this.tag(Tag.Select);
    if (!this.optionalName(cmd.table) || !this.optionalName(cmd.as)) return false;
    const inline = inlinesLiterals(cmd);
    this.inline = inline;
    if (cmd.columns === "*") this.tag(Tag.Star);
    else if (!this.columns(cmd.columns)) return false;
    this.inline = false;
    if (!this.joins(cmd.joins ?? [])) return false;
    if (cmd.where === undefined) this.tag(Tag.None);
    else if (!this.expr(cmd.where, 0)) return false;
    this.inline = inline;
    if (!this.groupBy(cmd.groupBy ?? [])) return false;
    if (!this.optionalExpr(cmd.having, 0)) return false;
    if (cmd.distinct === true) this.tag(Tag.Distinct);
    if (!this.orderBy(cmd.orderBy ?? [])) return false;
    this.inline = false;
    if (nested) return this.countShape(cmd.limit) && this.countShape(cmd.offset) && this.optionalName(cmd.output);
    return this.count(cmd.limit) && this.count(cmd.offset) && this.optionalName(cmd.output);
  }

  /** A subquery's limit or offset, written into the shape. */
  private countShape(n: unknown): boolean {
    if (n === undefined) {
      this.tag(Tag.None);
      return true;
    }
    if (!Number.isSafeInteger(n) || (n as number) < 0) return false;
    this.tag(Tag.Some);
    return this.name(String(n));
  }

  update(cmd: UpdateCommand): boolean {
    this.tag(Tag.Update);
    if (!this.name(cmd.table) || !this.optionalName(cmd.as)) return false;
    // UPDATE … FROM: its first source (a derived one is bound as written, as a select's), then its joins.
    const from: unknown = cmd.from;
    if (from === undefined) this.tag(Tag.None);
    else if (typeof from !== "object" || from === null || cmd.from!.from !== undefined) return false;
    else {
      this.tag(Tag.Some);
      if (!this.name(cmd.from!.table) || !this.optionalName(cmd.from!.as)) return false;
    }
    if (cmd.joins !== undefined && !this.joins(cmd.joins)) return false;
    return this.set(cmd.set) && this.setRows(cmd.setRows) && this.expr(cmd.where, 0) && this.returning(cmd.returning);
  }

  /** An update's or an upsert's `set`: each value a slot, or an expression whose literals are slots. */
  private set(set: unknown): boolean {
    if (typeof set !== "object" || set === null || Array.isArray(set)) return false;
    this.tag(Tag.Set);
    for (const [column, value] of Object.entries(set as Record<string, unknown>)) {
      if (!this.name(column)) return false;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        // An expression over the old row: its literals are slots too.
        this.tag(Tag.SetExpr);
        if (!this.expr(value as Expression, 0)) return false;
      } else if (!this.slot(value)) return false;
    }
    this.tag(Tag.End);
    return true;
  }

  /** `SET (a, b) = (SELECT …)`s: the columns are shape, the select's literals slots. */
  private setRows(rows: unknown): boolean {
    if (rows === undefined) {
      this.tag(Tag.None);
      return true;
    }
    if (!Array.isArray(rows)) return false;
    this.tag(Tag.SetRows);
    for (const row of rows as unknown[]) {
      if (typeof row !== "object" || row === null) return false;
      const { columns, select } = row as { columns: unknown; select: unknown };
      if (!Array.isArray(columns) || !columns.every((c: unknown) => this.name(c))) return false;
      this.tag(Tag.End);
      if (!this.subquery(select as SelectCommand, 1)) return false;
    }
    this.tag(Tag.End);
    return true;
  }

  /**
   * An insert of rows (INSERT … SELECT is bound as written): each row's keys
   * and its values' types; past `maxTokens` (a bulk insert), no shape.
   */
  insert(cmd: InsertCommand, maxTokens: number): boolean {
    const rows: unknown = cmd.rows;
    if (cmd.select !== undefined || cmd.columns !== undefined || !Array.isArray(rows)) return false;
    this.tag(Tag.Insert);
    if (!this.name(cmd.table)) return false;
    for (const row of rows as unknown[]) {
      if (typeof row !== "object" || row === null || Array.isArray(row) || this.tokens.length > maxTokens) return false;
      this.tag(Tag.Row);
      for (const column of Object.keys(row)) if (!this.name(column) || !this.slot((row as Record<string, unknown>)[column])) return false;
    }
    this.tag(Tag.End);
    return this.conflict(cmd.onConflict) && this.returning(cmd.returning);
  }

  private conflict(clause: OnConflict | undefined): boolean {
    if (clause === undefined) {
      this.tag(Tag.None);
      return true;
    }
    if (typeof clause !== "object" || clause === null) return false;
    this.tag(Tag.Some);
    if (!this.name(clause.action)) return false;
    if (clause.target === undefined) this.tag(Tag.None);
    else {
      this.tag(Tag.Some);
      if (!Array.isArray(clause.target) || !clause.target.every((c: unknown) => this.name(c))) return false;
      this.tag(Tag.End);
    }
    if (clause.set === undefined) this.tag(Tag.None);
    else {
      this.tag(Tag.Some);
      if (!this.set(clause.set)) return false;
    }
    return this.optionalExpr(clause.where, 0);
  }

  delete(cmd: DeleteCommand): boolean {
    this.tag(Tag.Delete);
    return this.name(cmd.table) && this.optionalName(cmd.as) && this.expr(cmd.where, 0) && this.returning(cmd.returning);
  }

  private returning(returning: Returning | undefined): boolean {
    if (returning === undefined) this.tag(Tag.None);
    else if (returning === "*") this.tag(Tag.Star);
    else return this.columns(returning);
    return true;
  }

  private columns(list: readonly SelectColumn[]): boolean {
    if (!Array.isArray(list)) return false;
    this.tag(Tag.List);
    for (const c of list) {
      if (typeof c === "string") this.name(c);
      else if (typeof c !== "object" || c === null) return false;
      else {
        this.tag(Tag.ColumnExpr);
        if (!this.name(c.as) || !this.expr(c.expr, 0)) return false;
      }
    }
    this.tag(Tag.End);
    return true;
  }

  private joins(joins: readonly Join[]): boolean {
    if (!Array.isArray(joins)) return false;
    for (const j of joins) {
      if (typeof j !== "object" || j === null || j.from !== undefined) return false;
      this.tag(Tag.Join);
      if (!this.name(j.type) || !this.name(j.table) || !this.optionalName(j.as) || !this.optionalExpr(j.on, 0)) return false;
      if (j.using === undefined) this.tag(Tag.None);
      else {
        this.tag(Tag.Some);
        if (!Array.isArray(j.using) || !j.using.every((c: unknown) => this.name(c))) return false;
        this.tag(Tag.End);
      }
      this.tag(j.natural === true ? Tag.Some : Tag.None);
    }
    this.tag(Tag.End);
    return true;
  }

  private groupBy(items: readonly Expression[]): boolean {
    if (!Array.isArray(items)) return false;
    for (const item of items) {
      if (isCollatedNumber(item)) return false;
      if (isColumnNumber(item)) {
        // A column number is read by bind: its value is shape.
        this.tag(Tag.GroupNumber);
        this.name(String(item.value));
      } else {
        this.tag(Tag.GroupBy);
        if (!this.expr(item, 0)) return false;
      }
    }
    this.tag(Tag.End);
    return true;
  }

  /** Sort keys; `numbers`: an integer literal is a column number (a select's ORDER BY, not a window's). */
  private orderBy(items: readonly OrderBy[], depth = 0, numbers = true): boolean {
    if (!Array.isArray(items)) return false;
    for (const o of items) {
      if (typeof o !== "object" || o === null || !this.optionalName(o.direction) || !this.optionalName(o.nulls) || !this.optionalName(o.collation)) return false;
      if ("column" in o) {
        this.tag(Tag.Order);
        if (!this.name(o.column)) return false;
      } else if (numbers && isCollatedNumber(o.expr)) {
        return false;
      } else if (numbers && isColumnNumber(o.expr)) {
        // A column number is read by bind: its value is shape.
        this.tag(Tag.OrderNumber);
        this.name(String(o.expr.value));
      } else {
        this.tag(Tag.OrderExpr);
        if (!this.expr(o.expr, depth)) return false;
      }
    }
    this.tag(Tag.End);
    return true;
  }
}

/**
 * Which arguments of a call bind reads as written, so their literals stay
 * in the command and the shape instead of becoming slots: likelihood's p
 * (checked as a real constant), and the texts of a function whose type
 * rests on them (`typedByText`: unixepoch's 'subsec' makes it real), bare
 * or inside hints, which bind as their argument — so a cached plan never
 * types one call by another's text.
 */
function keptArgs(e: { readonly name: unknown }): (arg: unknown, i: number) => boolean {
  const constant = constantArgOf(e.name);
  if (constant !== undefined) return (_, i) => i === constant;
  const name = typeof e.name === "string" ? functionNamed(e.name) : undefined;
  return name !== undefined && FUNCTIONS[name].typedByText === true ? isHintedText : NONE_KEPT;
}

const NONE_KEPT = (): boolean => false;

/** A text literal, bare or as the argument of `likely`, `unlikely` or `likelihood` (any depth of them). */
function isHintedText(e: unknown): boolean {
  while (typeof e === "object" && e !== null) {
    const node = e as { type?: unknown; name?: unknown; args?: unknown; value?: unknown };
    if (node.type === "literal") return typeof node.value === "string";
    if (node.type !== "function" || typeof node.name !== "string" || hintNamed(node.name) === undefined || !Array.isArray(node.args)) return false;
    e = node.args[0];
  }
  return false;
}

/** A JSON literal's type: an integral number is an integer (CONTRACT §11). */
function literalType(value: Value): NonNullable<ParamSlot["literal"]> {
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "real";
  return typeof value === "string" ? "text" : "boolean";
}

/**
 * Whether a select's literals in its list, GROUP BY, HAVING and ORDER BY
 * are shape rather than slots: with GROUP BY (or DISTINCT), bind matches
 * those expressions against each other (`age / 20` in the list is the key
 * `age / 20`), and two slots are never known to hold equal values.
 */
function inlinesLiterals(cmd: SelectCommand): boolean {
  return (Array.isArray(cmd.groupBy) && cmd.groupBy.length > 0) || cmd.distinct === true;
}

/** An ORDER BY or GROUP BY expression that is an integer literal: a column number (bind checks it is in range). */
function isColumnNumber(e: Expression): e is { readonly type: "literal"; readonly value: number } {
  return typeof e === "object" && e !== null && e.type === "literal" && Number.isInteger(e.value);
}

/** A column number under COLLATE (`{"type":"collate","expr":2}` in ORDER BY or GROUP BY): bound as written, never slotted. */
function isCollatedNumber(e: Expression): boolean {
  if (typeof e !== "object" || e === null || e.type !== "collate") return false;
  while (typeof e === "object" && e !== null && e.type === "collate") e = e.expr;
  return isColumnNumber(e);
}

/** The shape of a command, or `undefined` when it must be bound as written (an insert's also when its rows come to more than `maxTokens`). */
export function shapeOf(cmd: ParameterizableCommand, maxTokens = Infinity): Shape | undefined {
  const w = new ShapeWriter();
  const ok = cmd.kind === "select" ? w.select(cmd) : cmd.kind === "insert" ? w.insert(cmd, maxTokens) : cmd.kind === "update" ? w.update(cmd) : w.delete(cmd);
  return ok ? { hash: w.hash & 0x3fffffff, tokens: w.tokens, values: w.values, literals: w.literals } : undefined;
}

/** Whether two token lists are one shape. */
export function sameShape(a: readonly Token[], b: readonly Token[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The command with literal n (in `shapeOf`'s order) replaced by parameter slot n. Only for commands `shapeOf` accepted. */
export function withSlots<C extends ParameterizableCommand>(cmd: C): C {
  let next = 0;
  const slot = (value: Value): ParamSlot => ({ type: "param", index: next++, literal: literalType(value) });
  let inline = false;
  const expr = (e: Expression): Expression => {
    switch (e.type) {
      case "literal":
        return inline ? e : slot(e.value);
      case "comparison":
      case "binary":
        return { ...e, left: expr(e.left), right: expr(e.right) };
      case "is-null":
      case "not":
      case "negate":
      case "cast":
      case "collate":
        return { ...e, expr: expr(e.expr) };
      case "and":
      case "or":
        return { ...e, operands: e.operands.map(expr) };
      case "row":
        return { ...e, items: e.items.map(expr) };
      case "in": {
        // In the shape's order: a subquery after the operand, a list before it.
        if (e.select !== undefined) {
          const inner = expr(e.expr);
          const saved = inline;
          const sub = select(e.select);
          inline = saved;
          return { ...e, expr: inner, select: sub };
        }
        const values = (e.values ?? []).map(expr);
        return { ...e, expr: expr(e.expr), values };
      }
      case "subquery":
      case "exists":
        return { ...e, select: subquery(e.select) };
      case "between": {
        const inner = expr(e.expr);
        const low = expr(e.low);
        return { ...e, expr: inner, low, high: expr(e.high) };
      }
      case "like":
      case "glob": {
        const inner = expr(e.expr);
        return { ...e, expr: inner, pattern: expr(e.pattern) };
      }
      case "case": {
        const operand = e.operand === undefined ? undefined : expr(e.operand);
        const when = e.when.map((w) => {
          const condition = expr(w.when);
          return { when: condition, then: expr(w.then) };
        });
        const otherwise = e.else === undefined ? undefined : expr(e.else);
        return { ...e, ...(operand === undefined ? {} : { operand }), when, ...(otherwise === undefined ? {} : { else: otherwise }) };
      }
      case "function": {
        const kept = keptArgs(e);
        const args = e.args.map((a, i) => {
          const saved = inline;
          inline ||= kept(a, i);
          const arg = expr(a);
          inline = saved;
          return arg;
        });
        return { ...e, args };
      }
      case "aggregate":
        // In the shape's order: the argument, the value, then the filter.
        return {
          ...e,
          ...(e.arg === undefined ? {} : { arg: expr(e.arg) }),
          ...(e.value === undefined ? {} : { value: expr(e.value) }),
          ...(e.filter === undefined ? {} : { filter: expr(e.filter) }),
        };
      case "window": {
        // In the shape's order: the arguments, then the window, whose literals are shape.
        const args = e.args?.map(expr);
        const saved = inline;
        inline = true;
        const { partitionBy, orderBy } = e.over;
        const over = {
          ...e.over,
          ...(partitionBy === undefined ? {} : { partitionBy: partitionBy.map(expr) }),
          ...(orderBy === undefined ? {} : { orderBy: orderBy.map((o) => ("column" in o ? o : { ...o, expr: expr(o.expr) })) }),
        };
        inline = saved;
        const filter = e.filter === undefined ? {} : { filter: expr(e.filter) };
        return { ...e, ...(args === undefined ? {} : { args }), over, ...filter };
      }
      default:
        return e;
    }
  };
  const columns = (list: readonly SelectColumn[]): SelectColumn[] => list.map((c) => (typeof c === "string" ? c : { ...c, expr: expr(c.expr) }));
  const returning = (r: Returning | undefined): { returning?: Returning } => (r === undefined ? {} : { returning: r === "*" ? r : columns(r) });
  // fromEntries defines own keys: even one named `__proto__` stays a key, as in the command.
  const set = (assignments: Readonly<Record<string, SetValue>>): Record<string, SetValue> =>
    Object.fromEntries(
      Object.keys(assignments).map((column) => {
        const value = assignments[column] as SetValue;
        return [column, typeof value === "object" && value !== null ? expr(value) : slot(value)];
      }),
    );
  /** A subquery's select, its literals inlined or not as its own list says. */
  const subquery = (cmd: SelectCommand): SelectCommand => {
    const saved = inline;
    const sub = select(cmd);
    inline = saved;
    return sub;
  };
  const select = (cmd: SelectCommand): SelectCommand => {
    inline = inlinesLiterals(cmd);
    const list = cmd.columns === "*" ? "*" : columns(cmd.columns);
    inline = false;
    const joins = cmd.joins?.map((j) => (j.on === undefined ? j : { ...j, on: expr(j.on) }));
    const where = cmd.where === undefined ? undefined : expr(cmd.where);
    inline = inlinesLiterals(cmd);
    const groupBy = cmd.groupBy?.map((g) => (isColumnNumber(g) ? g : expr(g)));
    const having = cmd.having === undefined ? undefined : expr(cmd.having);
    const orderBy = cmd.orderBy?.map((o) => ("column" in o || isColumnNumber(o.expr) ? o : { ...o, expr: expr(o.expr) }));
    inline = false;
    return {
      ...cmd,
      columns: list,
      ...(joins === undefined ? {} : { joins }),
      ...(where === undefined ? {} : { where }),
      ...(groupBy === undefined ? {} : { groupBy }),
      ...(having === undefined ? {} : { having }),
      ...(orderBy === undefined ? {} : { orderBy }),
    };
  };
  switch (cmd.kind) {
    case "select":
      return select(cmd) as C;
    case "insert": {
      // In the shape's order: the rows' values, then the conflict clause's set and where, then returning.
      const rows = cmd.rows!.map((row) => Object.fromEntries(Object.keys(row).map((column) => [column, slot(row[column] as Value)])));
      const clause = cmd.onConflict;
      if (clause === undefined) return { ...cmd, rows, ...returning(cmd.returning) };
      const conflictSet = clause.set === undefined ? {} : { set: set(clause.set) };
      const conflictWhere = clause.where === undefined ? {} : { where: expr(clause.where) };
      return { ...cmd, rows, onConflict: { ...clause, ...conflictSet, ...conflictWhere }, ...returning(cmd.returning) };
    }
    case "update": {
      // In the shape's order: the joins' ON, then set, where and returning.
      const joins = cmd.joins?.map((j) => (j.on === undefined ? j : { ...j, on: expr(j.on) }));
      const assigned = set(cmd.set);
      const rows = cmd.setRows === undefined ? {} : { setRows: cmd.setRows.map((row) => ({ ...row, select: subquery(row.select) })) };
      const where = expr(cmd.where);
      return { ...cmd, ...(joins === undefined ? {} : { joins }), set: assigned, ...rows, where, ...returning(cmd.returning) };
    }
    case "delete": {
      const where = expr(cmd.where);
      return { ...cmd, where, ...returning(cmd.returning) };
    }
  }
}

/**
 * A plan bound from `withSlots(cmd)`, its `params` padded to the literal
 * slots: a select's limit and offset become the next slots, in that order,
 * where `shapeOf` put their values.
 */
export function withCountSlots(plan: Plan): Plan {
  const s = plan.statement;
  if (s.kind !== "select" || (s.limit === undefined && s.offset === undefined)) return plan;
  const params: ParamUse[] = [...plan.params];
  const slot = (clause: "limit" | "offset"): Count => ({ kind: "param", index: params.push({ kind: "count", clause }) - 1 });
  const limit = s.limit === undefined ? undefined : slot("limit");
  const offset = s.offset === undefined ? undefined : slot("offset");
  return { statement: { ...s, ...(limit === undefined ? {} : { limit }), ...(offset === undefined ? {} : { offset }) }, params };
}
