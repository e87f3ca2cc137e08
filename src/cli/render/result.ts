/**
 * A command's result (CONTRACT §6) as the tool prints it.
 *
 * `json` prints the result exactly as the server would answer it, one line,
 * for scripts. `table` is for people: rows as an aligned table with a row
 * count, a mutation as one sentence, a validation as "valid" or its problems,
 * a schema as each table's columns and rules, a plan as an outline. `csv`
 * prints rows as CSV with a header (other results as in `table`), for
 * pasting into a spreadsheet.
 */

import type { MutationResult, Result, RowsResult, SchemaResult, ValidationResult } from "../../commands/results.js";
import type { Expression, TableSchema, Value } from "../../commands/types.js";
import { assertNever } from "../../errors.js";
import { csvText } from "../csv.js";
import { renderTable } from "./table.js";
import { renderTree } from "./tree.js";

export type OutputMode = "table" | "json" | "csv";

function rowArrays(result: Pick<RowsResult, "columns" | "rows">): (readonly Value[])[] {
  return result.rows.map((row) => (Array.isArray(row) ? row : result.columns.map((c) => (row as Readonly<Record<string, Value>>)[c] ?? null)));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function mutationLine(result: MutationResult): string {
  const rows = plural(result.rowsAffected, "row");
  switch (result.operation) {
    case "insert":
      // An upsert's rowsAffected counts updates (a replace's, replacements) too: say what happened to each proposed row.
      if (result.replaced !== undefined) return `${plural(result.inserted ?? 0, "row")} inserted into ${result.table}, ${result.replaced} replaced`;
      if (result.inserted !== undefined) return `${plural(result.inserted, "row")} inserted into ${result.table}, ${result.updated ?? 0} updated, ${result.ignored ?? 0} ignored`;
      return `${rows} inserted into ${result.table}`;
    case "update":
      return `${rows} updated in ${result.table}`;
    case "delete":
      return `${rows} deleted from ${result.table}`;
    case "create-table":
      return `table ${result.table} created`;
    case "drop-table":
      return `table ${result.table} dropped`;
    case "create-index":
      return `index ${result.index} on ${result.table}`;
    case "drop-index":
      return result.table === "" ? `no index ${result.index}` : `index ${result.index} dropped from ${result.table}`;
    case "alter-table":
      return `table ${result.table} altered`;
    default:
      return assertNever(result.operation, "operation");
  }
}

/**
 * A mutation as its sentence; with `returning`, its rows first as a table
 * (the sentence under them, as psql prints its command tag), or in `csv`
 * mode the rows alone, for a pipe.
 */
function mutationText(result: MutationResult, mode: Exclude<OutputMode, "json">): string {
  const line = mutationLine(result) + "\n";
  if (result.columns === undefined || result.rows === undefined) return line;
  const returned = { columns: result.columns, rows: result.rows };
  if (mode === "csv") return csvText(result.columns, rowArrays(returned));
  return renderTable(result.columns, rowArrays(returned)) + line;
}

function validationText(result: ValidationResult): string {
  const journal = result.journal;
  const pending = journal && journal.records > 0 ? ` (${plural(journal.records, "journal record")} not yet checkpointed into the .store file)` : "";
  if (result.valid) return `valid${pending}\n`;
  const rows = result.errors.map((e) => [e.table ?? null, e.row ?? null, e.column ?? null, e.code, e.message]);
  return `invalid: ${plural(result.errors.length, "problem")}\n` + renderTable(["table", "row", "column", "code", "message"], rows);
}

/** An expression in SQL-like text, for checks and computed columns. */
export function expressionText(expr: Expression): string {
  switch (expr.type) {
    case "literal":
      return typeof expr.value === "string" ? `'${expr.value.replaceAll("'", "''")}'` : expr.value === null ? "NULL" : String(expr.value).toUpperCase();
    case "identifier":
      return expr.name;
    case "param":
      return "?";
    case "comparison":
      return `${expressionText(expr.left)} ${expr.op} ${expressionText(expr.right)}`;
    case "is-null":
      return `${expressionText(expr.expr)} IS ${expr.not === true ? "NOT " : ""}NULL`;
    case "and":
    case "or":
      return `(${expr.operands.map(expressionText).join(` ${expr.type.toUpperCase()} `)})`;
    case "not":
      return `NOT ${expressionText(expr.expr)}`;
    case "binary":
      return `(${expressionText(expr.left)} ${expr.op} ${expressionText(expr.right)})`;
    case "negate":
      return `-(${expressionText(expr.expr)})`;
    case "in":
      return `${expressionText(expr.expr)} ${expr.not === true ? "NOT " : ""}IN (${expr.values === undefined ? "SELECT …" : expr.values.map(expressionText).join(", ")})`;
    case "between":
      return `${expressionText(expr.expr)} ${expr.not === true ? "NOT " : ""}BETWEEN ${expressionText(expr.low)} AND ${expressionText(expr.high)}`;
    case "like": {
      const escape = typeof expr.escape === "string" ? ` ESCAPE '${expr.escape.replaceAll("'", "''")}'` : expr.escape === undefined ? "" : " ESCAPE ?";
      return `${expressionText(expr.expr)} ${expr.not === true ? "NOT " : ""}LIKE ${expressionText(expr.pattern)}${escape}`;
    }
    case "glob":
      return `${expressionText(expr.expr)} ${expr.not === true ? "NOT " : ""}GLOB ${expressionText(expr.pattern)}`;
    case "collate":
      return `${expressionText(expr.expr)} COLLATE ${expr.collation.toUpperCase()}`;
    case "case": {
      const operand = expr.operand === undefined ? "" : ` ${expressionText(expr.operand)}`;
      const arms = expr.when.map((w) => ` WHEN ${expressionText(w.when)} THEN ${expressionText(w.then)}`).join("");
      return `CASE${operand}${arms}${expr.else === undefined ? "" : ` ELSE ${expressionText(expr.else)}`} END`;
    }
    case "cast":
      return `CAST(${expressionText(expr.expr)} AS ${expr.as.toUpperCase()})`;
    case "function":
      return `${expr.name}(${expr.args.map(expressionText).join(", ")})`;
    case "aggregate":
      return `${expr.name}(${expr.arg === undefined ? "*" : `${expr.distinct === true ? "DISTINCT " : ""}${expressionText(expr.arg)}`})`;
    case "window":
      return `${expr.name}(${(expr.args ?? []).map(expressionText).join(", ")}) OVER (…)`;
    // Checks and computed fields, all this prints, refuse subqueries when the table is created: an outline is enough.
    case "subquery":
      return "(SELECT …)";
    case "exists":
      return `${expr.not === true ? "NOT " : ""}EXISTS (SELECT …)`;
    case "row":
      return `(${expr.items.map(expressionText).join(", ")})`;
    default:
      return assertNever(expr, "expression");
  }
}

function list(columns: readonly string[]): string {
  return `(${columns.join(", ")})`;
}

/** One table's schema: its columns (type, key, required, default, comment), then its other rules. */
export function schemaText(schema: TableSchema): string {
  const key = new Set(schema.primary_key?.columns ?? []);
  const required = new Set(schema.required ?? []);
  const rows: Value[][] = Object.entries(schema.columns).map(([name, type]) => {
    const notes: string[] = [];
    if (key.has(name)) notes.push("primary key");
    else if (required.has(name)) notes.push("required");
    const fallback = schema.defaults?.[name];
    if (fallback !== undefined) notes.push(`default ${typeof fallback === "object" && fallback !== null ? `(${expressionText(fallback.expr)})` : JSON.stringify(fallback)}`);
    return [name, type, notes.join(", "), schema.comments?.[name] ?? ""];
  });
  for (const [name, expr] of Object.entries(schema.computed ?? {})) rows.push([name, "computed", expressionText(expr), schema.comments?.[name] ?? ""]);
  const rules: string[] = [];
  if (schema.primary_key && schema.primary_key.columns.length > 1) rules.push(`primary key ${list(schema.primary_key.columns)}`);
  for (const u of schema.unique ?? []) rules.push(`unique ${list(u.columns)}`);
  for (const fk of schema.foreign_keys ?? []) {
    rules.push(`foreign key ${list(fk.columns)} references ${fk.references.table}${list(fk.references.columns)} on delete ${fk.on_delete ?? "restrict"}`);
  }
  for (const check of schema.checks ?? []) rules.push(`check${check.name === undefined ? "" : ` ${check.name}`}: ${expressionText(check.expr)}`);
  for (const index of schema.indexes ?? []) rules.push(`${index.unique === true ? "unique index" : "index"} ${index.name} ${list(index.columns)}`);
  const title = `${schema.name}${schema.comment === undefined ? "" : ` -- ${schema.comment}`}\n`;
  const hasComments = rows.some((row) => row[3] !== "");
  const table = renderTable(hasComments ? ["column", "type", "notes", "comment"] : ["column", "type", "notes"], hasComments ? rows : rows.map((r) => r.slice(0, 3)));
  return title + table + rules.map((rule) => `${rule}\n`).join("");
}

function schemaResultText(result: SchemaResult): string {
  if (result.tables.length === 0) return "no tables\n";
  return result.tables.map(schemaText).join("\n");
}

export function renderResult(result: Result, mode: OutputMode): string {
  if (mode === "json") return JSON.stringify(result) + "\n";
  switch (result.kind) {
    case "rows":
      if (mode === "csv") return csvText(result.columns, rowArrays(result));
      return renderTable(result.columns, rowArrays(result)) + `(${plural(result.rowCount, "row")})\n`;
    case "mutation":
      return mutationText(result, mode);
    case "validation":
      return validationText(result);
    case "schema":
      return schemaResultText(result);
    case "plan":
      return renderTree(result.plan);
    case "checkpoint":
      return `checkpoint: ${plural(result.journalRecords, "journal record")} folded into the document\n`;
    case "transaction":
      return result.results.map((step, i) => `-- step ${i}\n${renderResult(step, mode)}`).join("") + `transaction: ${plural(result.results.length, "step")} kept\n`;
    default:
      return assertNever(result, "result");
  }
}
