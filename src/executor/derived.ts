/**
 * Derived tables at run time (`planner/derived-table.ts`): a derived
 * source's select runs once per execution of the statement that reads it
 * (a correlated one's again for other values of its subquery), and its
 * rows are stored by column as a table's are — numbers in Float64Arrays
 * with NaN for NULL, id 0 the row of NULLs — so compiled code, joins and
 * late projections read them as they read any table's.
 */

import type { ColumnType, Value } from "../commands/types.js";
import { KeylessStore, isNumericType, type Column, type RowHeap, type Stores, type StoredRow, type TableStore } from "./table-store.js";

class DerivedStore extends KeylessStore {
  protected readonly what = "a derived table";
  readonly rows: readonly StoredRow[];
  readonly heap: RowHeap;
  readonly width: number;

  constructor(rows: readonly (readonly Value[])[], types: readonly ColumnType[]) {
    super();
    const n = rows.length;
    this.width = types.length;
    const columns = types.map((type, c): Column => {
      if (isNumericType(type)) {
        const column = new Float64Array(n + 1);
        column[0] = NaN;
        for (let i = 0; i < n; i++) column[i + 1] = (rows[i]![c] as number | null) ?? NaN;
        return column;
      }
      const column = new Array<string | boolean | null>(n + 1);
      column[0] = null;
      for (let i = 0; i < n; i++) column[i + 1] = rows[i]![c] as string | boolean | null;
      return column;
    });
    this.heap = { columns };
    this.rows = Array.from({ length: n }, (_, i) => i + 1);
  }
}

/**
 * A derived table's rows as an execution reads them (`DerivedRows`, or a
 * recursive table's `RecursiveRows`): made when first read, kept until
 * the execution ends.
 */
export interface TableRows {
  /** Its name in the plan (`Source.table`). */
  readonly name: string;
  end(): void;
  /**
   * Its rows; `wanted`: a select that needs only its first rows in order
   * (a LIMIT over it) asks for at least that many, if there are.
   */
  rows(stores: Stores, params: readonly Value[], wanted?: number): TableStore;
}

/**
 * One derived table's rows, made the first time an execution of its
 * statement reads them and kept until that execution ends: an
 * uncorrelated one reads the statement's parameters only, so a subquery
 * run per outer row reads them once, not once per row. A correlated one
 * (`DerivedTable.correlated`) reads the values of the subquery it stands
 * in, which follow the parameters: it is made again when they change.
 */
export class DerivedRows implements TableRows {
  private store: DerivedStore | undefined;
  private readonly made = new MadeFor();

  constructor(
    readonly name: string,
    private readonly types: readonly ColumnType[],
    private readonly make: (stores: Stores, params: readonly Value[]) => readonly (readonly Value[])[],
    private readonly correlated: boolean,
  ) {}

  end(): void {
    this.store = undefined;
    this.made.end();
  }

  rows(stores: Stores, params: readonly Value[]): TableStore {
    if (this.correlated && !this.made.same(params)) this.store = undefined;
    return (this.store ??= new DerivedStore(this.make(stores, params), this.types));
  }
}

/** The values a correlated table's rows were last made for: whether those at hand are the same (and they are then kept as the last). */
export class MadeFor {
  private last: readonly Value[] | undefined;

  end(): void {
    this.last = undefined;
  }

  same(params: readonly Value[]): boolean {
    const last = this.last;
    if (last === params) return true;
    this.last = params;
    if (last === undefined || last.length !== params.length) return false;
    for (let i = 0; i < params.length; i++) if (!Object.is(last[i], params[i])) return false;
    return true;
  }
}

/**
 * `stores` with each of `tables` under its plan name; `first`: the one
 * whose first rows are `wanted`, no more; `wrap`: what each is read as.
 */
export function withDerived(
  stores: Stores,
  tables: readonly TableRows[],
  params: readonly Value[],
  first?: { readonly table: TableRows; readonly wanted: number },
  wrap: (store: TableStore) => TableStore = (store) => store,
): Stores {
  const derived = new Map(tables.map((t) => [t.name, wrap(t.rows(stores, params, t === first?.table ? first.wanted : undefined))] as const));
  return { store: (table) => derived.get(table) ?? stores.store(table) };
}
