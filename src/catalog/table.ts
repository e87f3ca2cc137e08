/**
 * One in-memory table: its normalized schema, its rows (ids of its
 * `ColumnHeap`, in insertion order) and its keys — the primary key, the
 * unique keys and the schema's secondary indexes — kept exact on every
 * change. It implements the planner's `TableInfo` and the executor's
 * `TableStore`, so bind and execution read it directly.
 *
 * Rows are values: once stored, a row's values are never written again
 * (the heap is append-only). An update stores the new values under a new
 * id in the old one's place (`replaceRows`, which moves its key entries and
 * its place in table order), and undo puts the old values back. So a copy
 * of `rows` with the heap is a consistent snapshot for as long as anyone
 * holds it — a checkpoint serializes one while commands go on — and the
 * same id in two snapshots of one heap is the same row. Ids no row uses
 * any more are dropped by `compact`, which copies the live rows into a
 * new heap (after a command, never under one: what holds ids then holds
 * the old heap too).
 *
 * Rule checks that look at one row (types, required, checks) live here and
 * read rows of values (a row is checked before it is stored); rules across
 * rows and tables live in `mutate.ts` and `check-state.ts`.
 */

import type { ColumnType, Expression, TableSchema, Value } from "../commands/types.js";
import { StoreError, type ProblemEntry } from "../errors.js";
import { UnsteadyRead, compileValue, steadily } from "../executor/index.js";
import { isDefaultExpr } from "../planner/bind-create.js";
import { bindDefaultExpr, bindTableExpr } from "../planner/bind-expr.js";
import type { BoundExpr } from "../planner/plan.js";
import type { KeyInfo, TableInfo } from "../planner/table-info.js";
import { PRIMARY_KEY_NAME, tableInfoOf } from "../planner/table-info.js";
import { describeValue, fitsType } from "../planner/value-types.js";
import type { KeyRange, RangeOrder, StoredRow, TableStore } from "../executor/table-store.js";
import { keyOfStored, MultiIndex, UniqueIndex } from "./key-index.js";
import { ColumnHeap } from "./row-heap.js";

/** A range in table order that finds more than 1/SCAN_SHARE of the rows (and more than SCAN_SHARE_MIN) gives up for a scan. */
const SCAN_SHARE = 16;
const SCAN_SHARE_MIN = 64;

/** Up to this many rows, `removeAt` splices each out; more are removed in one pass over the table. */
const SPLICE_AT_MOST = 16;

/** `compact` copies the live rows into a new heap once the heap holds more than twice them, and this many more. */
const DEAD_ROWS_KEPT = 1024;

interface CompiledCheck {
  readonly label: string;
  readonly eval: (r: readonly Value[], p: readonly Value[]) => Value;
}

/** The rows that pass `test`, in order, at most `max` (-1: all). */
function scan(rows: readonly number[], test: (row: StoredRow) => boolean, max: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < rows.length && out.length !== max; i++) if (test(rows[i] as number)) out.push(rows[i] as number);
  return out;
}

/**
 * Whether the ids increase along `rows`. A function of arrays alone, so its
 * optimized loop outlives the tables it ran over (see `read-rows.ts`).
 */
