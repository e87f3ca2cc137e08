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
 * Children are visited in text order, so `?` placeholders are numbered 0, 1,
 * ... as they appear. AND/OR chains come out flat: one `operands` array per
 * level. The few rules the grammar cannot express (a safe integer, a finite
 * number, one DEFAULT per column) are checked here and raise `sql_error`.
 */
import type { CstNode, IToken } from "chevrotain";
import { SqlError } from "../errors.js";
import { QuotedIdentifier } from "../lexer/tokens.js";
import type * as A from "./ast.js";
import type * as C from "./cst.generated.js";

/** Builds the AST of one statement; holds the placeholder counter for that statement. */
export function toAst(cst: C.StatementCstNode): A.Statement {
  return new AstBuilder().statement(cst);
}

function nodeSpan(node: CstNode): A.Span {
  const l = node.location!;
  return { start: l.startOffset, end: l.endOffset! + 1, line: l.startLine!, column: l.startColumn! };
}

function tokenSpan(token: IToken): A.Span {
  return { start: token.startOffset, end: token.endOffset! + 1, line: token.startLine!, column: token.startColumn! };
}

function positionOf(token: IToken) {
  return { line: token.startLine!, column: token.startColumn!, offset: token.startOffset };
}

function name(token: IToken): A.Name {
  const image = token.image;
  if (token.tokenType === QuotedIdentifier) {
    return { text: image.slice(1, -1).replaceAll('""', '"'), quoted: true, span: tokenSpan(token) };
  }
  return { text: image, quoted: false, span: tokenSpan(token) };
}

function names(tokens: readonly IToken[]): A.Name[] {
  const out: A.Name[] = [];
  for (const token of tokens) out.push(name(token));
  return out;
}

function stringValue(image: string): string {
  const body = image.slice(1, -1);
  return body.includes("''") ? body.replaceAll("''", "'") : body;
}

const INTEGER = /^\d+$/;

/** The value of a number token: finite, and exact if written as an integer. */
function numberValue(token: IToken, negative: boolean): number {
  const image = token.image;
  const value = Number(image);
  const shown = negative ? `-${image}` : image;
  if (!Number.isFinite(value)) {
    throw new SqlError("sql_error", `Number ${shown} is out of range at line ${token.startLine}, column ${token.startColumn}`, {
      position: positionOf(token),
    });
  }
  if (!Number.isSafeInteger(value) && INTEGER.test(image)) {
    throw new SqlError(
      "sql_error",
      `Integer ${shown} is not exact in a double (beyond ±${Number.MAX_SAFE_INTEGER}) at line ${token.startLine}, column ${token.startColumn}`,
      { position: positionOf(token) },
    );
  }
  return negative ? (value === 0 ? 0 : -value) : value;
}

/** A count written in the text (LIMIT, OFFSET, type arguments): a non-negative safe integer. */
function countValue(token: IToken, what: string): number {
  const value = numberValue(token, false);
  if (!INTEGER.test(token.image)) {
    throw new SqlError(
      "sql_error",
      `${what} takes a whole number, not ${token.image}, at line ${token.startLine}, column ${token.startColumn}`,
      { position: positionOf(token) },
    );
  }
  return value;
}

function duplicate(token: IToken, what: string, column: string): SqlError {
  return new SqlError("sql_error", `Column ${column} has a second ${what} at line ${token.startLine}, column ${token.startColumn}`, {
    position: positionOf(token),
  });
}

class AstBuilder {
  private params = 0;

  statement(node: C.StatementCstNode): A.Statement {
    const c = node.children;
    if (c.selectStatement) return this.select(c.selectStatement[0]!);
    if (c.insertStatement) return this.insert(c.insertStatement[0]!);
    if (c.updateStatement) return this.update(c.updateStatement[0]!);
    if (c.deleteStatement) return this.delete(c.deleteStatement[0]!);
    if (c.createTableStatement) return this.createTable(c.createTableStatement[0]!);
    if (c.dropTableStatement) return this.dropTable(c.dropTableStatement[0]!);
    return this.explain(c.explainStatement![0]!);
  }

  explain(node: C.ExplainStatementCstNode): A.ExplainStmt {
    const c = node.children;
    let statement: A.ExplainStmt["statement"];
    if (c.selectStatement) statement = this.select(c.selectStatement[0]!);
    else if (c.insertStatement) statement = this.insert(c.insertStatement[0]!);
    else if (c.updateStatement) statement = this.update(c.updateStatement[0]!);
    else statement = this.delete(c.deleteStatement![0]!);
    return { kind: "explain", statement, span: nodeSpan(node) };
  }

