/**
 * Name resolution: the sources of a statement (FROM table, then each JOIN)
 * and how an identifier — `col` or `source.col` — finds its column.
 *
 * A name that breaks the identifier rule (CONTRACT §1) is `invalid_name`
 * before anything is looked up. A qualifier matches a source's alias or its
 * table name (an aliased table's too, unless resolving `exact`ly); a source
 * may be reachable only qualified (an upsert's `excluded`). An unqualified name
 * that several sources have is `ambiguous_column`, unless a USING or NATURAL
 * join made their columns one (`MergedColumn`); a name no source has is
 * `unknown_column`. Computed fields resolve to their expression, bound against
 * their own source, so they read, filter and sort like columns.
 */

import type { Expression, TableFunctionName } from "../commands/types.js";
import { isValidIdentifier } from "../commands/names.js";
import { StoreError } from "../errors.js";
import type { ColumnType } from "../commands/types.js";
import type { BoundExpr, DerivedTable, TableShape } from "./plan.js";
import { callColumnType } from "./table-functions.js";
import type { TableInfo } from "./table-info.js";

export interface ScopeSource {
  readonly table: TableInfo;
  /** Alias if given, else the table name. */
  readonly name: string;
  readonly alias?: string;
  /** Position in the FROM/JOIN list. */
  readonly index: number;
  /** Reached only by a qualified name (an upsert's `excluded`): an unqualified name never resolves here. */
  readonly qualifiedOnly?: boolean;
  /** A derived table (`table` describes its rows). */
  readonly derived?: DerivedTable;
  /** In a recursive table's recursive select: the rows it runs over. */
  readonly working?: TableShape;
  /** A table function's rows (`table` describes its columns; `table-functions.ts`). */
  readonly call?: TableFunctionName;
}

/**
 * A column USING (or NATURAL) made one: the column `name` of the sources
 * `covers`, which an unqualified `name` reads as `expr` (the left side's
 * value; for a RIGHT or FULL join, the right side's where the left has
 * none). A later USING of the same name covers this one's sources too.
 */
export interface MergedColumn {
  readonly name: string;
  readonly covers: ReadonlySet<number>;
  readonly expr: BoundExpr;
  /** Whether `expr` is always its leftmost source's own value: not after a RIGHT or FULL join made it one (`*` names it so). */
  readonly leftmost: boolean;
}

/** What an identifier resolved to: a stored column, a computed field (expression unbound yet), or a merged column. */
export type Resolved =
  | { readonly kind: "column"; readonly source: ScopeSource; readonly column: number }
  | { readonly kind: "computed"; readonly source: ScopeSource; readonly name: string; readonly expr: Expression }
  | { readonly kind: "merged"; readonly merged: MergedColumn };

export class Scope {
  constructor(
    readonly sources: readonly ScopeSource[],
    /** Inside a computed field or check only stored columns resolve. */
    readonly storedOnly = false,
    /** The columns USING and NATURAL joins made one. */
    readonly merged: readonly MergedColumn[] = [],
    /** An ON's: the sources of its FROM joined after it, which it does not read (`laterSource`). */
    readonly later: readonly ScopeSource[] = [],
  ) {}

  /**
   * The source joined after this clause that `name` would read in SQLite,
   * where an ON sees every table of its FROM: the one a qualifier names
   * exactly, or the first having the column. A name it has must be refused,
   * never read as something else (a result name, an enclosing query's
   * column), which would answer otherwise than SQLite does.
   */
  laterSource(name: string): ScopeSource | undefined {
    if (this.later.length === 0) return undefined;
    const dot = name.indexOf(".");
    if (dot >= 0) return new Scope(this.later).named(name.slice(0, dot), true)[0];
    return this.later.find((source) => source.qualifiedOnly !== true && this.find(source, name) !== undefined);
  }

  /**
   * `exact`: a qualifier names a source only by its alias, or by its table
   * name when it has no alias (SQL's rule). A subquery resolves so first, so
   * that a table name its own alias hides names the enclosing query's table.
   */
  resolve(name: string, exact = false): Resolved {
    const dot = name.indexOf(".");
    const parts = dot >= 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [name];
    if (!parts.every(isValidIdentifier)) throw new StoreError("invalid_name", `Invalid column name ${JSON.stringify(name)}`);
    if (dot >= 0) {
      const qualifier = parts[0] as string;
      const column = parts[1] as string;
      const matches = this.named(qualifier, exact);
      if (matches.length === 0) throw new StoreError("unknown_column", `Unknown column "${name}": no source named "${qualifier}"`);
      if (matches.length > 1) throw new StoreError("ambiguous_column", `Column "${name}" is ambiguous: several sources are named "${qualifier}"`);
      const found = this.find(matches[0] as ScopeSource, column);
      if (!found) throw new StoreError("unknown_column", `Unknown column "${name}"`);
      return found;
    }
    const found: Resolved[] = [];
    const merged = this.merged.find((m) => m.name === name);
    if (merged !== undefined) found.push({ kind: "merged", merged });
    for (const source of this.sources) {
      if (source.qualifiedOnly === true || merged?.covers.has(source.index) === true) continue;
      const r = this.find(source, name);
      if (r) found.push(r);
    }
    if (found.length === 0) throw new StoreError("unknown_column", `Unknown column "${name}"`);
    if (found.length > 1) throw new StoreError("ambiguous_column", `Column "${name}" is ambiguous: ${found.map((r) => this.holder(r)).join(", ")} have it`);
    return found[0] as Resolved;
  }

  /** The sources `qualifier` names: by alias, else an alias-less source by its table's name, and (unless `exact`) any source by its table's name. */
  named(qualifier: string, exact = false): ScopeSource[] {
    let matches = this.sources.filter((s) => s.alias === qualifier);
    if (matches.length === 0) matches = this.sources.filter((s) => s.alias === undefined && s.table.name === qualifier);
    if (matches.length === 0 && !exact) matches = this.sources.filter((s) => s.table.name === qualifier);
    return matches;
  }

  /** Who holds a resolved name, for messages: its source, or the sources a USING made it one of (`a/b`). */
  private holder(r: Resolved): string {
    // An unaliased derived table (UPDATE … FROM's) has only an internal name (`derivedTableName`): say where it stands.
    if (r.kind !== "merged") return r.source.derived !== undefined && r.source.alias === undefined ? "FROM's (SELECT …)" : r.source.name;
    return this.sources.filter((s) => r.merged.covers.has(s.index)).map((s) => s.name).join("/");
  }

  private find(source: ScopeSource, name: string): Resolved | undefined {
    const column = source.table.position.get(name);
    if (column !== undefined) return { kind: "column", source, column };
    if (this.storedOnly) return undefined;
    const expr = source.table.computed.get(name);
    if (expr !== undefined) return { kind: "computed", source, name, expr };
    return undefined;
  }
}

/** The static type a read of `source`'s column at `column` has (a table function's values read from JSON: `unknown`). */
export function sourceColumnType(source: ScopeSource, column: number): ColumnType | "unknown" {
  return source.call === undefined ? source.table.types[column]! : callColumnType(column);
}

/** A scope of one table, as checks and computed fields see it. */
export function tableScope(table: TableInfo, storedOnly: boolean): Scope {
  return new Scope([{ table, name: table.name, index: 0 }], storedOnly);
}
