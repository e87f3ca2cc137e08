/**
 * CST → AST: turns the concrete syntax tree of `grammar.ts` into the typed,
 * span-carrying nodes of `ast.ts`.
 *
 * Plain functions over the generated CST types (`cst.generated.ts`) rather
 * than a Chevrotain visitor class: dispatch is a direct call and every access
 * is type-checked against the grammar. Where the grammar guarantees a child
 * exists, `!` says so; a grammar change that breaks that shows up as a type
 * error after `npm run grammar`.
 *
 * Spans: the parser records no node locations (it is faster without), so
 * each node's extent is derived here from its first and last tokens; the
 * `*Start`/`*End` helpers find those in O(1) per node, looking through
 * parentheses, which belong to the enclosing node's extent but not to the
 * parenthesized expression's own span. Line and column come from a
 * `LineIndex` over the text.
 *
 * Children are visited in text order; a `?` placeholder's index comes from
 * `params.ts`, which numbers `?` and `?NNN` from the tokens. AND/OR chains
 * come out flat: one `operands` array per level; an arithmetic chain, flat
 * in the CST, is nested here by precedence (see `arithmetic`). The few
 * rules the grammar cannot express (a safe integer, a finite number, one
 * DEFAULT per column, expressions at most 256 levels deep) are checked here
 * and raise `sql_error`.
 *
 * Depth: every expression builder leaves the depth of the node it returned
 * in `this.depth` (a return register, so no wrapper object per node); its
 * caller reads it at once. A leaf (column, literal, `?`) is depth 0, so 256
 * is the number of operators stacked above one, as the token check counts
 * NOTs and parentheses. Chains and runs the CST keeps flat (NOTs, minus
 * signs, arithmetic) would otherwise build trees deep enough to overflow the
 * stack of every later phase, which all recurse.
 */
import type { IToken } from "chevrotain";
import { SqlError } from "../errors.js";
import type { LineIndex } from "../lexer/index.js";
import { Param as T_PARAM, QuotedIdentifier } from "../lexer/tokens.js";
import type * as A from "./ast.js";
import type * as C from "./cst.generated.js";
import type { ParamNumbers } from "./params.js";

/** Expressions may nest this deep (CONTRACT §4); deeper is `sql_error`. */
export const MAX_EXPRESSION_DEPTH = 256;

/** Builds the AST of one statement; `text` is the statement's source, for the names of select items. */
export function toAst(cst: C.StatementCstNode, text: string, lines: LineIndex, params: ParamNumbers): A.Statement {
  return new AstBuilder(text, lines, params).statement(cst);
}

// ---------------------------------------------------------------- token extents

const endOf = (token: IToken): number => token.startOffset + token.image.length;

/** The children every literal-bearing node shares (operand, value, literal). */
interface LiteralChildren {
  StringLiteral?: IToken[];
  NumberLiteral?: IToken[];
  Minus?: IToken[];
  True?: IToken[];
  False?: IToken[];
  Null?: IToken[];
}

/** The first token of an operand: a literal's, `?`, a name, `(`, EXISTS, CASE or CAST. */
function firstToken(c: LiteralChildren & { Param?: IToken[]; Identifier?: IToken[]; LParen?: IToken[]; Cast?: IToken[]; Exists?: IToken[] }): IToken {
  return (c.Minus ?? c.Cast ?? c.Exists ?? c.Identifier ?? c.LParen ?? c.Param ?? c.NumberLiteral ?? c.StringLiteral ?? c.True ?? c.False ?? c.Null)![0]!;
}

function lastToken(c: LiteralChildren & { Param?: IToken[]; Identifier?: IToken[]; RParen?: IToken[] }): IToken {
  const list = (c.RParen ?? c.Identifier ?? c.Param ?? c.NumberLiteral ?? c.StringLiteral ?? c.True ?? c.False ?? c.Null)!;
  return list[list.length - 1]!;
}

function operandStart(node: C.OperandCstNode): number {
  const c = node.children;
  return c.caseExpression ? c.caseExpression[0]!.children.Case[0]!.startOffset : firstToken(c).startOffset;
}

/** Where an operand ends, its COLLATE clauses included. */
function operandEnd(node: C.OperandCstNode): number {
  const c = node.children;
  return c.collation ? endOf(last(c.collation)) : coreEnd(node);
}

/** Where an operand ends before any COLLATE clause. */
function coreEnd(node: C.OperandCstNode): number {
  const c = node.children;
  if (c.overClause) return overEnd(c.overClause[0]!);
  if (c.filterClause) return endOf(c.filterClause[0]!.children.RParen[0]!);
  return c.caseExpression ? endOf(c.caseExpression[0]!.children.End[0]!) : endOf(lastToken(c));
}

function overEnd(node: C.OverClauseCstNode): number {
  const c = node.children;
  return endOf((c.RParen ?? c.Identifier)![0]!);
}

/** A chain starts at its first minus sign if one comes before its first operand (minus signs come only before operands). */
function arithmeticStart(node: C.ArithmeticCstNode): number {
  const c = node.children;
  const first = operandStart(c.operand[0]!);
  return c.Minus && c.Minus[0]!.startOffset < first ? c.Minus[0]!.startOffset : first;
}

const arithmeticEnd = (node: C.ArithmeticCstNode): number => operandEnd(last(node.children.operand));

/** The chain's minus signs split by operand: those before operand i and after the operator before it. */
function minusRuns(node: C.ArithmeticCstNode): (IToken[] | undefined)[] {
  const { Minus: minus, operand } = node.children;
  if (!minus) return operand.map(() => undefined);
  let at = 0;
  return operand.map((o) => {
    const start = operandStart(o);
    const from = at;
    while (at < minus.length && minus[at]!.startOffset < start) at++;
    return at > from ? minus.slice(from, at) : undefined;
  });
}
const predicateStart = (node: C.PredicateCstNode): number => arithmeticStart(node.children.arithmetic[0]!);

function predicateEnd(node: C.PredicateCstNode): number {
  const c = node.children;
  if (c.RParen) return endOf(c.RParen[0]!);
  const postfix = c.Isnull ?? c.Notnull ?? c.Null;
  if (postfix) return endOf(postfix[0]!);
  return arithmeticEnd(last(c.arithmetic));
}

function andStart(node: C.AndExpressionCstNode): number {
  const c = node.children;
  const first = predicateStart(c.predicate[0]!);
  return c.Not && c.Not[0]!.startOffset < first ? c.Not[0]!.startOffset : first;
}

const andEnd = (node: C.AndExpressionCstNode): number => predicateEnd(last(node.children.predicate));
const expressionStart = (node: C.ExpressionCstNode): number => andStart(node.children.andExpression[0]!);
const expressionEnd = (node: C.ExpressionCstNode): number => andEnd(last(node.children.andExpression));
const valueEnd = (node: C.LiteralCstNode): number => endOf(lastToken(node.children));