function increasing(rows: readonly number[]): boolean {
  for (let i = 1; i < rows.length; i++) if ((rows[i - 1] as number) >= (rows[i] as number)) return false;
  return true;
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
  /** Each column's default value; NULL where none, or where `made` computes it. */
  private readonly defaults: readonly Value[];
  /** Per column, the compiled expression of a default given as one (`DEFAULT CURRENT_TIMESTAMP`); none when no default is. */
  private readonly made: readonly ((() => Value) | undefined)[] | undefined;
  readonly pk: UniqueIndex | undefined;
  readonly uniques: readonly UniqueIndex[];
  readonly secondary: readonly MultiIndex[];
  /** The rows' values. */
  heap: ColumnHeap;
  /** Row ids in insertion order. */
  rows: number[] = [];
  /**
   * Each row's sequence number by id, increasing in table order; undefined
   * while a row's id is its sequence number (ids increase along the table
   * until an update puts a new id in an old place). Used to find a row's
   * position and its place in an index bucket. An appended row's number is
   * its id, above every number given before (none exceeds the heap's count).
   */
  private seq: Int32Array | undefined;
  private readonly allUnique: readonly UniqueIndex[];
  /** Unique keys, then secondary indexes: every index a row is in. */
  private readonly indexes: readonly (UniqueIndex | MultiIndex)[];
  private readonly checks: readonly CompiledCheck[];
  private readonly byName = new Map<string, UniqueIndex | MultiIndex>();

  /** `schema` must be normalized and checked (see planner `checkSchema`). */
  constructor(schema: TableSchema, heap?: ColumnHeap) {
    const info = tableInfoOf(schema);
    this.name = info.name;
    this.schema = schema;
    this.columns = info.columns;
    this.types = info.types;
    this.position = info.position;
    this.computed = info.computed;
    this.keys = info.keys;
    this.width = info.columns.length;
    this.heap = heap ?? new ColumnHeap(this.types);
    const required = new Set(schema.required ?? []);
    this.required = this.columns.map((c) => required.has(c));
    const defaults = this.columns.map((c) => (schema.defaults && Object.hasOwn(schema.defaults, c) ? schema.defaults[c] : undefined));
    this.defaults = defaults.map((d) => (d === undefined || isDefaultExpr(d) ? null : d));
    this.made = defaults.some(isDefaultExpr) ? defaults.map((d) => (isDefaultExpr(d) ? madeBy(bindDefaultExpr(d.expr)) : undefined)) : undefined;
    const uniques: UniqueIndex[] = [];
    const secondary: MultiIndex[] = [];
    let pk: UniqueIndex | undefined;
    for (const k of info.keys) {
      if (k.kind === "index") {
        const ix = new MultiIndex(k.name, k.positions, this);
        secondary.push(ix);
        this.byName.set(k.name, ix);
      } else {
        const ix = new UniqueIndex(k.name, k.positions, this);
        if (k.kind === "primary") pk = ix;
        else uniques.push(ix);
        this.byName.set(k.name, ix);
      }
    }
    this.pk = pk;
    this.uniques = uniques;
    this.allUnique = pk ? [pk, ...uniques] : uniques;
    this.secondary = secondary;
    this.indexes = [...this.allUnique, ...secondary];
    this.checks = (schema.checks ?? []).map((c, i) => ({
      label: c.name ?? `check ${i}`,
      eval: compileValue(bindTableExpr(info, c.expr, true), "values") as unknown as CompiledCheck["eval"],
    }));
  }

  /**
   * A table of `schema` holding the rows `ids` of `heap` (whose columns fit
   * the schema's), every key built — so whatever kinds of index the schema
   * declares, the new table has them. `duplicates` lists, per unique key in
   * `uniqueKeys()` order, the positions of rows whose key an earlier row holds.
   */
  static holding(schema: TableSchema, heap: ColumnHeap, ids: readonly number[]): { readonly table: Table; readonly duplicates: readonly (readonly number[])[] } {
    const table = new Table(schema, heap);
    table.rows = ids.slice();
    return { table, duplicates: table.rebuild() };
  }

  /** A table of `schema` holding rows of `values` (which must fit its columns), keys built. */
  static ofRows(schema: TableSchema, rows: readonly (readonly Value[])[]): { readonly table: Table; readonly duplicates: readonly (readonly number[])[] } {
    const table = new Table(schema);
    table.heap.reserve(rows.length);
    table.rows = rows.map((values) => table.heap.append(values));
    return { table, duplicates: table.rebuild() };
  }

  /** A row of every column's default, computed ones evaluated now (at the statement's time). */
  defaultRow(): Value[] {
    const row = this.defaults.slice();
    if (this.made !== undefined) this.made.forEach((make, i) => make !== undefined && (row[i] = make()));
    return row;
  }

  /** Column `i`'s default for one row. */
  defaultAt(i: number): Value {
    const make = this.made?.[i];
    return make === undefined ? (this.defaults[i] as Value) : make();
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

  lookup(key: string, values: readonly Value[]): readonly number[] {
    return this.index(key)?.lookup(values) ?? [];
  }

  lookupBy(key: string): (value: Value) => readonly number[] {
    const ix = this.index(key);
    if (ix instanceof MultiIndex) return (value) => ix.get(value === null ? undefined : value);
    if (ix) return (value) => {
      const id = ix.get(value === null ? undefined : value);
      return id === undefined ? [] : [id];
    };
    return () => [];
  }

  lookupAny(key: string, values: ReadonlySet<Value>): readonly StoredRow[] {
    const most = Math.max(SCAN_SHARE_MIN, this.rows.length / SCAN_SHARE);
    if (values.size > most) return this.rows;
    const find = this.lookupBy(key);
    const found: number[] = [];
    for (const value of values) {
      const rows = find(value);
      for (let i = 0; i < rows.length; i++) found.push(rows[i] as number);
      if (found.length > most) return this.rows;
    }
    return this.inTableOrder(found);
  }

  rangeRows(key: string, ranges: readonly KeyRange[], order: RangeOrder, max: number, test?: (row: StoredRow) => boolean): StoredRow[] {
    const ix = this.index(key);
    if (!(ix instanceof MultiIndex)) throw new StoreError("internal_error", `"${key}" is not an ordered index of "${this.name}"`);
    const out: number[] = [];
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
   * Sequence numbers stay below the heap's count (< 2^31), so the packing
   * is exact.
   */
  private inTableOrder(rows: readonly number[]): number[] {
    const n = rows.length;
    const scale = 2 ** Math.ceil(Math.log2(n + 1));
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = this.orderOf(rows[i] as number) * scale + i;
    keys.sort();
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = rows[(keys[i] as number) % scale] as number;
    return out;
  }

  /** A new array of a stored row's values. */
  values(id: number): Value[] {
    return this.heap.values(id);
  }

  /** A stored row's key at `positions` (undefined when one is NULL). */
  keyOf(id: number, positions: readonly number[]): unknown {
    return keyOfStored(this.heap, id, positions);
  }

  /** Stores a row of `values` (declared width, checked), appends and indexes it (keys must have been checked); returns its position. */
  append(values: readonly Value[]): number {
    const id = this.heap.append(values);
    this.rows.push(id);
    if (this.seq !== undefined) this.seqFor(id)[id] = id;
    this.indexRow(id);
    return this.rows.length - 1;
  }

  /** Stores a row of `values` at `position` without indexing it (undo; keys are rebuilt after). */
  insertAt(position: number, values: readonly Value[]): void {
    this.rows.splice(position, 0, this.heap.append(values));
  }

  /** Sequence numbers increase in table order. */
  orderOf(id: number): number {
    return this.seq === undefined ? id : (this.seq[id] as number);
  }

  /** The sequence numbers, made explicit (with room for `id`). */
  private seqFor(id: number): Int32Array {
    let seq = this.seq;
    if (seq === undefined) {
      seq = new Int32Array(Math.max(this.heap.count, id + 1));
      for (let i = 0; i < seq.length; i++) seq[i] = i;
    } else if (id >= seq.length) {
      const grown = new Int32Array(Math.max(id + 1, seq.length + (seq.length >> 1) + 64));
      grown.set(seq);
      seq = grown;
    }
    this.seq = seq;
    return seq;
  }

  /** The row's index in `rows`, by binary search on its sequence number. */
  positionOf(id: number): number {
    const seq = this.orderOf(id);
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.orderOf(this.rows[mid] as number) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * `replaceRows` of one row, with none of its per-call arrays: an upsert
   * and a replayed update replace rows one at a time. Returns the position.
   */
  replaceRow(old: number, next: readonly Value[]): number {
    const position = this.positionOf(old);
    const id = this.heap.append(next);
    const indexes = this.indexes;
    // As in replaceRows: a key that changes leaves its index before the row takes its place.
    const stays = indexes.map((ix) => ix.sameKey(old, id));
    for (let k = 0; k < indexes.length; k++) if (!stays[k]) indexes[k]!.remove(old);
    this.seqFor(id)[id] = this.orderOf(old);
    this.rows[position] = id;
    for (let k = 0; k < indexes.length; k++) {
      if (stays[k]) indexes[k]!.replace(old, id);
      else indexes[k]!.add(id);
    }
    return position;
  }

  /**
   * Puts each pair's new values in its old row's place: a new id at the
   * same position, with the same sequence number, and the keys moved to it.
   * Keys that change are unindexed all first, so keys swapped between rows
   * never collide midway (keys must have been checked). Returns the
   * positions, in pair order.
   */
  replaceRows(pairs: readonly (readonly [old: number, next: readonly Value[]])[]): number[] {
    if (pairs.length === 1) return [this.replaceRow(pairs[0]![0], pairs[0]![1])];
    const positions = pairs.map(([old]) => this.positionOf(old));
    const fresh = pairs.map(([, values]) => this.heap.append(values));
    const indexes = this.indexes;
    // Per index and pair: whether the key stays (the new row takes the old one's entry) or moves.
    const stays = indexes.map((ix) => pairs.map(([old], i) => ix.sameKey(old, fresh[i] as number)));
    indexes.forEach((ix, k) => pairs.forEach(([old], i) => stays[k]![i] || ix.remove(old)));
    pairs.forEach(([old], i) => {
      const id = fresh[i] as number;
      this.seqFor(id)[id] = this.orderOf(old);
      this.rows[positions[i] as number] = id;
    });
    indexes.forEach((ix, k) =>
      pairs.forEach(([old], i) => {
        const id = fresh[i] as number;
        if (stays[k]![i]) ix.replace(old, id);
        else ix.add(id);
      }),
    );
    return positions;
  }

  indexRow(id: number): void {
    for (const ix of this.uniqueKeys()) ix.add(id);
    for (const ix of this.secondary) ix.add(id);
  }

  unindexRow(id: number): void {
    for (const ix of this.uniqueKeys()) ix.remove(id);
    for (const ix of this.secondary) ix.remove(id);
  }

  /** Removes the rows at `positions` (ascending, counted before removal): a few by splicing, many in one pass. */
  removeAt(positions: readonly number[]): void {
    if (positions.length > SPLICE_AT_MOST) {
      this.removeRows(new Set(positions.map((p) => this.rows[p] as number)));
      return;
    }
    for (let k = positions.length - 1; k >= 0; k--) {
      const at = positions[k] as number;
      this.unindexRow(this.rows[at] as number);
      this.rows.splice(at, 1);
    }
  }

  /** Removes the rows in `doomed`; returns their positions before removal, ascending. */
  removeRows(doomed: ReadonlySet<number>): number[] {
    // A few (a delete by key, a replace's conflicts) are found by sequence number and spliced out; many in one pass.
    if (doomed.size <= SPLICE_AT_MOST) {
      const found = [...doomed].map((id) => this.positionOf(id)).sort((a, b) => a - b);
      // The search lands beside an id that is not here: removing what it found would take a neighbour.
      if (found.some((at, k) => !doomed.has(this.rows[at] as number) || found[k - 1] === at)) throw new StoreError("internal_error", "A row to remove is not in its table");
      this.removeAt(found);
      return found;
    }
    const positions: number[] = [];
    const kept: number[] = [];
    this.rows.forEach((id, i) => {
      if (doomed.has(id)) positions.push(i);
      else kept.push(id);
    });
    if (doomed.size * 4 > this.rows.length) {
      this.rows = kept;
      this.rebuild();
    } else {
      for (const id of doomed) this.unindexRow(id);
      this.rows = kept;
    }
    return positions;
  }

  /**
   * Rebuilds every key from scratch and numbers the rows by position (after
   * a load, an undo, or a large delete). A row whose unique key an earlier
   * row holds stays out of that index; returns their positions per unique
   * key, in `uniqueKeys()` order (never any after a mutation, which checks
   * keys).
   */
  rebuild(): number[][] {
    this.renumber();
    for (const ix of this.secondary) ix.build(this.rows);
    return this.uniqueKeys().map((ix) => ix.build(this.rows));
  }

  /** Sequence numbers anew: the ids themselves when they increase along the table, else positions. */
  private renumber(): void {
    const rows = this.rows;
    if (increasing(rows)) {
      this.seq = undefined;
      return;
    }
    const seq = new Int32Array(this.heap.count);
    rows.forEach((id, i) => (seq[id] = i));
    this.seq = seq;
  }

  /**
   * Copies the live rows into a new heap (ids 1, 2, … in table order) and
   * rebuilds the keys, once the heap holds many more rows than the table.
   * Only between commands: whatever holds ids of the old heap (a snapshot,
   * a streamed answer) holds that heap too, and it stays as it was.
   */
  compact(): void {
    if (this.heap.count <= 2 * this.rows.length + DEAD_ROWS_KEPT) return;
    this.heap = this.heap.gather(this.rows, this.types, this.columns.map((_, c) => c));
    this.rows = this.rows.map((_, i) => i + 1);
    this.rebuild();
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
      let holds: unknown;
      try {
        holds = steadily(() => check.eval(values, []));
      } catch (error) {
        if (error instanceof UnsteadyRead) {
          problems.push({ table: this.name, row, code: "check", message: `${check.label} of "${this.name}" reads the clock or the time zone for this row ('now', 'localtime', 'utc'), which a check may not` });
          continue;
        }
        // A value the check cannot read for this row — malformed JSON or a bad path (invalid_request), a JSON value of another type (type_mismatch) — is the row's problem, not the statement's, so a file holding it still validates; anything else is the statement's.
        if (!(error instanceof StoreError) || (error.code !== "invalid_request" && error.code !== "type_mismatch")) throw error;
        problems.push({ table: this.name, row, code: "check", message: `${check.label} of "${this.name}" cannot be evaluated for this row: ${error.message}` });
        continue;
      }
      if (holds === false) problems.push({ table: this.name, row, code: "check", message: `Row breaks ${check.label} of "${this.name}"` });
    }
  }
}

/** A default expression compiled: it reads no row and no parameter. */
function madeBy(expr: BoundExpr): () => Value {
  const value = compileValue(expr, "values") as unknown as (row: readonly Value[], params: readonly Value[]) => Value;
  return () => value([], []);
}
