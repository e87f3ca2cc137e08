/**
 * The rows of SQLite's json_each and json_tree (`planner/table-functions.ts`
 * names their columns), made from a document's text by the scanner the
 * JSON functions use (`json-text.ts`: validated, walked in place).
 *
 * SQLite's values, column by column: `key` an array element's index or an
 * object member's name (decoded); `value` a scalar's SQL value or a
 * container's minified text; `type` json_type's name; `atom` the value of
 * a scalar, NULL for a container; `fullkey` the path to the value and
 * `path` the path to its container, built from the path argument as
 * written and each member's name as written (quoted unless it is an ASCII
 * letter then letters and digits); `parent` (json_tree only) the container
 * row's `id`. `id` is where SQLite's parsed form (JSONB) holds the value —
 * for an object member, its name — so it is counted here the same way:
 * every value is a header of 1, 2, 3 or 5 bytes (by its payload's size)
 * then its payload — a number's digits or a string's UTF-8 bytes as
 * written, nothing for true, false and null, a container's members — so a
 * first pass measures each container, and the walk counts offsets as it
 * goes. json_tree's first row is named from the path as SQLite names it,
 * its quirks kept (`rootNames`).
 *
 * A call makes only the columns its statement reads (`ColumnSet`, from
 * `call-columns.ts`), as SQLite's virtual table computes a column only
 * when asked: `SELECT count(*) FROM json_each(?)` validates the document
 * and counts its elements, building no value, path or id. The document is
 * walked once; json_tree's containers are read by the walk that makes
 * their members' rows. When nothing needs the document whole, the walk
 * validates it as it goes, and a container's value is a slice of the text,
 * minified on its own when white space was seen in it. The document is
 * validated whole before the walk ("whole" in `run`) when a path is to be
 * found (by the pass that finds it, when nothing else needs a pass),
 * containers are to be measured (`id` or `parent` is read: a first
 * pass measures each container) or json_tree's `value` is read (each
 * container's text is repeated in every container around it); then a
 * document with white space between its tokens is minified once, whole,
 * when `value` is read, and every container's value is a slice of that.
 *
 * Rows go into one growing heap per store: a lateral call
 * (`FROM t, json_each(t.tags)`) adds each tuple's rows to the heap its
 * join reads, so the ids of every tuple's rows stay valid until the
 * statement ends — unless its join is the last and hands each tuple to
 * what consumes it as it makes it (an aggregate, DISTINCT, a projection:
 * `select.ts`), when each call's rows are made over the last's, from id 1.
 * One call makes at most `MAX_CALL_ROWS` rows and
 * `MAX_CALL_TEXT` of text in the columns it makes (json_tree repeats each
 * container's text in every container around it), as a recursive WITH
 * table is bounded.
 */

