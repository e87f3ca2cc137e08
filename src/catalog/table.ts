/**
 * One in-memory table: its normalized schema, its rows (arrays in
 * declaration order, insertion order kept) and its keys — the primary key,
 * the unique keys and the schema's secondary indexes — kept exact on every
 * change. It implements the planner's `TableInfo` and the executor's
 * `TableStore`, so bind and execution read it directly.
 *
 * Rows are values: once stored, a row array is never written again. An
 * update stores a new array in the old one's place (`replaceRows`, which
 * moves its key entries and sequence number), and undo puts the old array
 * back. So a copy of `rows` is a consistent snapshot for as long as anyone
 * holds it — a checkpoint serializes one while commands go on — and the
 * same array in two snapshots is the same row.
 *
 * Rule checks that look at one row (types, required, checks) live here;
 * rules across rows and tables live in `mutate.ts` and `check-state.ts`.
 */

import type { ColumnType, Expression, TableSchema, Value } from "../commands/types.js";
import { StoreError, type ProblemEntry } from "../errors.js";
import { compileValue } from "../executor/index.js";
import { bindTableExpr } from "../planner/bind-expr.js";
import type { KeyInfo, TableInfo } from "../planner/table-info.js";
import { PRIMARY_KEY_NAME, tableInfoOf } from "../planner/table-info.js";
import { describeValue, fitsType } from "../planner/value-types.js";
import type { KeyRange, RangeOrder, StoredRow, TableStore } from "../executor/table-store.js";
import { MultiIndex, UniqueIndex, type MutableRow } from "./key-index.js";

/** A range in table order that finds more than 1/SCAN_SHARE of the rows (and more than SCAN_SHARE_MIN) gives up for a scan. */
const SCAN_SHARE = 16;
const SCAN_SHARE_MIN = 64;

/** Up to this many rows, `removeAt` splices each out; more are removed in one pass over the table. */
const SPLICE_AT_MOST = 16;

interface CompiledCheck {
  readonly label: string;
  readonly eval: (r: readonly Value[], p: readonly Value[]) => Value;
}

/** The rows that pass `test`, in order, at most `max` (-1: all). */
function scan(rows: readonly MutableRow[], test: (row: StoredRow) => boolean, max: number): MutableRow[] {
  const out: MutableRow[] = [];
  for (let i = 0; i < rows.length && out.length !== max; i++) if (test(rows[i] as MutableRow)) out.push(rows[i] as MutableRow);
  return out;
}

export class Table implements TableInfo, TableStore {
  readonly name: string;
  readonly schema: TableSchema;
  readonly columns: readonly string[];
  readonly types: readonly ColumnType[];
  readonly position: ReadonlyMap<string, number>;
  readonly computed: ReadonlyMap<string, Expression>;
  readonly keys: readonly KeyInfo[];
  readonly width: number;
  readonly required: readonly boolean[];
  readonly defaults: readonly Value[];
  readonly pk: UniqueIndex | undefined;
  readonly uniques: readonly UniqueIndex[];
  readonly secondary: readonly MultiIndex[];
  /** Rows in insertion order, each exactly the declared columns wide. */
  rows: MutableRow[] = [];
  /**
   * Each row's sequence number, increasing in table order: kept beside the
   * rows (not in them) so a row is exactly its values and snapshots need no
   * copies. Used to find a row's position and its place in an index bucket.
   * Numbered on first use (see `sequence`): loading and rebuilding do not need it.
   */
  private seq: Map<MutableRow, number> | undefined;
  private readonly allUnique: readonly UniqueIndex[];
  private readonly checks: readonly CompiledCheck[];
  private readonly byName = new Map<string, UniqueIndex | MultiIndex>();
  private nextSeq = 0;

  /** `schema` must be normalized and checked (see planner `checkSchema`). */
  constructor(schema: TableSchema) {
    const info = tableInfoOf(schema);
    this.name = info.name;
    this.schema = schema;
    this.columns = info.columns;
    this.types = info.types;
    this.position = info.position;
    this.computed = info.computed;
    this.keys = info.keys;
    this.width = info.columns.length;
    const required = new Set(schema.required ?? []);
    this.required = this.columns.map((c) => required.has(c));
    this.defaults = this.columns.map((c) => (schema.defaults && Object.hasOwn(schema.defaults, c) ? (schema.defaults[c] as Value) : null));
    const uniques: UniqueIndex[] = [];
    const secondary: MultiIndex[] = [];
    let pk: UniqueIndex | undefined;
    for (const k of info.keys) {
      if (k.kind === "index") {
        const ix = new MultiIndex(
          k.name,
          k.positions,
          (row) => this.orderOf(row),
          () => this.rows,
        );
        secondary.push(ix);
        this.byName.set(k.name, ix);
      } else {
        const ix = new UniqueIndex(k.name, k.positions);
        if (k.kind === "primary") pk = ix;
        else uniques.push(ix);
        this.byName.set(k.name, ix);
      }
    }
    this.pk = pk;
    this.uniques = uniques;
    this.allUnique = pk ? [pk, ...uniques] : uniques;
    this.secondary = secondary;
    this.checks = (schema.checks ?? []).map((c, i) => ({
      label: c.name ?? `check ${i}`,
      eval: compileValue(bindTableExpr(info, c.expr, true), "row") as unknown as CompiledCheck["eval"],
    }));
  }