function orderItemEnd(node: C.OrderItemCstNode): number {
  const c = node.children;
  const last = c.First ?? c.Last ?? c.Asc ?? c.Desc;
  return last ? endOf(last[0]!) : expressionEnd(c.expression[0]!);
}

function referencesEnd(node: C.ReferencesClauseCstNode): number {
  const c = node.children;
  const action = c.Cascade ?? c.Restrict;
  return endOf(action ? action[0]! : c.nameList[0]!.children.RParen[0]!);
}

function typeNameEnd(node: C.TypeNameCstNode): number {
  const c = node.children;
  return endOf(c.RParen ? c.RParen[0]! : c.Identifier[0]!);
}

function columnConstraintEnd(node: C.ColumnConstraintCstNode): number {
  const c = node.children;
  if (c.literal) return valueEnd(c.literal[0]!);
  if (c.referencesClause) return referencesEnd(c.referencesClause[0]!);
  return endOf((c.Key ?? c.Null ?? c.Unique ?? c.RParen ?? c.Identifier)![0]!);
}

/** SQL's clock names a DEFAULT may take, and what each reads. */
const CLOCK_DEFAULTS: Readonly<Record<string, "timestamp" | "date" | "time">> = { CURRENT_TIMESTAMP: "timestamp", CURRENT_DATE: "date", CURRENT_TIME: "time" };

function last<T>(list: readonly T[]): T {
  return list[list.length - 1]!;
}

// ---------------------------------------------------------------- values

function stringValue(image: string): string {
  const body = image.slice(1, -1);
  return body.includes("''") ? body.replaceAll("''", "'") : body;
}

const INTEGER = /^\d+$/;

/** Binding strength of the arithmetic operators, as SQLite has them: `||`, `->` and `->>` bind tightest, then `* / %`, then `+ -`. */
const PRECEDENCE: Readonly<Record<A.BinaryOp, number>> = { "||": 3, "->": 3, "->>": 3, "*": 2, "/": 2, "%": 2, "+": 1, "-": 1 };