  select(node: C.SelectStatementCstNode): A.SelectStmt {
    const c = node.children;
    let columns: A.SelectStmt["columns"] = "*";
    if (c.columnRef) {
      const list: A.ColumnRefExpr[] = [];
      for (const ref of c.columnRef) list.push(this.columnRef(ref));
      columns = list;
    }
    const from = this.tableRef(c.tableRef[0]!);
    const joins: A.JoinClause[] = [];
    if (c.joinClause) for (const join of c.joinClause) joins.push(this.join(join));
    const where = c.whereClause ? this.expression(c.whereClause[0]!.children.expression[0]!) : undefined;
    const orderBy: A.OrderItem[] = [];
    if (c.orderByClause) for (const item of c.orderByClause[0]!.children.orderItem) orderBy.push(this.orderItem(item));
    const stmt: { -readonly [K in keyof A.SelectStmt]: A.SelectStmt[K] } = {
      kind: "select",
      columns,
      from,
      joins,
      orderBy,
      span: nodeSpan(node),
    };
    if (where) stmt.where = where;
    if (c.limitClause) {
      const numbers = c.limitClause[0]!.children.NumberLiteral;
      stmt.limit = countValue(numbers[0]!, "LIMIT");
      if (numbers[1]) stmt.offset = countValue(numbers[1], "OFFSET");
    }
    return stmt;
  }

  tableRef(node: C.TableRefCstNode): A.TableRef {
    const ids = node.children.Identifier;
    const table = name(ids[0]!);
    return ids[1] ? { name: table, alias: name(ids[1]), span: nodeSpan(node) } : { name: table, span: nodeSpan(node) };
  }

  join(node: C.JoinClauseCstNode): A.JoinClause {
    const c = node.children;
    return {
      type: c.Left ? "left" : "inner",
      table: this.tableRef(c.tableRef[0]!),
      on: this.expression(c.expression[0]!),
      span: nodeSpan(node),
    };
  }

  orderItem(node: C.OrderItemCstNode): A.OrderItem {
    const c = node.children;
    return { column: this.columnRef(c.columnRef[0]!), direction: c.Desc ? "desc" : "asc", span: nodeSpan(node) };
  }

  insert(node: C.InsertStatementCstNode): A.InsertStmt {
    const c = node.children;
    const rows: A.ValueExpr[][] = [];
    for (const row of c.valueRow) {
      const values: A.ValueExpr[] = [];
      for (const value of row.children.value) values.push(this.value(value));
      rows.push(values);
    }
    return {
      kind: "insert",
      table: name(c.Identifier[0]!),
      columns: names(c.nameList[0]!.children.Identifier),
      rows,
      span: nodeSpan(node),
    };
  }

  update(node: C.UpdateStatementCstNode): A.UpdateStmt {
    const c = node.children;
    const assignments: A.Assignment[] = [];
    for (const a of c.assignment) {
      assignments.push({
        column: name(a.children.Identifier[0]!),
        value: this.value(a.children.value[0]!),
        span: nodeSpan(a),
      });
    }
    const table = name(c.Identifier[0]!);
    if (!c.whereClause) return { kind: "update", table, assignments, span: nodeSpan(node) };
    const where = this.expression(c.whereClause[0]!.children.expression[0]!);
    return { kind: "update", table, assignments, where, span: nodeSpan(node) };
  }

  delete(node: C.DeleteStatementCstNode): A.DeleteStmt {
    const c = node.children;
    const table = name(c.Identifier[0]!);
    if (!c.whereClause) return { kind: "delete", table, span: nodeSpan(node) };
    return { kind: "delete", table, where: this.expression(c.whereClause[0]!.children.expression[0]!), span: nodeSpan(node) };
  }

  createTable(node: C.CreateTableStatementCstNode): A.CreateTableStmt {
    const c = node.children;
    const columns: A.ColumnDef[] = [];
    const constraints: A.TableConstraint[] = [];
    for (const element of c.tableElement) {
      const e = element.children;
      if (e.columnDefinition) columns.push(this.columnDefinition(e.columnDefinition[0]!));
      else constraints.push(this.tableConstraint(e.tableConstraint![0]!));
    }
    return {
      kind: "create-table",
      ifNotExists: c.If !== undefined,
      table: name(c.Identifier[0]!),
      columns,
      constraints,
      span: nodeSpan(node),
    };
  }

  columnDefinition(node: C.ColumnDefinitionCstNode): A.ColumnDef {
    const c = node.children;
    const def: { -readonly [K in keyof A.ColumnDef]: A.ColumnDef[K] } = {
      name: name(c.Identifier[0]!),
      type: typeName(c.typeName[0]!),
      primaryKey: false,
      notNull: false,
      unique: false,
      span: nodeSpan(node),
    };
    if (c.columnConstraint) {
      for (const con of c.columnConstraint) {
        const k = con.children;
        if (k.Primary) def.primaryKey = true;
        else if (k.Not) def.notNull = true;
        else if (k.Unique) def.unique = true;
        else if (k.Default) {
          if (def.default) throw duplicate(k.Default[0]!, "DEFAULT", def.name.text);
          def.default = literal(k.literal![0]!);
        } else {
          const clause = k.referencesClause![0]!;
          if (def.references) throw duplicate(clause.children.References[0]!, "REFERENCES", def.name.text);
          def.references = references(clause);
        }
      }
    }
    return def;
  }

