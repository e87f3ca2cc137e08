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
 * Rows go into one growing heap per store (`MadeRows`): a lateral call
 * (`FROM t, json_each(t.tags)`) adds each tuple's rows to the heap its
 * join reads, so the ids of every tuple's rows stay valid until the
 * statement ends. One call makes at most `MAX_CALL_ROWS` rows and
 * `MAX_CALL_TEXT` of text (json_tree repeats each container's text in
 * every container around it), as a recursive WITH table is bounded.
 */

import type { TableFunctionName, Value } from "../commands/types.js";
import { StoreError } from "../errors.js";
import { JSON_TABLE_SHAPE } from "../planner/table-functions.js";
import { failure, pathOf } from "./json-functions.js";
import { decodeString, jsonTypeName, locate, minify, skipSpace, skipString, skipValue, sqlValue, stringEscaped, validate, type Span } from "./json-text.js";
import { MadeRows } from "./made-rows.js";
import { MAX_RECURSIVE_ROWS, MAX_RECURSIVE_TEXT } from "./recursive.js";
import { KeylessStore, type StoredRow } from "./table-store.js";

/** The most rows one call makes (a recursive WITH table's bound). */
export const MAX_CALL_ROWS = MAX_RECURSIVE_ROWS;
/** The most text one call's rows hold, in bytes: two per UTF-16 code unit. */
export const MAX_CALL_TEXT = MAX_RECURSIVE_TEXT;

const WIDTH = JSON_TABLE_SHAPE.columns.length;

/** A table function's rows: the ones `add` made, in one heap. */
export class JsonTable extends KeylessStore {
  protected readonly what = "a table function's rows";
  readonly width = WIDTH;
  private readonly made = new MadeRows(WIDTH, JSON_TABLE_SHAPE.types, false);
  readonly heap = this.made.heap;
  /** An uncorrelated call's rows (its one `add`). */
  rows: readonly StoredRow[] = [];
  /** A lateral call's: each tuple's rows, by its arguments; absent for an uncorrelated call, whose rows are made once (so may keep their hashes: `kept-hashes.ts`). */
  readonly rowsFor?: (args: readonly Value[]) => readonly StoredRow[];

  constructor(
    private readonly name: TableFunctionName,
    lateral: boolean,
  ) {
    super();
    if (lateral) this.rowsFor = (args) => this.add(args[0] ?? null, args.length > 1 ? args[1] : undefined);
  }

  /** Makes the rows of the call with this document and path (`undefined`: none given, `$`): their ids. No rows for a NULL argument. */
  add(doc: Value, path: Value | undefined): StoredRow[] {
    if (doc === null || path === null) return [];
    const label = `${this.name}()`;
    const root = path === undefined ? "$" : String(path);
    const ids: StoredRow[] = [];
    try {
      new Walk(String(doc), root, this.name === "json_tree", this.made, ids, label).run();
    } catch (error) {
      throw failure(label, error);
    }
    return ids;
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
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x80) n++;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const isAlpha = (c: number): boolean => ((c | 32) >= 97 && (c | 32) <= 122);
const isAlnum = (c: number): boolean => isAlpha(c) || (c >= 48 && c <= 57);

/** `.name`, or `."name"` for a name SQLite quotes: empty, or not an ASCII letter then letters and digits. */
function memberStep(raw: string): string {
  let plain = raw.length > 0 && isAlpha(raw.charCodeAt(0));
  for (let i = 1; plain && i < raw.length; i++) plain = isAlnum(raw.charCodeAt(i));
  return plain ? `.${raw}` : `."${raw}"`;
}

/** One call's walk of its document. */
class Walk {
  /** Each container's payload size (JSONB), by where it starts in the text. */
  private readonly payloads = new Map<number, number>();
  /** Set by `measure`: the node size of the value it read. */
  private measured = 0;
  private readonly span: Span = { start: 0, end: 0, escaped: false };
  private readonly row: Value[] = new Array<Value>(WIDTH).fill(null);
  private text = 0;

  constructor(
    private readonly t: string,
    private readonly root: string,
    private readonly tree: boolean,
    private readonly made: MadeRows,
    private readonly ids: StoredRow[],
    private readonly label: string,
  ) {
    this.row[8] = t;
    this.row[9] = root;
  }