class AstBuilder {
  /** The depth of the expression node built last (see the header). */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly lines: LineIndex,
    private readonly params: ParamNumbers,
  ) {}

  /** Records the depth of a node about to be returned; too deep is `sql_error` at `start`. */
  private deep(depth: number, start: number): void {
    if (depth > MAX_EXPRESSION_DEPTH) {
      const position = this.lines.position(start);
      throw new SqlError("sql_error", `Expression nested deeper than ${MAX_EXPRESSION_DEPTH} levels at line ${position.line}, column ${position.column}`, {
        position,
      });
    }
    this.depth = depth;
  }

  private span(start: number, end: number): A.Span {
    const line = this.lines.line(start);
    return { start, end, line, column: this.lines.column(start, line) };
  }

  private tokenSpan(token: IToken): A.Span {
    return this.span(token.startOffset, endOf(token));
  }

  private error(token: IToken, message: string): SqlError {
    const position = this.lines.position(token.startOffset);
    return new SqlError("sql_error", `${message} at line ${position.line}, column ${position.column}`, { position });
  }

  private name(token: IToken): A.Name {
    const image = token.image;
    if (token.tokenType === QuotedIdentifier) {
      return { text: image.slice(1, -1).replaceAll('""', '"'), quoted: true, span: this.tokenSpan(token) };
    }
    return { text: image, quoted: false, span: this.tokenSpan(token) };
  }

  private keyColumns(node: C.KeyColumnListCstNode): A.KeyColumn[] {
    return node.children.keyColumn.map((column) => {
      const [name, collation] = column.children.Identifier.map((token) => this.name(token));
      return collation === undefined ? name! : { ...name!, collation };
    });
  }

  private names(tokens: readonly IToken[]): A.Name[] {
    const out: A.Name[] = [];
    for (const token of tokens) out.push(this.name(token));
    return out;
  }

  /** The value of a number token: finite, and exact if written as an integer. */
  private number(token: IToken, negative: boolean): number {
    const image = token.image;
    const value = Number(image);
    const shown = negative ? `-${image}` : image;
    if (!Number.isFinite(value)) throw this.error(token, `Number ${shown} is out of range`);
    if (!Number.isSafeInteger(value) && INTEGER.test(image)) {
      throw this.error(token, `Integer ${shown} is not exact in a double (beyond ±${Number.MAX_SAFE_INTEGER})`);
    }
    return negative ? (value === 0 ? 0 : -value) : value;
  }

  /** A count written in the text (LIMIT, OFFSET, type arguments): a non-negative safe integer. */
  private count(token: IToken, what: string): number {
    const value = this.number(token, false);
    if (!INTEGER.test(token.image)) throw this.error(token, `${what} takes a whole number, not ${token.image},`);
    return value;
  }

  private literal(c: LiteralChildren, start: number, end: number, negative = c.Minus !== undefined): A.LiteralExpr {
    let value: A.LiteralValue;
    const number = c.NumberLiteral?.[0];
    if (number) value = this.number(number, negative);
    else if (c.StringLiteral) value = stringValue(c.StringLiteral[0]!.image);
    else if (c.True) value = true;
    else if (c.False) value = false;
    else value = null;
    const span = this.span(start, end);
    // A number written with a point or an exponent is real even when its value is whole (CONTRACT §11: `7.0 / 2` is 3.5).
    return number !== undefined && !INTEGER.test(number.image) ? { kind: "literal", value, real: true, span } : { kind: "literal", value, span };
  }

  private param(token: IToken): A.ParamExpr {
    this.depth = 0;
    return { kind: "param", index: this.params.get(token)!, span: this.tokenSpan(token) };
  }

  // ---------------------------------------------------------------- statements

  statement(node: C.StatementCstNode): A.Statement {
    const c = node.children;
    if (c.queryStatement) return this.query(c.queryStatement[0]!);
    if (c.createStatement) {
      const create = c.createStatement[0]!.children;
      const start = create.Create[0]!.startOffset;
      return create.createTableStatement ? this.createTable(create.createTableStatement[0]!, start) : this.createIndex(create.createIndexStatement![0]!, start);
    }
    if (c.dropStatement) {
      const drop = c.dropStatement[0]!.children;
      const start = drop.Drop[0]!.startOffset;
      return drop.dropTableStatement ? this.dropTable(drop.dropTableStatement[0]!, start) : this.dropIndex(drop.dropIndexStatement![0]!, start);
    }
    if (c.alterTableStatement) return this.alterTable(c.alterTableStatement[0]!);
    return this.explain(c.explainStatement![0]!);
  }

  private explain(node: C.ExplainStatementCstNode): A.ExplainStmt {
    const c = node.children;
    const statement = this.query(c.queryStatement[0]!);
    return { kind: "explain", statement, span: this.span(c.Explain[0]!.startOffset, statement.span.end) };
  }

  /** A select or a write, with the WITH clause before it (a select's own, at the top). */
  private query(node: C.QueryStatementCstNode): A.SelectStmt | A.InsertStmt | A.UpdateStmt | A.DeleteStmt {
    const c = node.children;
    const second = c.withClause?.[1];
    if (second !== undefined) throw this.error(second.children.With[0]!, "A statement takes one WITH clause: list every table in it, separated by commas");
    const withClause = c.withClause ? this.withClause(c.withClause[0]!).clause : undefined;
    const statement = c.selectStatement
      ? this.select(c.selectStatement[0]!)
      : c.insertStatement
        ? this.insert(c.insertStatement[0]!)
        : c.updateStatement
          ? this.update(c.updateStatement[0]!)
          : this.delete(c.deleteStatement![0]!);
    if (withClause === undefined) return statement;
    return { ...statement, with: withClause, span: this.span(withClause.span.start, statement.span.end) };
  }

  /** A WITH clause, and the depth of its tables' deepest expression. */
  private withClause(node: C.WithClauseCstNode): { clause: A.WithClause; depth: number } {
    const c = node.children;
    let depth = 0;
    const tables = c.commonTable.map((table) => {
      const t = table.children;
      // The table's name, then the column list's names (Chevrotain collects every Identifier of the rule).
      const [name, ...columns] = t.Identifier.map((token) => this.name(token));
      const select = this.select(t.selectStatement[0]!);
      depth = Math.max(depth, this.depth);
      const closing = t.RParen.reduce((a, b) => (a.startOffset > b.startOffset ? a : b));
      return { name: name!, ...(t.LParen.length > 1 ? { columns } : {}), select, span: this.span(name!.span.start, endOf(closing)) };
    });
    return { clause: { recursive: c.Recursive !== undefined, tables, span: this.span(c.With[0]!.startOffset, last(tables).span.end) }, depth };
  }

  /** A select; as a subquery, it leaves the depth of its deepest expression in `this.depth`. */
  private select(node: C.SelectStatementCstNode): A.SelectStmt {
    const c = node.children;
    let depth = 0;
    let withClause: A.WithClause | undefined;
    if (c.withClause) {
      const read = this.withClause(c.withClause[0]!);
      withClause = read.clause;
      depth = read.depth;
    }
    const first = this.selectCore(c.selectCore[0]!);
    depth = Math.max(depth, this.depth);
    let end = first.span.end;
    // In text order, as every node's members are.
    const compound: A.SetOperation[] = [];
    (c.compoundOperator ?? []).forEach((op, i) => {
      const select = this.selectCore(c.selectCore[i + 1]!);
      depth = Math.max(depth, this.depth);
      const o = op.children;
      const operator: A.SetOperator = o.Intersect ? "intersect" : o.Except ? "except" : o.All ? "union all" : "union";
      const start = (o.Union ?? o.Intersect ?? o.Except)![0]!.startOffset;
      compound.push({ operator, select, span: this.span(start, select.span.end) });
      end = select.span.end;
    });
    const orderBy: A.OrderItem[] = [];
    if (c.orderItem) {
      for (const item of c.orderItem) {
        orderBy.push(this.orderItem(item));
        depth = Math.max(depth, this.depth);
      }
      end = last(orderBy).span.end;
    }
    let limit: A.Count | undefined;
    let offset: A.Count | undefined;
    if (c.Limit) {
      // LIMIT's count comes before OFFSET's: tell them apart by position.
      const counts = [...(c.NumberLiteral ?? []), ...(c.Param ?? [])].sort((a, b) => a.startOffset - b.startOffset);
      // A minus sign belongs to the number right after it.
      const negative = (token: IToken): boolean => (c.Minus ?? []).some((m) => m.startOffset < token.startOffset && !counts.some((o) => o.startOffset > m.startOffset && o.startOffset < token.startOffset));
      limit = this.countOf(counts[0]!, "LIMIT", negative(counts[0]!));
      if (counts[1]) offset = this.countOf(counts[1], "OFFSET", negative(counts[1]));
      end = endOf(last(counts));
    }
    this.depth = depth;
    // Members in text order, as every node has them (tools walk them in that order).
    const { kind, span: _span, orderBy: _none, ...core } = first;
    return {
      kind,
      ...(withClause === undefined ? {} : { with: withClause }),
      ...core,
      ...(compound.length > 0 ? { compound } : {}),
      orderBy,
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
      span: this.span(withClause?.span.start ?? first.span.start, end),
    };
  }

  /** One SELECT of a statement, without ORDER BY, LIMIT or OFFSET; it leaves the depth of its deepest expression in `this.depth`. */
  private selectCore(node: C.SelectCoreCstNode): A.SelectStmt {
    const c = node.children;
    let depth = 0;
    let end = c.Star ? endOf(c.Star[0]!) : 0;
    let columns: A.SelectStmt["columns"] = "*";
    if (c.selectItem) {
      const list: (A.SelectItem | A.SourceStar)[] = [];
      for (const item of c.selectItem) {
        list.push(this.selectItem(item));
        depth = Math.max(depth, this.depth);
      }
      columns = list;
      end = last(list).span.end;
    }
    let from: A.FromItem | undefined;
    if (c.tableRef) {
      from = this.tableRef(c.tableRef[0]!);
      depth = Math.max(depth, this.depth);
      end = from.span.end;
    }
    const joins: A.JoinClause[] = [];
    if (c.joinClause) {
      for (const join of c.joinClause) {
        joins.push(this.join(join));
        depth = Math.max(depth, this.depth);
      }
      end = last(joins).span.end;
    }
    // WHERE, GROUP BY and HAVING expressions share one CST list, in text order: their keywords part them.
    const groupAt = c.Group?.[0]?.startOffset ?? Infinity;
    const havingAt = c.Having?.[0]?.startOffset ?? Infinity;
    let where: A.Expr | undefined;
    const groupBy: A.Expr[] = [];
    let having: A.Expr | undefined;
    for (const cst of c.expression ?? []) {
      const start = expressionStart(cst);
      const expr = this.expression(cst);
      depth = Math.max(depth, this.depth);
      if (start > havingAt) having = expr;
      else if (start > groupAt) groupBy.push(expr);
      else where = expr;
      end = expressionEnd(cst);
    }
    const windows: A.WindowDefinition[] = [];
    for (const definition of c.windowDefinition ?? []) {
      const d = definition.children;
      const spec = this.windowSpec(d.windowSpec[0]!, d.LParen[0]!, d.RParen[0]!);
      depth = Math.max(depth, this.depth);
      const name = this.name(d.Identifier[0]!);
      windows.push({ name, spec, span: this.span(name.span.start, spec.span.end) });
      end = spec.span.end;
    }
    this.depth = depth;
    return {
      kind: "select",
      distinct: c.Distinct !== undefined,
      columns,
      ...(from ? { from } : {}),
      joins,
      ...(where ? { where } : {}),
      groupBy,
      ...(having ? { having } : {}),
      ...(windows.length > 0 ? { windows } : {}),
      orderBy: [],
      span: this.span(c.Select[0]!.startOffset, end),
    };
  }

  /** A LIMIT or OFFSET: a whole number as written, or `?`. */
  private countOf(token: IToken, what: string, negative: boolean): A.Count {
    if (token.tokenType === T_PARAM) return this.param(token);
    const value = this.count(token, what);
    return negative && value !== 0 ? -value : value;
  }

  private selectItem(node: C.SelectItemCstNode): A.SelectItem | A.SourceStar {
    const c = node.children;
    if (c.Star) {
      this.depth = 0;
      const star = this.name(c.Identifier![0]!);
      return { star, span: this.span(star.span.start, endOf(c.Star[0]!)) };
    }
    const cst = c.expression![0]!;
    const expr = this.expression(cst);
    const start = expressionStart(cst);
    const text = this.text.slice(start, expressionEnd(cst));
    if (!c.Identifier) return { expr, text, span: this.span(start, expressionEnd(cst)) };
    const alias = this.name(c.Identifier[0]!);
    return { expr, alias, text, span: this.span(start, alias.span.end) };
  }

  /** A table by name, a table function's call or a derived table; the last two leave the depth of their deepest expression in `this.depth`. */
  private tableRef(node: C.TableRefCstNode): A.FromItem {
    const c = node.children;
    const ids = c.Identifier ?? [];
    if (c.selectStatement) {
      const select = this.select(c.selectStatement[0]!);
      const start = c.LParen![0]!.startOffset;
      if (!ids[0]) return { select, span: this.span(start, endOf(c.RParen![0]!)) };
      const alias = this.name(ids[0]);
      return { select, alias, span: this.span(start, alias.span.end) };
    }
    this.depth = 0;
    const table = this.name(ids[0]!);
    if (c.LParen) {
      // A table function's call: its arguments leave their deepest depth, as a derived table's select does.
      const args: A.Expr[] = [];
      let depth = 0;
      for (const arg of c.expression ?? []) {
        args.push(this.expression(arg));
        depth = Math.max(depth, this.depth);
      }
      this.depth = depth;
      const close = endOf(c.RParen![0]!);
      if (!ids[1]) return { name: table, args, span: this.span(table.span.start, close) };
      const alias = this.name(ids[1]);
      return { name: table, args, alias, span: this.span(table.span.start, alias.span.end) };
    }
    if (!ids[1]) return { name: table, span: table.span };
    const alias = this.name(ids[1]);
    return { name: table, alias, span: this.span(table.span.start, alias.span.end) };
  }

  private join(node: C.JoinClauseCstNode): A.JoinClause {
    const c = node.children;
    const table = this.tableRef(c.tableRef![0]!);
    if (!c.Join) return { type: "cross", table, span: this.span(c.Comma![0]!.startOffset, table.span.end) };
    const first = (c.Natural ?? c.Inner ?? c.Cross ?? c.Left ?? c.Right ?? c.Full ?? c.Join)[0]!;
    const type = c.Cross ? "cross" : c.Left ? "left" : c.Right ? "right" : c.Full ? "full" : "inner";
    const natural = c.Natural ? { natural: true as const } : {};
    if (c.On) {
      const on = c.expression![0]!;
      const depth = this.depth;
      const condition = this.expression(on);
      this.depth = Math.max(depth, this.depth);
      return { type, ...natural, table, on: condition, span: this.span(first.startOffset, expressionEnd(on)) };
    }
    if (c.Using) {
      return { type, ...natural, table, using: this.names(c.Identifier!), span: this.span(first.startOffset, endOf(c.RParen![0]!)) };
    }
    return { type, ...natural, table, span: this.span(first.startOffset, table.span.end) };
  }

  private orderItem(node: C.OrderItemCstNode): A.OrderItem {
    const c = node.children;
    const cst = c.expression[0]!;
    const expr = this.expression(cst);
    const nulls = c.First ? { nulls: "first" as const } : c.Last ? { nulls: "last" as const } : {};
    return { expr, direction: c.Desc ? "desc" : "asc", ...nulls, span: this.span(expressionStart(cst), orderItemEnd(node)) };
  }

  private insert(node: C.InsertStatementCstNode): A.InsertStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const columns = c.nameList ? { columns: this.names(c.nameList[0]!.children.Identifier) } : {};
    const rows: A.Expr[][] = [];
    for (const row of c.valueRow ?? []) {
      const values: A.Expr[] = [];
      for (const value of row.children.expression) values.push(this.expression(value));
      rows.push(values);
    }
    const select = c.selectStatement ? this.select(c.selectStatement[0]!) : undefined;
    const start = (c.Insert ?? c.Replace)![0]!.startOffset;
    if (c.Default) {
      // SQLite: "0 values for n columns".
      if (c.nameList) throw this.error(c.Default[0]!, "DEFAULT VALUES takes no column list: every column takes its default");
      const returning = c.returningClause ? this.returning(c.returningClause[0]!) : undefined;
      const end = returning ? returning.span.end : endOf(last(c.Values!));
      return { kind: "insert", ...this.resolution(c), table, rows: [], defaultValues: true, ...(returning ? { returning } : {}), span: this.span(start, end) };
    }
    let end = select ? select.span.end : endOf(last(c.valueRow!).children.RParen[0]!);
    const onConflict = c.onConflictClause ? this.onConflict(c.onConflictClause[0]!) : undefined;
    if (onConflict) end = onConflict.span.end;
    const returning = c.returningClause ? this.returning(c.returningClause[0]!) : undefined;
    if (returning) end = returning.span.end;
    return {
      kind: "insert",
      ...this.resolution(c),
      table,
      ...columns,
      rows,
      ...(select ? { select } : {}),
      ...(onConflict ? { onConflict } : {}),
      ...(returning ? { returning } : {}),
      span: this.span(start, end),
    };
  }

  /**
   * `INSERT OR …`: IGNORE and REPLACE, and REPLACE INTO; ABORT is what every
   * statement does anyway (a failing row undoes the whole statement). FAIL
   * (keep the rows before the failing one) and ROLLBACK (end the
   * transaction) would break that all-or-nothing rule: refused.
   */
  private resolution(c: C.InsertStatementCstNode["children"]): { or?: "ignore" | "replace" } {
    if (c.Ignore) return { or: "ignore" };
    if (c.Replace) return { or: "replace" };
    const refused = c.Fail?.[0] ?? c.Rollback?.[0];
    if (refused) {
      throw this.error(refused, `INSERT OR ${refused.image.toUpperCase()} is not supported: a statement is all or nothing here (as INSERT OR ABORT), so a failing row undoes it whole`);
    }
    return {};
  }

  private onConflict(node: C.OnConflictClauseCstNode): A.OnConflictClause {
    const c = node.children;
    const start = c.On[0]!.startOffset;
    const target = c.keyColumnList ? { target: this.keyColumns(c.keyColumnList[0]!) } : {};
    if (c.Nothing) return { ...target, action: "nothing", assignments: [], span: this.span(start, endOf(c.Nothing[0]!)) };
    const assignments = this.assignments(c.assignment!);
    if (!c.expression) return { ...target, action: "update", assignments, span: this.span(start, last(assignments).span.end) };
    const cst = c.expression[0]!;
    return { ...target, action: "update", assignments, where: this.expression(cst), span: this.span(start, expressionEnd(cst)) };
  }

  private assignments(list: readonly C.AssignmentCstNode[]): A.Assignment[] {
    const assignments: A.Assignment[] = [];
    for (const a of list) {
      const names = a.children.nameList?.[0]?.children;
      const columns = names === undefined ? [this.name(a.children.Identifier![0]!)] : names.Identifier.map((token) => this.name(token));
      const start = names === undefined ? columns[0]!.span.start : names.LParen[0]!.startOffset;
      const cst = a.children.expression[0]!;
      const value = this.expression(cst);
      const span = this.span(start, expressionEnd(cst));
      // `(a) = x` is `a = x`.
      assignments.push(columns.length === 1 ? { column: columns[0]!, value, span } : { columns, value, span });
    }
    return assignments;
  }

  private returning(node: C.ReturningClauseCstNode): A.Returning {
    const c = node.children;
    const start = c.Returning[0]!.startOffset;
    if (c.Star) return { items: "*", span: this.span(start, endOf(c.Star[0]!)) };
    const items: (A.SelectItem | A.SourceStar)[] = [];
    for (const item of c.selectItem!) items.push(this.selectItem(item));
    return { items, span: this.span(start, last(items).span.end) };
  }

  private update(node: C.UpdateStatementCstNode): A.UpdateStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const alias = c.Identifier[1] ? { alias: this.name(c.Identifier[1]) } : {};
    const assignments = this.assignments(c.assignment);
    const start = c.Update[0]!.startOffset;
    let end = last(assignments).span.end;
    let from: { from?: A.FromItem; joins?: A.JoinClause[] } = {};
    if (c.tableRef) {
      const item = this.tableRef(c.tableRef[0]!);
      const joins: A.JoinClause[] = [];
      for (const join of c.joinClause ?? []) joins.push(this.join(join));
      from = { from: item, joins };
      end = joins.length > 0 ? last(joins).span.end : item.span.end;
    }
    const { tail, end: close } = this.whereReturning(c, end);
    return { kind: "update", table, ...alias, assignments, ...from, ...tail, span: this.span(start, close) };
  }

  private delete(node: C.DeleteStatementCstNode): A.DeleteStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const alias = c.Identifier[1] ? this.name(c.Identifier[1]) : undefined;
    const start = c.Delete[0]!.startOffset;
    const { tail, end } = this.whereReturning(c, (alias ?? table).span.end);
    return { kind: "delete", table, ...(alias ? { alias } : {}), ...tail, span: this.span(start, end) };
  }

  /** An update's or delete's optional WHERE and RETURNING, and where the statement ends with them. */
  private whereReturning(
    c: { expression?: C.ExpressionCstNode[]; returningClause?: C.ReturningClauseCstNode[] },
    end: number,
  ): { tail: { where?: A.Expr; returning?: A.Returning }; end: number } {
    const where = c.expression ? this.expression(c.expression[0]!) : undefined;
    if (c.expression) end = expressionEnd(c.expression[0]!);
    const returning = c.returningClause ? this.returning(c.returningClause[0]!) : undefined;
    if (returning) end = returning.span.end;
    return { tail: { ...(where ? { where } : {}), ...(returning ? { returning } : {}) }, end };
  }

  private createTable(node: C.CreateTableStatementCstNode, start: number): A.CreateTableStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const columns: A.ColumnDef[] = [];
    const constraints: A.TableConstraint[] = [];
    const ifNotExists = c.If !== undefined;
    if (c.selectStatement) {
      const as = this.select(c.selectStatement[0]!);
      return { kind: "create-table", ifNotExists, table, columns, constraints, as, span: this.span(start, as.span.end) };
    }
    for (const element of c.tableElement!) {
      const e = element.children;
      if (e.columnDefinition) columns.push(this.columnDefinition(e.columnDefinition[0]!));
      else constraints.push(this.tableConstraint(e.tableConstraint![0]!));
    }
    return { kind: "create-table", ifNotExists, table, columns, constraints, span: this.span(start, endOf(c.RParen![0]!)) };
  }

  /** DEFAULT's value: a literal, one of SQL's three clock names, or a parenthesized expression. */
  private columnDefault(k: C.ColumnConstraintCstNode["children"]): A.ColumnDefault {
    if (k.literal) {
      const literal = k.literal[0]!;
      return this.literal(literal.children, firstToken(literal.children).startOffset, valueEnd(literal));
    }
    if (k.expression) return { kind: "default-expr", expr: this.expression(k.expression[0]!), span: this.span(k.LParen![0]!.startOffset, endOf(k.RParen![0]!)) };
    const token = k.Identifier![0]!;
    const which = CLOCK_DEFAULTS[token.image.toUpperCase()];
    if (which === undefined || token.tokenType === QuotedIdentifier) {
      throw this.error(token, `DEFAULT takes a literal, CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME or (an expression), not ${token.image}`);
    }
    return { kind: "current", which, span: this.tokenSpan(token) };
  }

  private columnDefinition(node: C.ColumnDefinitionCstNode): A.ColumnDef {
    const c = node.children;
    const name = this.name(c.Identifier[0]!);
    const typeNode = c.typeName[0]!;
    const end = c.columnConstraint ? columnConstraintEnd(last(c.columnConstraint)) : typeNameEnd(typeNode);
    const def: { -readonly [K in keyof A.ColumnDef]: A.ColumnDef[K] } = {
      name,
      type: this.typeName(typeNode),
      primaryKey: false,
      notNull: false,
      unique: false,
      span: this.span(name.span.start, end),
    };
    if (c.columnConstraint) {
      for (const con of c.columnConstraint) {
        const k = con.children;
        if (k.Primary) def.primaryKey = true;
        else if (k.Not) def.notNull = true;
        else if (k.Unique) def.unique = true;
        else if (k.Collate) {
          if (def.collation) throw this.error(k.Collate[0]!, `Column ${name.text} has a second COLLATE`);
          def.collation = this.name(k.Identifier![0]!);
        } else if (k.Default) {
          if (def.default) throw this.error(k.Default[0]!, `Column ${name.text} has a second DEFAULT`);
          def.default = this.columnDefault(k);
        } else {
          const clause = k.referencesClause![0]!;
          if (def.references) throw this.error(clause.children.References[0]!, `Column ${name.text} has a second REFERENCES`);
          def.references = this.references(clause);
        }
      }
    }
    return def;
  }

  private typeName(node: C.TypeNameCstNode): A.TypeName {
    const c = node.children;
    const args: number[] = [];
    if (c.NumberLiteral) for (const n of c.NumberLiteral) args.push(this.count(n, "A type argument"));
    const name = this.name(c.Identifier[0]!);
    return { name: name.text, args, span: this.span(name.span.start, typeNameEnd(node)) };
  }

  private tableConstraint(node: C.TableConstraintCstNode): A.TableConstraint {
    const c = node.children;
    const first = (c.Constraint ?? c.Primary ?? c.Unique ?? c.Foreign ?? c.Check)![0]!;
    const label = c.Identifier ? { name: this.name(c.Identifier[0]!) } : {};
    if (c.Check) {
      const expr = this.expression(c.expression![0]!);
      return { kind: "check", ...label, expr, span: this.span(first.startOffset, endOf(c.RParen![0]!)) };
    }
    if (c.referencesClause) {
      const columns = this.names(c.nameList![0]!.children.Identifier);
      const references = this.references(c.referencesClause[0]!);
      return { kind: "foreign-key", ...label, columns, references, span: this.span(first.startOffset, references.span.end) };
    }
    const list = c.keyColumnList![0]!;
    const columns = this.keyColumns(list);
    const span = this.span(first.startOffset, endOf(list.children.RParen[0]!));
    return c.Primary ? { kind: "primary-key", ...label, columns, span } : { kind: "unique", ...label, columns, span };
  }

  private references(node: C.ReferencesClauseCstNode): A.References {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const columns = this.names(c.nameList[0]!.children.Identifier);
    const span = this.span(c.References[0]!.startOffset, referencesEnd(node));
    if (c.Cascade) return { table, columns, onDelete: "cascade", span };
    if (c.Restrict) return { table, columns, onDelete: "restrict", span };
    return { table, columns, span };
  }

  private dropTable(node: C.DropTableStatementCstNode, start: number): A.DropTableStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    return { kind: "drop-table", ifExists: c.If !== undefined, table, span: this.span(start, table.span.end) };
  }

  private createIndex(node: C.CreateIndexStatementCstNode, start: number): A.CreateIndexStmt {
    const c = node.children;
    const list = c.keyColumnList[0]!;
    return {
      kind: "create-index",
      unique: c.Unique !== undefined,
      ifNotExists: c.If !== undefined,
      name: this.name(c.Identifier[0]!),
      table: this.name(c.Identifier[1]!),
      columns: this.keyColumns(list),
      span: this.span(start, endOf(list.children.RParen[0]!)),
    };
  }

  private dropIndex(node: C.DropIndexStatementCstNode, start: number): A.DropIndexStmt {
    const c = node.children;
    const name = this.name(c.Identifier[0]!);
    return { kind: "drop-index", ifExists: c.If !== undefined, name, span: this.span(start, name.span.end) };
  }

  private alterTable(node: C.AlterTableStatementCstNode): A.AlterTableStmt {
    const c = node.children;
    const table = this.name(c.Identifier[0]!);
    const span = (end: number): A.Span => this.span(c.Alter[0]!.startOffset, end);
    if (c.columnDefinition) {
      const column = this.columnDefinition(c.columnDefinition[0]!);
      return { kind: "alter-table", table, action: { kind: "add-column", column }, span: span(column.span.end) };
    }
    if (c.Drop) {
      const column = this.name(c.Identifier[1]!);
      return { kind: "alter-table", table, action: { kind: "drop-column", column }, span: span(column.span.end) };
    }
    const names = c.renameAction![0]!.children.Identifier!;
    if (names.length === 1) {
      const to = this.name(names[0]!);
      return { kind: "alter-table", table, action: { kind: "rename-table", to }, span: span(to.span.end) };
    }
    const from = this.name(names[0]!);
    const to = this.name(names[1]!);
    return { kind: "alter-table", table, action: { kind: "rename-column", from, to }, span: span(to.span.end) };
  }

  // ---------------------------------------------------------------- expressions

  private expression(node: C.ExpressionCstNode): A.Expr {
    const terms = node.children.andExpression;
    if (terms.length === 1) return this.andExpression(terms[0]!);
    const operands: A.Expr[] = [];
    let depth = 0;
    for (const term of terms) {
      operands.push(this.andExpression(term));
      depth = Math.max(depth, this.depth);
    }
    const start = expressionStart(node);
    this.deep(depth + 1, start);
    return { kind: "or", operands, span: this.span(start, expressionEnd(node)) };
  }

  /** The predicates, each wrapped in the NOTs that precede it (the CST keeps all NOTs in one list, in text order). */
  private andExpression(node: C.AndExpressionCstNode): A.Expr {
    const c = node.children;
    const nots = c.Not;
    const predicates = c.predicate;
    const operands: A.Expr[] = [];
    let next = 0; // the first NOT not yet used
    let depth = 0;
    for (const predicate of predicates) {
      let operand = this.predicate(predicate);
      let level = this.depth;
      if (nots !== undefined) {
        const start = predicateStart(predicate);
        let own = next;
        while (own < nots.length && nots[own]!.startOffset < start) own++;
        const end = predicateEnd(predicate);
        for (let i = own - 1; i >= next; i--) {
          const at = nots[i]!.startOffset;
          this.deep(++level, at);
          operand = { kind: "not", expr: operand, span: this.span(at, end) };
        }
        next = own;
      }
      depth = Math.max(depth, level);
      operands.push(operand);
    }
    if (operands.length === 1) {
      this.depth = depth;
      return operands[0]!;
    }
    const start = andStart(node);
    this.deep(depth + 1, start);
    return { kind: "and", operands, span: this.span(start, andEnd(node)) };
  }

  private predicate(node: C.PredicateCstNode): A.Expr {
    const c = node.children;
    const arithmetic = c.arithmetic;
    const left = this.arithmetic(arithmetic[0]!);
    const postfix = c.Isnull !== undefined || c.Notnull !== undefined || c.Null !== undefined;
    if (arithmetic.length === 1 && !c.Is && !c.In && !postfix) return left;
    let depth = this.depth;
    const start = predicateStart(node);
    const span = this.span(start, predicateEnd(node));
    if (c.Null !== undefined && c.Not === undefined) throw this.error(c.Null[0]!, "A NULL test is x IS NULL, x ISNULL or x NOT NULL, not x NULL");
    if (postfix) return { kind: "is-null", expr: left, not: c.Isnull === undefined, span };
    const not = c.Not !== undefined && !c.Is ? true : false;
    let expr: A.Expr;
    if (c.ComparisonOperator) {
      const op = c.ComparisonOperator[0]!.image as A.ComparisonOp;
      const right = this.arithmetic(arithmetic[1]!);
      depth = Math.max(depth, this.depth);
      expr = { kind: "comparison", op, left, right, span };
    } else if (c.Is) {
      // IS DISTINCT FROM is IS NOT, and IS NOT DISTINCT FROM is IS.
      const negated = (c.Not !== undefined) !== (c.Distinct !== undefined);
      const right = this.arithmetic(arithmetic[1]!);
      depth = Math.max(depth, this.depth);
      expr = right.kind === "literal" && right.value === null ? { kind: "is-null", expr: left, not: negated, span } : { kind: "comparison", op: negated ? "is not" : "is", left, right, span };
    } else if (c.In) {
      if (c.selectStatement) {
        const select = this.select(c.selectStatement[0]!);
        depth = Math.max(depth, this.depth);
        expr = { kind: "in", expr: left, values: [], select, not, span };
      } else {
        const values: A.Expr[] = [];
        for (const value of c.expression!) {
          values.push(this.expression(value));
          depth = Math.max(depth, this.depth);
        }
        expr = { kind: "in", expr: left, values, not, span };
      }
    } else if (c.Between) {
      const low = this.arithmetic(arithmetic[1]!);
      depth = Math.max(depth, this.depth);
      const high = this.arithmetic(arithmetic[2]!);
      depth = Math.max(depth, this.depth);
      expr = { kind: "between", expr: left, low, high, not, span };
    } else if (c.Glob) {
      const pattern = this.arithmetic(arithmetic[1]!);
      depth = Math.max(depth, this.depth);
      expr = { kind: "glob", expr: left, pattern, not, span };
    } else {
      const pattern = this.arithmetic(arithmetic[1]!);
      depth = Math.max(depth, this.depth);
      if (arithmetic[2]) {
        const escape = this.arithmetic(arithmetic[2]);
        depth = Math.max(depth, this.depth);
        expr = { kind: "like", expr: left, pattern, escape, not, span };
      } else {
        expr = { kind: "like", expr: left, pattern, not, span };
      }
    }
    this.deep(depth + 1, start);
    return expr;
  }

  /**
   * An operator chain, nested by precedence with an operand stack and an
   * operator stack (shunting-yard): iterative, so a long chain cannot
   * overflow the stack here; its depth is checked as it grows.
   */
  private arithmetic(node: C.ArithmeticCstNode): A.Expr {
    const c = node.children;
    const operandNodes = c.operand;
    const runs = minusRuns(node);
    const first = this.unary(runs[0], operandNodes[0]!);
    const ops = c.ArithmeticOperator;
    if (!ops) return first;
    const operands: A.Expr[] = [first];
    const depths: number[] = [this.depth];
    const pending: A.BinaryOp[] = [];
    const reduce = (): void => {
      const right = operands.pop()!;
      const left = operands.pop()!;
      const rightDepth = depths.pop()!;
      const depth = Math.max(depths.pop()!, rightDepth) + 1;
      this.deep(depth, left.span.start);
      operands.push({ kind: "binary", op: pending.pop()!, left, right, span: this.span(left.span.start, right.span.end) });
      depths.push(depth);
    };
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!.image as A.BinaryOp;
      while (pending.length > 0 && PRECEDENCE[pending[pending.length - 1]!] >= PRECEDENCE[op]) reduce();
      pending.push(op);
      operands.push(this.unary(runs[i + 1], operandNodes[i + 1]!));
      depths.push(this.depth);
    }
    while (pending.length > 0) reduce();
    this.depth = depths[0]!;
    return operands[0]!;
  }

  /** Minus signs before an operand: the innermost one before a number literal makes it negative, the others negate. */
  private unary(minuses: IToken[] | undefined, operandNode: C.OperandCstNode): A.Expr {
    if (!minuses) return this.operand(operandNode);
    const o = operandNode.children;
    let negations = minuses.length;
    let expr: A.Expr;
    const end = operandEnd(operandNode);
    if (o.NumberLiteral) {
      negations--;
      const at = minuses[negations]!.startOffset;
      this.depth = 0;
      expr = this.collated(o, this.literal(o, at, coreEnd(operandNode), true), at);
    } else {
      expr = this.operand(operandNode);
    }
    let depth = this.depth;
    for (let i = negations - 1; i >= 0; i--) {
      const at = minuses[i]!.startOffset;
      this.deep(++depth, at);
      expr = { kind: "negate", expr, span: this.span(at, end) };
    }
    return expr;
  }

  /** An operand and the COLLATE clauses after it, each over the one before. */
  private operand(node: C.OperandCstNode): A.Expr {
    const c = node.children;
    if (!c.collation) return this.operandCore(node);
    const start = operandStart(node);
    return this.collated(c, this.operandCore(node), start);
  }

  /** `expr COLLATE a COLLATE b …` (from `start`), names as written; leaves its depth in `this.depth`. */
  private collated(c: C.OperandCstChildren, expr: A.Expr, start: number): A.Expr {
    if (!c.collation) return expr;
    let depth = this.depth;
    for (const token of c.collation) {
      this.deep(++depth, start);
      expr = { kind: "collate", expr, collation: this.name(token), span: this.span(start, endOf(token)) };
    }
    this.depth = depth;
    return expr;
  }

  private operandCore(node: C.OperandCstNode): A.Expr {
    const c = node.children;
    if (c.Identifier) {
      if (!c.LParen) {
        this.depth = 0;
        return this.column(c.Identifier);
      }
      return this.call(node);
    }
    if (c.Param) return this.param(c.Param[0]!);
    if (c.caseExpression) return this.caseExpression(c.caseExpression[0]!);
    if (c.selectStatement) {
      // `EXISTS (SELECT …)` or a scalar `(SELECT …)`: one level deeper than the deepest expression inside.
      const select = this.select(c.selectStatement[0]!);
      const start = operandStart(node);
      this.deep(this.depth + 1, start);
      const span = this.span(start, coreEnd(node));
      return c.Exists ? { kind: "exists", select, span } : { kind: "subquery", select, span };
    }
    if (c.Cast) {
      const expr = this.expression(c.expression![0]!);
      const depth = this.depth + 1;
      const start = c.Cast[0]!.startOffset;
      this.deep(depth, start);
      return { kind: "cast", expr, type: this.typeName(c.typeName![0]!), span: this.span(start, endOf(c.RParen![0]!)) };
    }
    if (c.expression) {
      if (c.expression.length === 1) return this.expression(c.expression[0]!);
      // A row value: one level deeper than its deepest value.
      let depth = 0;
      const items = c.expression.map((cst) => {
        const item = this.expression(cst);
        depth = Math.max(depth, this.depth);
        return item;
      });
      const start = operandStart(node);
      this.deep(depth + 1, start);
      return { kind: "row", items, span: this.span(start, coreEnd(node)) };
    }
    this.depth = 0;
    return this.literal(c, operandStart(node), coreEnd(node));
  }

  private call(node: C.OperandCstNode): A.CallExpr {
    const c = node.children;
    const name = this.name(c.Identifier![0]!);
    const args: A.Expr[] = [];
    let depth = 0;
    for (const arg of c.expression ?? []) {
      args.push(this.expression(arg));
      depth = Math.max(depth, this.depth);
    }
    let filter: A.CallExpr["filter"];
    const filterClause = c.filterClause?.[0]?.children;
    if (filterClause !== undefined) {
      filter = { where: this.expression(filterClause.expression[0]!), span: this.span(filterClause.Filter[0]!.startOffset, endOf(filterClause.RParen[0]!)) };
      depth = Math.max(depth, this.depth);
    }
    let over: A.CallExpr["over"];
    const clause = c.overClause?.[0]?.children;
    if (clause?.windowSpec) {
      over = { spec: this.windowSpec(clause.windowSpec[0]!, clause.LParen![0]!, clause.RParen![0]!) };
      depth = Math.max(depth, this.depth);
    } else if (clause?.Identifier) over = { name: this.name(clause.Identifier[0]!) };
    this.deep(depth + 1, name.span.start);
    return {
      kind: "call",
      name,
      args,
      distinct: c.Distinct !== undefined,
      star: c.Star !== undefined,
      ...(filter === undefined ? {} : { filter }),
      ...(over === undefined ? {} : { over }),
      span: this.span(name.span.start, coreEnd(node)),
    };
  }

  /** A window between its parentheses; it leaves the depth of its deepest expression in `this.depth`. */
  private windowSpec(node: C.WindowSpecCstNode, open: IToken, close: IToken): A.WindowSpec {
    const c = node.children;
    let depth = 0;
    const partitionBy: A.Expr[] = [];
    for (const cst of c.expression ?? []) {
      partitionBy.push(this.expression(cst));
      depth = Math.max(depth, this.depth);
    }
    const orderBy: A.OrderItem[] = [];
    for (const item of c.orderItem ?? []) {
      orderBy.push(this.orderItem(item));
      depth = Math.max(depth, this.depth);
    }
    const frame = c.frameSpec === undefined ? undefined : this.frameSpec(c.frameSpec[0]!);
    this.depth = depth;
    return {
      ...(c.Identifier ? { base: this.name(c.Identifier[0]!) } : {}),
      partitionBy,
      orderBy,
      ...(frame === undefined ? {} : { frame }),
      span: this.span(open.startOffset, endOf(close)),
    };
  }

  private frameSpec(node: C.FrameSpecCstNode): A.FrameClause {
    const c = node.children;
    const unitsToken = (c.Rows ?? c.Range ?? c.Groups)![0]!;
    const units = c.Rows ? "rows" : c.Range ? "range" : "groups";
    const bounds = (c.frameBound ?? []).map((b) => this.frameEnd(b));
    const exclude = c.No ? "no others" : c.Current ? "current row" : c.Group ? "group" : c.Ties ? "ties" : undefined;
    const lastToken = (c.Others ?? c.Row ?? c.Group ?? c.Ties)?.[0];
    const end = lastToken === undefined ? last(bounds).span.end : endOf(lastToken);
    return {
      units,
      start: bounds[0]!,
      ...(bounds[1] === undefined ? {} : { end: bounds[1] }),
      ...(exclude === undefined ? {} : { exclude }),
      span: this.span(unitsToken.startOffset, end),
    };
  }

  private frameEnd(node: C.FrameBoundCstNode): A.FrameEnd {
    const c = node.children;
    if (c.Current) return { kind: "current-row", span: this.span(c.Current[0]!.startOffset, endOf(c.Row![0]!)) };
    const side = (c.Preceding ?? c.Following)![0]!;
    const preceding = c.Preceding !== undefined;
    if (c.Unbounded) return { kind: preceding ? "unbounded-preceding" : "unbounded-following", span: this.span(c.Unbounded[0]!.startOffset, endOf(side)) };
    const token = (c.NumberLiteral ?? c.Param)![0]!;
    const span = this.span(token.startOffset, endOf(side));
    return { kind: preceding ? "preceding" : "following", offset: c.Param ? this.param(token) : this.number(token, false), span };
  }

  private caseExpression(node: C.CaseExpressionCstNode): A.CaseExpr {
    const c = node.children;
    const parts = c.expression;
    const hasElse = c.Else !== undefined;
    const hasOperand = parts.length > 2 * c.When.length + (hasElse ? 1 : 0);
    let at = 0;
    let depth = 0;
    const next = (): A.Expr => {
      const e = this.expression(parts[at++]!);
      depth = Math.max(depth, this.depth);
      return e;
    };
    const operand = hasOperand ? next() : undefined;
    const whens: A.WhenClause[] = [];
    for (let i = 0; i < c.When.length; i++) {
      const when = next();
      whens.push({ when, then: next() });
    }
    const otherwise = hasElse ? next() : undefined;
    const start = c.Case[0]!.startOffset;
    this.deep(depth + 1, start);
    const span = this.span(start, endOf(c.End[0]!));
    const expr: { -readonly [K in keyof A.CaseExpr]: A.CaseExpr[K] } = { kind: "case", whens, span };
    if (operand) expr.operand = operand;
    if (otherwise) expr.else = otherwise;
    return expr;
  }

  private column(ids: readonly IToken[]): A.ColumnRefExpr {
    if (ids.length === 1) {
      const name = this.name(ids[0]!);
      return { kind: "column", name, span: name.span };
    }
    const table = this.name(ids[0]!);
    const name = this.name(ids[1]!);
    return { kind: "column", table, name, span: this.span(table.span.start, name.span.end) };
  }

}