  tableConstraint(node: C.TableConstraintCstNode): A.TableConstraint {
    const c = node.children;
    const span = nodeSpan(node);
    const label = c.Identifier ? { name: name(c.Identifier[0]!) } : {};
    if (c.Check) return { kind: "check", ...label, expr: this.expression(c.expression![0]!), span };
    const columns = names(c.nameList![0]!.children.Identifier);
    if (c.Primary) return { kind: "primary-key", ...label, columns, span };
    if (c.Unique) return { kind: "unique", ...label, columns, span };
    return { kind: "foreign-key", ...label, columns, references: references(c.referencesClause![0]!), span };
  }

  dropTable(node: C.DropTableStatementCstNode): A.DropTableStmt {
    const c = node.children;
    return { kind: "drop-table", ifExists: c.If !== undefined, table: name(c.Identifier[0]!), span: nodeSpan(node) };
  }

  // ---------------------------------------------------------------- expressions

  expression(node: C.ExpressionCstNode): A.Expr {
    const terms = node.children.andExpression;
    if (terms.length === 1) return this.andExpression(terms[0]!);
    const operands: A.Expr[] = [];
    for (const term of terms) operands.push(this.andExpression(term));
    return { kind: "or", operands, span: nodeSpan(node) };
  }

  andExpression(node: C.AndExpressionCstNode): A.Expr {
    const factors = node.children.notExpression;
    if (factors.length === 1) return this.notExpression(factors[0]!);
    const operands: A.Expr[] = [];
    for (const factor of factors) operands.push(this.notExpression(factor));
    return { kind: "and", operands, span: nodeSpan(node) };
  }

  notExpression(node: C.NotExpressionCstNode): A.Expr {
    const c = node.children;
    if (c.predicate) return this.predicate(c.predicate[0]!);
    return { kind: "not", expr: this.notExpression(c.notExpression![0]!), span: nodeSpan(node) };
  }

  predicate(node: C.PredicateCstNode): A.Expr {
    const c = node.children;
    const left = this.operand(c.operand[0]!);
    if (c.ComparisonOperator) {
      const op = c.ComparisonOperator[0]!.image as A.ComparisonOp;
      return { kind: "comparison", op, left, right: this.operand(c.operand[1]!), span: nodeSpan(node) };
    }
    if (c.Is) return { kind: "is-null", expr: left, not: c.Not !== undefined, span: nodeSpan(node) };
    return left;
  }

  operand(node: C.OperandCstNode): A.Expr {
    const c = node.children;
    if (c.columnRef) return this.columnRef(c.columnRef[0]!);
    if (c.Param) return this.param(c.Param[0]!);
    if (c.literal) return literal(c.literal[0]!);
    return this.expression(c.expression![0]!);
  }

  columnRef(node: C.ColumnRefCstNode): A.ColumnRefExpr {
    const ids = node.children.Identifier;
    if (ids.length === 1) return { kind: "column", name: name(ids[0]!), span: nodeSpan(node) };
    return { kind: "column", table: name(ids[0]!), name: name(ids[1]!), span: nodeSpan(node) };
  }

  value(node: C.ValueCstNode): A.ValueExpr {
    const c = node.children;
    return c.Param ? this.param(c.Param[0]!) : literal(c.literal![0]!);
  }

  param(token: IToken): A.ParamExpr {
    return { kind: "param", index: this.params++, span: tokenSpan(token) };
  }
}

function literal(node: C.LiteralCstNode): A.LiteralExpr {
  const c = node.children;
  let value: A.LiteralValue;
  if (c.NumberLiteral) value = numberValue(c.NumberLiteral[0]!, c.Minus !== undefined);
  else if (c.StringLiteral) value = stringValue(c.StringLiteral[0]!.image);
  else if (c.True) value = true;
  else if (c.False) value = false;
  else value = null;
  return { kind: "literal", value, span: nodeSpan(node) };
}

function typeName(node: C.TypeNameCstNode): A.TypeName {
  const c = node.children;
  const args: number[] = [];
  if (c.NumberLiteral) for (const n of c.NumberLiteral) args.push(countValue(n, "A type argument"));
  return { name: name(c.Identifier[0]!).text, args, span: nodeSpan(node) };
}

function references(node: C.ReferencesClauseCstNode): A.References {
  const c = node.children;
  const table = name(c.Identifier[0]!);
  const columns = names(c.nameList[0]!.children.Identifier);
  const span = nodeSpan(node);
  if (c.Cascade) return { table, columns, onDelete: "cascade", span };
  if (c.Restrict) return { table, columns, onDelete: "restrict", span };
  return { table, columns, span };
}