  /**
   * A table of `schema` holding `rows` (which must fit its columns), every
   * key built — so whatever kinds of index the schema declares, the new
   * table has them. `duplicates` lists, per unique key in `uniqueKeys()`
   * order, the positions of rows whose key an earlier row holds.
   */
  static holding(schema: TableSchema, rows: MutableRow[]): { readonly table: Table; readonly duplicates: readonly (readonly number[])[] } {
    const table = new Table(schema);
    table.rows = rows;
    return { table, duplicates: table.rebuild() };
  }

  get hasChecks(): boolean {
    return this.checks.length > 0;
  }

  /** Primary key first, then unique keys. */
  uniqueKeys(): readonly UniqueIndex[] {
    return this.allUnique;
  }

  private index(key: string): UniqueIndex | MultiIndex | undefined {
    return key === PRIMARY_KEY_NAME ? this.pk : this.byName.get(key);
  }

  lookup(key: string, values: readonly Value[]): readonly MutableRow[] {
    return this.index(key)?.lookup(values) ?? [];
  }

  lookupBy(key: string): (value: Value) => readonly MutableRow[] {
    const ix = this.index(key);
    if (ix instanceof MultiIndex) return (value) => ix.get(value === null ? undefined : value);
    if (ix) return (value) => {
      const row = ix.get(value === null ? undefined : value);
      return row === undefined ? [] : [row];
    };
    return () => [];
  }

  lookupAny(key: string, values: ReadonlySet<Value>): readonly StoredRow[] {
    const most = Math.max(SCAN_SHARE_MIN, this.rows.length / SCAN_SHARE);
    if (values.size > most) return this.rows;
    const find = this.lookupBy(key);
    const found: MutableRow[] = [];
    for (const value of values) {
      const rows = find(value);
      for (let i = 0; i < rows.length; i++) found.push(rows[i] as MutableRow);
      if (found.length > most) return this.rows;
    }
    return this.inTableOrder(found);
  }

  rangeRows(key: string, ranges: readonly KeyRange[], order: RangeOrder, max: number, test?: (row: StoredRow) => boolean): StoredRow[] {
    const ix = this.index(key);
    if (!(ix instanceof MultiIndex)) throw new StoreError("internal_error", `"${key}" is not an ordered index of "${this.name}"`);
    const out: MutableRow[] = [];
    if (order !== "table") {
      ix.walk(ranges, order === "desc", (row) => (test !== undefined && !test(row)) || out.push(row) !== max);
      return out;
    }
    // In table order the first `max` are known only once all are found; past a share of the table, a scan is cheaper.
    const most = Math.max(SCAN_SHARE_MIN, this.rows.length / SCAN_SHARE);
    let found = 0;
    ix.walk(ranges, false, (row) => ++found <= most && ((test !== undefined && !test(row)) || out.push(row) > 0));
    if (found > most) return test !== undefined ? scan(this.rows, test, max) : max < 0 ? this.rows : this.rows.slice(0, max);
    const sorted = this.inTableOrder(out);
    return max >= 0 && max < sorted.length ? sorted.slice(0, max) : sorted;
  }

  /**
   * `rows` (stored rows of this table) sorted into table order: each row's
   * sequence number and its index packed into one float (seq · 2^k + i, k
   * bits for the index) and sorted natively, with no comparator calls.
   * Sequence numbers only count appends; past 2^31 they are renumbered
   * (by position, which keeps their order), so the packing stays exact.
   */
  private inTableOrder(rows: readonly MutableRow[]): MutableRow[] {
    if (this.nextSeq >= 2 ** 31) this.seq = undefined;
    const seq = this.sequence();
    const n = rows.length;
    const scale = 2 ** Math.ceil(Math.log2(n + 1));
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (seq.get(rows[i] as MutableRow) as number) * scale + i;
    keys.sort();
    const out = new Array<MutableRow>(n);
    for (let i = 0; i < n; i++) out[i] = rows[(keys[i] as number) % scale] as MutableRow;
    return out;
  }

  /** A stored row of `values` (declared width): a copy the table owns, never written again. */
  stored(values: readonly Value[]): MutableRow {
    return values.slice(0, this.width);
  }

  /** A copy of a stored row's values, to build a changed row from. */
  values(row: readonly Value[]): Value[] {
    return row.slice();
  }

  /** Appends a stored row and indexes it (keys must have been checked). */
  append(row: MutableRow): number {
    this.rows.push(row);
    this.seq?.set(row, this.nextSeq++);
    this.indexRow(row);
    return this.rows.length - 1;
  }