import type { TableFunctionName, Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { JSON_TABLE_SHAPE } from "../planner/table-functions.js";
import { failure, pathOf } from "./json-functions.js";
import { clearSpace, decodeString, jsonTypeName, locate, malformed, MAX_DEPTH, minify, skipSpace, skipString, skipValue, spaceSeen, sqlValue, stringEscaped, validate, validateSpaced, type Span } from "./json-text.js";
import { MAX_RECURSIVE_ROWS, MAX_RECURSIVE_TEXT } from "./recursive.js";
import { KeylessStore, type Column, type StoredRow } from "./table-store.js";

/** The most rows one call makes (a recursive WITH table's bound). */
export const MAX_CALL_ROWS = MAX_RECURSIVE_ROWS;
/** The most text one call's rows hold, in bytes: two per UTF-16 code unit. */
export const MAX_CALL_TEXT = MAX_RECURSIVE_TEXT;

const WIDTH = JSON_TABLE_SHAPE.columns.length;

/** The columns a call makes: bit c for column c. */
export type ColumnSet = number;
export const ALL_COLUMNS: ColumnSet = (1 << WIDTH) - 1;

const KEY = 0;
const VALUE = 1;
const TYPE = 2;
const ATOM = 3;
const ID = 4;
const PARENT = 5;
const FULLKEY = 6;
const PATH = 7;
const JSON_ARG = 8;
const ROOT_ARG = 9;

/** A table function's rows: the ones `add` made, in one heap. */
export class JsonTable extends KeylessStore {
  protected readonly what = "a table function's rows";
  readonly width = WIDTH;
  readonly heap: { readonly columns: Column[] };
  /** An uncorrelated call's rows (its one `add`). */
  rows: readonly StoredRow[] = [];
  /**
   * A lateral call's: each tuple's rows, by its arguments, in one array
   * reused by the next tuple's call (the join reads them before it makes
   * another) — with `reuse`, made over the earlier calls' rows in the heap
   * too, which then stays as small as one call's rows; absent for an
   * uncorrelated call, whose rows are made once (so may keep their
   * hashes: `kept-hashes.ts`).
   */
  readonly rowsFor?: (args: readonly Value[], reuse: boolean) => readonly StoredRow[];
  private readonly walk: Walk;

  /** `read`: the columns the statement reads, the only ones made. */
  constructor(name: TableFunctionName, lateral: boolean, read: ColumnSet = ALL_COLUMNS) {
    super();
    this.walk = new Walk(name, read);
    this.heap = this.walk.heap;
    if (lateral) {
      const ids: StoredRow[] = [];
      this.rowsFor = (args, reuse) => {
        ids.length = 0;
        if (reuse) this.walk.restart();
        return this.walk.add(args[0] ?? null, args.length > 1 ? args[1] : undefined, ids);
      };
    }
  }

  /** Makes the rows of the call with this document and path (`undefined`: none given, `$`): their ids. No rows for a NULL argument. */
  add(doc: Value, path: Value | undefined): StoredRow[] {
    return this.walk.add(doc, path, []);
  }
}

/** A value's node size in SQLite's JSONB: a header by its payload's size, then the payload. */
function nodeSize(payload: number): number {
  return payload + headerSize(payload);
}

function headerSize(payload: number): number {
  return payload <= 11 ? 1 : payload <= 0xff ? 2 : payload <= 0xffff ? 3 : 5;
}

/** The UTF-8 length of `t[from, to)`. */
function utf8Length(t: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

const isAlpha = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;
const isAlnum = (c: number): boolean => isAlpha(c) || (c >= 48 && c <= 57);

/** `.name`, or `."name"` for a name SQLite quotes: empty, or not an ASCII letter then letters and digits; the name is `t[from, to)` as written. */
function memberStep(t: string, from: number, to: number): string {
  let plain = to > from && isAlpha(t.charCodeAt(from));
  for (let i = from + 1; plain && i < to; i++) plain = isAlnum(t.charCodeAt(i));
  return plain ? `.${t.slice(from, to)}` : `."${t.slice(from, to)}"`;
}

const growable = (column: number): boolean => column === ID || column === PARENT;

/** A store's walks of its calls' documents, into its heap: one object, reset by each call. */
class Walk {
  readonly heap: { readonly columns: Column[] } = { columns: [] };
  /** Rows made so far: ids 1 to `count` (0 is the row of NULLs). */
  private count = 0;
  private capacity = 16;
  private readonly tree: boolean;
  private readonly label: string;
  /** Which columns are made. */
  private readonly wants: readonly boolean[];
  /** `id` or `parent` is read: containers are measured first. */
  private readonly sized: boolean;
  /** `fullkey` or `path` is read: the walk builds paths. */
  private readonly named: boolean;
  /** A scalar's SQL value is read (`value` or `atom`). */
  private readonly valued: boolean;

  // One call's state.
  /** The text walked: the document, or its minified copy when `value` is read and it has white space. */
  private t = "";
  private doc = "";
  private root = "$";
  private text = 0;
  /** Whether the document was validated before the walk (else the walk validates it). */
  private validated = false;
  private ids: StoredRow[] = [];
  /** Each container's start in `t` and payload size (JSONB), in document order (`measure`); `cursor` the last one looked up. */
  private readonly starts: number[] = [];
  private readonly payloads: number[] = [];
  private cursor = 0;
  private readonly span: Span = { start: 0, end: 0, escaped: false };

  constructor(name: TableFunctionName, read: ColumnSet) {
    this.tree = name === "json_tree";
    this.label = `${name}()`;
    this.wants = Array.from({ length: WIDTH }, (_, c) => (read & (1 << c)) !== 0);
    this.sized = this.wants[ID]! || this.wants[PARENT]!;
    this.named = this.wants[FULLKEY]! || this.wants[PATH]!;
    this.valued = this.wants[VALUE]! || this.wants[ATOM]!;
    for (let c = 0; c < WIDTH; c++) this.heap.columns.push(growable(c) ? new Float64Array(this.wants[c] ? this.capacity : 1).fill(NaN, 0, 1) : [null]);
  }

  /** The next call's rows are made from id 1 again, over the rows made so far (the heap's columns are written by id, not appended to). */
  restart(): void {
    this.count = 0;
  }

  add(doc: Value, path: Value | undefined, ids: StoredRow[]): StoredRow[] {
    if (doc === null || path === null) return ids;
    this.doc = String(doc);
    this.root = path === undefined ? "$" : String(path);
    this.ids = ids;
    this.text = 0;
    try {
      this.run();
    } catch (error) {
      throw failure(this.label, error);
    }
    return ids;
  }

  /**
   * The document is validated first when the walk needs it whole (a path
   * to find, containers to measure, json_tree's values to slice from one
   * minified text); else the walk validates it as it goes — each member
   * and element skipped by the validating scanner, the punctuation
   * between them checked here — and a container's value is minified only
   * when white space was seen in it.
   */
  private run(): void {
    const doc = this.doc;
    const whole = this.root !== "$" || this.sized || (this.tree && this.wants[VALUE]!);
    // A path alone: one pass validates the document and finds the path, where validating first took a pass of its own.
    const located = this.root !== "$" && !this.sized && !(this.tree && this.wants[VALUE]) ? locate(doc, pathOf(this.root)).start : undefined;
    const spaced = whole && validateSpaced(doc); // no second pass: `locate` left `doc` the last document validated
    this.validated = whole;
    const t = (this.t = spaced && this.wants[VALUE] ? minify(doc, 0, doc.length) : doc);
    let target: number;
    if (this.root === "$") target = skipSpace(t, 0);
    else {
      const start = located !== undefined && t === doc ? located : locate(t, pathOf(this.root), true).start;
      if (start < 0) return;
      target = start;
    }
    // The target's JSONB offset (`offset`; its name's, `id`, for an object member), counted down to it.
    let offset = 0;
    let id = 0;
    if (this.sized) {
      this.starts.length = 0;
      this.payloads.length = 0;
      this.measure(skipSpace(t, 0));
      this.cursor = 0;
      [offset, id] = this.offsetOf(target);
    }
    const c = t.charCodeAt(target);
    const container = c === 123 || c === 91;
    const payload = container && this.sized ? offset + headerSize(this.payloadAt(target)) : 0;
    let end: number;
    if (this.tree) {
      const names = this.rootNames(target);
      if (container) {
        const row = this.emit(names.key, target, id, NaN, this.root, names.path);
        end = this.children(target, payload, id, this.root, 0);
        this.containerValue(row, target, end, false);
      } else end = this.scalar(names.key, target, id, NaN, this.root, names.path);
    } else if (container) end = this.children(target, payload, NaN, this.root, 0);
    else end = this.scalar(null, target, id, NaN, this.root, this.root);
    if (!whole && skipSpace(t, end) !== t.length) malformed();
  }

  /** The JSONB offsets of the value at `target`: its node's, and its own id (its name's, for an object member). */
  private offsetOf(target: number): [number, number] {
    const t = this.t;
    let i = skipSpace(t, 0);
    let offset = 0;
    let labelAt = -1;
    while (i !== target) {
      const object = t.charCodeAt(i) === 123;
      let at = offset + headerSize(this.payloadAt(i));
      let j = skipSpace(t, i + 1);
      for (;;) {
        let label = -1;
        if (object) {
          const e = skipString(t, j);
          label = at;
          at += nodeSize(utf8Length(t, j + 1, e - 1));
          j = skipSpace(t, skipSpace(t, e) + 1);
        }
        const end = skipValue(t, j, 0);
        if (target >= j && target < end) {
          i = j;
          offset = at;
          labelAt = label;
          break;
        }
        at += this.sizeOf(j, end);
        j = skipSpace(t, skipSpace(t, end) + 1);
      }
    }
    return [offset, labelAt >= 0 ? labelAt : offset];
  }

  /** Reads the value at `i`, noting each container's payload size in document order; returns its node size (its end in `measuredEnd`). */
  private measure(i: number): number {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (c !== 123 && c !== 91) {
      const end = skipValue(t, i, 0);
      this.measuredEnd = end;
      return this.sizeOf(i, end);
    }
    const slot = this.starts.push(i) - 1;
    this.payloads.push(0);
    let payload = 0;
    let j = skipSpace(t, i + 1);
    if (t.charCodeAt(j) !== (c === 123 ? 125 : 93)) {
      for (;;) {
        if (c === 123) {
          const e = skipString(t, j);
          payload += nodeSize(utf8Length(t, j + 1, e - 1));
          j = skipSpace(t, skipSpace(t, e) + 1);
        }
        payload += this.measure(j);
        j = skipSpace(t, this.measuredEnd);
        if (t.charCodeAt(j) !== 44) break;
        j = skipSpace(t, j + 1);
      }
    }
    this.payloads[slot] = payload;
    this.measuredEnd = j + 1;
    return nodeSize(payload);
  }

  private measuredEnd = 0;

  /** The payload size of the container at `i`: looked up in document order, so the cursor only moves on. */
  private payloadAt(i: number): number {
    const starts = this.starts;
    let k = this.cursor;
    while (starts[k]! < i) k++;
    this.cursor = k;
    return this.payloads[k]!;
  }

  /** The node size of the value `t[i, end)` (a container measured already). */
  private sizeOf(i: number, end: number): number {
    const t = this.t;
    switch (t.charCodeAt(i)) {
      case 123:
      case 91:
        return nodeSize(this.payloadAt(i));
      case 34:
        return nodeSize(utf8Length(t, i + 1, end - 1));
      case 116:
      case 102:
      case 110:
        return 1;
      default:
        return nodeSize(end - i);
    }
  }

  /**
   * A row per member or element of the container at `i`, `depth`
   * containers deep (its first member's JSONB offset `at`, when
   * measured); json_tree's descend. Returns the container's end.
   */
  private children(i: number, at: number, parent: number, fullkey: string, depth: number): number {
    const t = this.t;
    const object = t.charCodeAt(i) === 123;
    const close = object ? 125 : 93;
    const { sized, named, tree } = this;
    const keyed = this.wants[KEY]!;
    const valued = this.wants[VALUE]!;
    if (depth >= MAX_DEPTH) malformed();
    let j = skipSpace(t, i + 1);
    if (t.charCodeAt(j) === close) return j + 1;
    for (let index = 0; ; index++) {
      let key: Value = index;
      let full = "";
      const id = at;
      if (object) {
        if (t.charCodeAt(j) !== 34) malformed();
        const e = skipString(t, j);
        if (keyed) key = stringEscaped() ? decodeString(t, j, e) : t.slice(j + 1, e - 1);
        if (named) full = fullkey + memberStep(t, j + 1, e - 1);
        if (sized) at += nodeSize(utf8Length(t, j + 1, e - 1));
        j = skipSpace(t, e);
        if (t.charCodeAt(j) !== 58) malformed();
        j = skipSpace(t, j + 1);
      } else if (named) full = `${fullkey}[${index}]`;
      const c = t.charCodeAt(j);
      let end: number;
      if (tree && (c === 123 || c === 91)) {
        const payload = sized ? this.payloadAt(j) : 0;
        const row = this.emit(key, j, id, parent, full, fullkey);
        end = this.children(j, at + headerSize(payload), id, full, depth + 1);
        this.containerValue(row, j, end, false);
        if (sized) at += nodeSize(payload);
      } else {
        if (valued) clearSpace();
        end = skipValue(t, j, depth + 1);
        if (c === 123 || c === 91) this.containerValue(this.emit(key, j, id, parent, full, fullkey), j, end, valued && spaceSeen());
        else {
          this.span.escaped = stringEscaped();
          this.scalarAt(key, j, end, id, parent, full, fullkey);
        }
        if (sized) at += this.sizeOf(j, end);
      }
      j = skipSpace(t, end);
      const next = t.charCodeAt(j);
      if (next === close) return j + 1;
      if (next !== 44) malformed();
      j = skipSpace(t, j + 1);
    }
  }

  /**
   * json_tree's first row's key and path, as SQLite finds them from the
   * path argument: cut back at each `.` or `[` until what is left finds
   * the container whose first member or element the target is (or only
   * `$` is left); the key is what was cut (`$.a.c`, c not a's first
   * member, is key "a.c", path "$", in SQLite too).
   */
  private rootNames(target: number): { key: Value; path: string } {
    const root = this.root;
    let n = root.length;
    while (n > 1) {
      n--;
      const c = root.charCodeAt(n);
      if (c !== 46 && c !== 91) continue;
      let start: number;
      try {
        start = locate(this.t, pathOf(root.slice(0, n)), true).start;
      } catch {
        continue;
      }
      if (start >= 0 && this.firstChild(start) === target) break;
    }
    const path = root.slice(0, n);
    const cut = root.length - n;
    if (root.length === 1 || cut === 0) return { key: null, path };
    if (root.charCodeAt(n) === 91) {
      const digits = /^\s*([+-]?\d*)/.exec(root.slice(n + 1, n + cut))![1]!;
      const index = Number(digits);
      return { key: Number.isFinite(index) ? index : 0, path };
    }
    if (root.charCodeAt(n + 1) === 34) return { key: root.slice(n + 2, n + cut - 1), path };
    return { key: root.slice(n + 1, n + cut), path };
  }

  /** Where the value of the first member or element of the container at `i` starts; -1 for an empty container or a scalar. */
  private firstChild(i: number): number {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (c !== 123 && c !== 91) return -1;
    let j = skipSpace(t, i + 1);
    if (t.charCodeAt(j) === (c === 123 ? 125 : 93)) return -1;
    if (c === 123) j = skipSpace(t, skipSpace(t, skipString(t, j)) + 1);
    return j;
  }

  /** The row of the scalar at `start` (its end and escape flag read here): its end. */
  private scalar(key: Value, start: number, id: number, parent: number, fullkey: string, path: string): number {
    const end = skipValue(this.t, start, 0);
    this.span.escaped = stringEscaped();
    this.scalarAt(key, start, end, id, parent, fullkey, path);
    return end;
  }

  /** The row of the scalar `t[start, end)` (a string's escape flag in `span`). */
  private scalarAt(key: Value, start: number, end: number, id: number, parent: number, fullkey: string, path: string): void {
    let value: Value = null;
    if (this.valued) {
      const span = this.span;
      span.start = start;
      span.end = end;
      value = sqlValue(this.t, span);
    }
    const row = this.emit(key, start, id, parent, fullkey, path);
    if (this.wants[VALUE]) this.setText(VALUE, row, value);
    if (this.wants[ATOM]) (this.heap.columns[ATOM] as Value[])[row] = value;
  }

  /** A container's value, known once its members are read: `t[start, end)`, minified when it has white space (`spaced`). */
  private containerValue(row: number, start: number, end: number, spaced: boolean): void {
    if (this.wants[VALUE]) this.setText(VALUE, row, spaced ? minify(this.t, start, end) : this.t.slice(start, end));
  }

  private setText(column: number, row: number, value: Value): void {
    (this.heap.columns[column] as Value[])[row] = value;
    if (typeof value === "string") this.hold(value.length);
  }

  private hold(length: number): void {
    this.text += 2 * length;
    if (this.text > MAX_CALL_TEXT) throw this.overflow();
  }

  /** One row, of the value at `start`: every column made but `value` and `atom` (the caller's: `scalarAt`, `containerValue`). */
  private emit(key: Value, start: number, id: number, parent: number, fullkey: string, path: string): number {
    if (this.ids.length >= MAX_CALL_ROWS) throw this.overflow();
    const row = ++this.count;
    if (row === this.capacity) this.grow();
    const w = this.wants;
    const columns = this.heap.columns;
    if (w[KEY]) {
      (columns[KEY] as Value[])[row] = key;
      if (typeof key === "string") this.hold(key.length);
    }
    if (w[VALUE]) (columns[VALUE] as Value[])[row] = null;
    if (w[TYPE]) (columns[TYPE] as Value[])[row] = this.typeAt(start);
    if (w[ATOM]) (columns[ATOM] as Value[])[row] = null;
    if (w[ID]) (columns[ID] as Float64Array)[row] = id;
    if (w[PARENT]) (columns[PARENT] as Float64Array)[row] = parent;
    if (w[FULLKEY]) {
      (columns[FULLKEY] as Value[])[row] = fullkey;
      this.hold(fullkey.length);
    }
    if (w[PATH]) {
      (columns[PATH] as Value[])[row] = path;
      this.hold(path.length);
    }
    if (w[JSON_ARG]) (columns[JSON_ARG] as Value[])[row] = this.doc;
    if (w[ROOT_ARG]) (columns[ROOT_ARG] as Value[])[row] = this.root;
    this.ids.push(row);
    return row;
  }

  /** json_type's name of the value at `start`: a number's read to its end. */
  private typeAt(start: number): string {
    const t = this.t;
    const c = t.charCodeAt(start);
    if (c !== 45 && (c < 48 || c > 57)) return jsonTypeName(t, start, start + 1);
    // Digits up to a fraction or an exponent (a sign only follows `e`): a real, else an integer.
    let i = start + 1;
    let d = t.charCodeAt(i);
    while (d >= 48 && d <= 57) d = t.charCodeAt(++i);
    return d === 46 || d === 101 || d === 69 ? "real" : "integer";
  }

  private grow(): void {
    this.capacity *= 2;
    const columns = this.heap.columns;
    for (let c = 0; c < WIDTH; c++) {
      if (!growable(c) || !this.wants[c]) continue;
      const wider = new Float64Array(this.capacity);
      wider.set(columns[c] as Float64Array);
      columns[c] = wider;
    }
  }

  /** The bound's error; a document not validated yet is validated first: malformed JSON is that error, as when it is read whole before its rows are made. */
  private overflow(): StoreError {
    if (!this.validated) validate(this.doc);
    const made = this.ids.length >= MAX_CALL_ROWS ? `${MAX_CALL_ROWS.toLocaleString("en-US")} rows` : `${MAX_CALL_TEXT / 1024 / 1024} MB of text`;
    return new StoreError("invalid_request", `${this.label} would make more than ${made} from one document: read a part of it with a path argument, or json_each one level at a time`);
  }
}