  run(): void {
    const t = this.t;
    let target: number;
    if (this.root === "$") {
      validate(t);
      target = skipSpace(t, 0);
    } else {
      const found = locate(t, pathOf(this.root));
      if (found.start < 0) return;
      target = found.start;
    }
    this.measure(skipSpace(t, 0));
    // Down to the target, counting offsets; each container passed on the way, for json_tree's first row's names.
    const passed = new Map<number, number>();
    let i = skipSpace(t, 0);
    let offset = 0;
    let labelAt = -1;
    while (i !== target) {
      passed.set(i, offset);
      const object = t.charCodeAt(i) === 123;
      let at = offset + headerSize(this.payloads.get(i)!);
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
    const id = labelAt >= 0 ? labelAt : offset;
    const end = skipValue(t, target, 0);
    this.span.escaped = stringEscaped();
    const container = t.charCodeAt(target) === 123 || t.charCodeAt(target) === 91;
    if (this.tree) {
      const names = this.rootNames(id, passed);
      this.emit(names.key, target, end, id, null, this.root, names.path);
      if (container) this.children(target, offset, id, this.root);
    } else if (container) this.children(target, offset, null, this.root);
    else this.emit(null, target, end, id, null, this.root, this.root);
  }

  /** Reads the value at `i`, noting each container's payload size; sets `measured` to its node size and returns its end. */
  private measure(i: number): number {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (c !== 123 && c !== 91) {
      const end = skipValue(t, i, 0);
      this.measured = this.sizeOf(i, end);
      return end;
    }
    let payload = 0;
    let j = skipSpace(t, i + 1);
    if (t.charCodeAt(j) !== (c === 123 ? 125 : 93)) {
      for (;;) {
        if (c === 123) {
          const e = skipString(t, j);
          payload += nodeSize(utf8Length(t, j + 1, e - 1));
          j = skipSpace(t, skipSpace(t, e) + 1);
        }
        j = skipSpace(t, this.measure(j));
        payload += this.measured;
        if (t.charCodeAt(j) !== 44) break;
        j = skipSpace(t, j + 1);
      }
    }
    this.payloads.set(i, payload);
    this.measured = nodeSize(payload);
    return j + 1;
  }

  /** The node size of the value `t[i, end)` (a container measured already). */
  private sizeOf(i: number, end: number): number {
    const t = this.t;
    switch (t.charCodeAt(i)) {
      case 123:
      case 91:
        return nodeSize(this.payloads.get(i)!);
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

  /** A row per member or element of the container at `i` (JSONB offset `offset`); json_tree's descend. */
  private children(i: number, offset: number, parent: number | null, fullkey: string): void {
    const t = this.t;
    const object = t.charCodeAt(i) === 123;
    let at = offset + headerSize(this.payloads.get(i)!);
    let j = skipSpace(t, i + 1);
    if (t.charCodeAt(j) === (object ? 125 : 93)) return;
    for (let index = 0; ; index++) {
      let key: Value = index;
      let step = `[${index}]`;
      let id = at;
      if (object) {
        const e = skipString(t, j);
        key = stringEscaped() ? decodeString(t, j, e) : t.slice(j + 1, e - 1);
        step = memberStep(t.slice(j + 1, e - 1));
        at += nodeSize(utf8Length(t, j + 1, e - 1));
        j = skipSpace(t, skipSpace(t, e) + 1);
      }
      const end = skipValue(t, j, 0);
      this.span.escaped = stringEscaped();
      const full = fullkey + step;
      this.emit(key, j, end, id, this.tree ? parent : null, full, fullkey);
      const c = t.charCodeAt(j);
      if (this.tree && (c === 123 || c === 91)) this.children(j, at, id, full);
      at += this.sizeOf(j, end);
      j = skipSpace(t, end);
      if (t.charCodeAt(j) !== 44) return;
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
  private rootNames(id: number, passed: ReadonlyMap<number, number>): { key: Value; path: string } {
    const root = this.root;
    let n = root.length;
    while (n > 1) {
      n--;
      const c = root.charCodeAt(n);
      if (c !== 46 && c !== 91) continue;
      let start: number;
      try {
        start = locate(this.t, pathOf(root.slice(0, n))).start;
      } catch {
        continue;
      }
      const at = passed.get(start);
      if (at !== undefined && at + headerSize(this.payloads.get(start)!) === id) break;
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

  /** One row: the value `t[start, end)` under `key` (a string's escape flag in `span`, set where `skipValue` read it). */
  private emit(key: Value, start: number, end: number, id: number, parent: number | null, fullkey: string, path: string): void {
    const t = this.t;
    const row = this.row;
    const c = t.charCodeAt(start);
    const container = c === 123 || c === 91;
    let value: Value;
    if (container) value = minify(t, start, end);
    else {
      const span = this.span;
      span.start = start;
      span.end = end;
      value = sqlValue(t, span);
    }
    row[0] = key;
    row[1] = value;
    row[2] = jsonTypeName(t, start, end);
    row[3] = container ? null : value;
    row[4] = id;
    row[5] = parent;
    row[6] = fullkey;
    row[7] = path;
    this.text += 2 * (fullkey.length + path.length + (typeof value === "string" ? value.length : 0) + (typeof key === "string" ? key.length : 0));
    if (this.ids.length >= MAX_CALL_ROWS || this.text > MAX_CALL_TEXT) throw this.overflow();
    this.made.add(row);
    this.ids.push(this.made.count);
  }

  private overflow(): StoreError {
    const made = this.ids.length >= MAX_CALL_ROWS ? `${MAX_CALL_ROWS.toLocaleString("en-US")} rows` : `${MAX_CALL_TEXT / 1024 / 1024} MB of text`;
    return new StoreError("invalid_request", `${this.label} would make more than ${made} from one document: read a part of it with a path argument, or json_each one level at a time`);
  }
}