  /** Sequence numbers increase in table order. */
  orderOf(row: MutableRow): number {
    return this.sequence().get(row) as number;
  }

  private sequence(): Map<MutableRow, number> {
    if (this.seq === undefined) {
      const seq = new Map<MutableRow, number>();
      for (const row of this.rows) seq.set(row, seq.size);
      this.seq = seq;
      this.nextSeq = seq.size;
    }
    return this.seq;
  }

  /** The row's index in `rows`, by binary search on its sequence number. */
  positionOf(row: MutableRow): number {
    const seq = this.orderOf(row);
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.orderOf(this.rows[mid] as MutableRow) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Puts each pair's new row in its old row's place: same position, same
   * sequence number, and the keys moved to the new row. Old rows are
   * unindexed all first, so keys swapped between rows never collide midway
   * (keys must have been checked). Returns the positions, in pair order.
   */
  replaceRows(pairs: readonly (readonly [old: MutableRow, next: MutableRow])[]): number[] {
    const seq = this.sequence();
    const positions = pairs.map(([old]) => this.positionOf(old));
    for (const [old] of pairs) this.unindexRow(old);
    pairs.forEach(([old, next], i) => {
      this.rows[positions[i] as number] = next;
      seq.set(next, seq.get(old) as number);
      seq.delete(old);
    });
    for (const [, next] of pairs) this.indexRow(next);
    return positions;
  }

  indexRow(row: MutableRow): void {
    for (const ix of this.uniqueKeys()) ix.add(row);
    for (const ix of this.secondary) ix.add(row);
  }

  unindexRow(row: MutableRow): void {
    for (const ix of this.uniqueKeys()) ix.remove(row);
    for (const ix of this.secondary) ix.remove(row);
  }

  /** Removes the rows at `positions` (ascending, counted before removal): a few by splicing, many in one pass. */
  removeAt(positions: readonly number[]): void {
    if (positions.length > SPLICE_AT_MOST) {
      this.removeRows(new Set(positions.map((p) => this.rows[p] as MutableRow)));
      return;
    }
    for (let k = positions.length - 1; k >= 0; k--) {
      const at = positions[k] as number;
      const row = this.rows[at] as MutableRow;
      this.unindexRow(row);
      this.seq?.delete(row);
      this.rows.splice(at, 1);
    }
  }

  /** Removes the rows in `doomed` in one pass; returns their positions before removal, ascending. */
  removeRows(doomed: ReadonlySet<MutableRow>): number[] {
    const positions: number[] = [];
    const kept: MutableRow[] = [];
    this.rows.forEach((row, i) => {
      if (doomed.has(row)) positions.push(i);
      else kept.push(row);
    });
    if (doomed.size * 4 > this.rows.length) {
      this.rows = kept;
      this.rebuild();
    } else {
      for (const row of doomed) {
        this.unindexRow(row);
        this.seq?.delete(row);
      }
      this.rows = kept;
    }
    return positions;
  }

  /**
   * Rebuilds every key from scratch and drops the row numbering (after a
   * load, an undo, or a large delete). A row whose unique key an earlier row
   * holds stays out of that index; returns their positions per unique key,
   * in `uniqueKeys()` order (never any after a mutation, which checks keys).
   */
  rebuild(): number[][] {
    this.seq = undefined;
    for (const ix of this.secondary) ix.build(this.rows);
    return this.uniqueKeys().map((ix) => ix.build(this.rows));
  }

  /** Problems of one value in the column at `position` — type, required — added to `problems`; `row` is omitted when undefined. */
  valueProblems(position: number, v: Value, row: number | undefined, problems: ProblemEntry[]): void {
    if (v === null ? !this.required[position] : fitsType(v, this.types[position] as ColumnType)) return;
    // Only a problem builds its entry: this runs for every value of every row written.
    const column = this.columns[position] as string;
    const at = row === undefined ? { table: this.name, column } : { table: this.name, row, column };
    if (v === null) problems.push({ ...at, code: "required", message: `"${column}" is required` });
    else problems.push({ ...at, code: "type", message: `"${column}" must be ${this.types[position]}, got ${describeValue(v)}` });
  }

  /** Problems of one row on its own — types, required columns, checks — added to `problems`. `row` is the index reported. */
  rowProblems(values: readonly Value[], row: number, problems: ProblemEntry[] = []): ProblemEntry[] {
    const before = problems.length;
    for (let i = 0; i < this.width; i++) this.valueProblems(i, values[i] as Value, row, problems);
    // Checks only make sense on well-typed values.
    if (problems.length === before) this.checkProblems(values, row, problems);
    return problems;
  }

  /** Problems of one well-typed row with the table's checks, added to `problems`. */
  checkProblems(values: readonly Value[], row: number, problems: ProblemEntry[]): void {
    for (const check of this.checks) {
      if (check.eval(values, []) === false) {
        problems.push({ table: this.name, row, code: "check", message: `Row breaks ${check.label} of "${this.name}"` });
      }
    }
  }
}
