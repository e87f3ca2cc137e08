/**
 * The journal file `<name>.store-journal` (CONTRACT §2): its lines, how they
 * are written, and how a file of them is read back.
 *
 * A journal is text, one entry per line: the CRC-32 of the rest of the line
 * in eight hex digits, a space, and a JSON object —
 *
 *   header      {"journal":"storedb-journal/1","document":"sha256:…","seq":k}
 *               always the first line: the document this journal continues
 *               (its identity, see `checksum.ts`), which holds every record
 *               up to sequence number k
 *   changes     {"seq":n,"changes":[…]}
 *               one commit group, redone all or not at all
 *   checkpoint  {"seq":n,"checkpoint":"sha256:…","through":k}
 *               a checkpoint is about to put that document in place, holding
 *               every record up to k
 *
 * Sequence numbers run on by one from the header's, markers included, so a
 * lost, repeated or reordered line shows. A change holds what redoing it
 * needs (`Redo`: no before-images, rows as arrays in column order). Inserts
 * into one table at consecutive positions — a bulk insert — are written as
 * one run, `{"kind":"insert","table":t,"position":p,"rows":[…]}`, and read
 * back as one insert per row: half the bytes and half the encoding time of
 * an object per row. Inserts and updates of one table that follow each
 * other with updates among them — a multi-row update, an upsert, whose
 * inserts and updates alternate — are one write run,
 * `{"kind":"write","table":t,"from":p,"positions":[…],"rows":[…]}`: each
 * row goes to its position, as an insert when that position is the row
 * count (which is `from` at the run's first insert and grows by one per
 * insert; no `from`, no inserts), else as an update of the row there, in
 * order. An update is ~16 bytes of a record that way instead of ~70 as an
 * object; a 1,000-row upsert's record went from 72 to ~16 KB. (A storedb
 * from before write runs reads such a journal as damaged, never wrongly.)
 *
 * A writer may preallocate space ahead of the entries (see `journal.ts`):
 * the lines are then followed by zero bytes up to the end of the file, which
 * hold nothing — the entries end where the zeros begin. A zero inside a line
 * is just a bad byte there (a flipped bit), so a middle record damaged that
 * way is damage like any other, never the end of the journal.
 *
 * Reading (`scanJournal`) never throws on bad content. A line whose CRC or
 * shape is wrong, or an unfinished last line, is bad. A bad line with only
 * bad lines after it is a torn tail — an append no answer ever covered — and
 * is cut away; a bad line followed by a good one, or a sequence number out
 * of step, is damage. So is a bad line that ends in a good one: a flipped
 * newline joined two lines, and the good one must not be cut with it. A record is decoded only when it is replayed, just
 * before (`decodeRecord`), so its objects die young.
 */

import { isAscii } from "node:buffer";
import { crc32 } from "node:zlib";
import type { Change, Redo, Row } from "../catalog/types.js";

export const JOURNAL_FORMAT = "storedb-journal/1";

/** The bytes of one line: CRC, space, `json`, newline. */
export function journalLine(json: string): Buffer {
  const length = Buffer.byteLength(json);
  const bytes = Buffer.allocUnsafe(length + 10);
  bytes.write(json, 9, "utf8");
  bytes.write(crc32(bytes.subarray(9, 9 + length)).toString(16).padStart(8, "0"), 0, "latin1");
  bytes[8] = 0x20;
  bytes[9 + length] = 0x0a;
  return bytes;
}

export function headerLine(document: string, seq: number): Buffer {
  return journalLine(`{"journal":"${JOURNAL_FORMAT}","document":${JSON.stringify(document)},"seq":${seq}}`);
}

export function markerLine(seq: number, document: string, through: number): Buffer {
  return journalLine(`{"seq":${seq},"checkpoint":${JSON.stringify(document)},"through":${through}}`);
}

/** What redoing `change` needs (no before-images); an insert and a create-table are that already. */
function redoOf(change: Change): Redo {
  switch (change.kind) {
    case "insert":
    case "create-table":
      return change;
    case "update":
      return { kind: "update", table: change.table, position: change.position, after: change.after };
    case "delete":
      return { kind: "delete", table: change.table, position: change.position };
    case "drop-table":
      return { kind: "drop-table", table: change.table };
    case "alter-table":
      return change.rows === undefined
        ? { kind: "alter-table", table: change.table, schema: change.schema }
        : { kind: "alter-table", table: change.table, schema: change.schema, rows: change.rows };
  }
}

/** Consecutive inserts into one table, as one journal element. */
interface InsertRun {
  readonly kind: "insert";
  readonly table: string;
  readonly position: number;
  readonly rows: Row[];
}

/** Consecutive inserts and updates of one table (see the header), as one journal element. */
interface WriteRun {
  readonly kind: "write";
  readonly table: string;
  /** The first insert's position (the row count then); absent when the run has no insert. */
  from?: number;
  readonly positions: number[];
  readonly rows: Row[];
}

type Element = Redo | InsertRun | WriteRun;

/** A run of inserts and updates being gathered: its changes, and where its next insert must go. */
interface Gathering {
  readonly table: string;
  readonly changes: (Change & { kind: "insert" | "update" })[];
  inserts: number;
  from: number;
}

/** The element of a gathered run: an insert run when it holds inserts only, an update alone as itself, else a write run. */
function runElement(run: Gathering): Element {
  const { changes } = run;
  if (run.inserts === changes.length) return { kind: "insert", table: run.table, position: run.from, rows: changes.map((c) => (c as { row: Row }).row) };
  if (changes.length === 1) return redoOf(changes[0]!);
  const element: WriteRun = { kind: "write", table: run.table, positions: new Array<number>(changes.length), rows: new Array<Row>(changes.length) };
  if (run.inserts > 0) element.from = run.from;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    element.positions[i] = c.position;
    element.rows[i] = c.kind === "insert" ? c.row : c.after;
  }
  return element;
}

/** The journal elements of `changes`: each change's `Redo`, runs of inserts and updates joined. */
function elementsOf(changes: readonly Change[]): Element[] {
  const elements: Element[] = [];
  let run: Gathering | undefined;
  for (const change of changes) {
    if (change.kind === "insert" || change.kind === "update") {
      // Inserts are appends: the run's next one goes right after its last (updates leave the row count alone).
      const fits = run !== undefined && run.table === change.table && (change.kind === "update" || run.inserts === 0 || change.position === run.from + run.inserts);
      if (!fits) {
        if (run !== undefined) elements.push(runElement(run));
        run = { table: change.table, changes: [], inserts: 0, from: 0 };
      }
      if (change.kind === "insert" && run!.inserts++ === 0) run!.from = change.position;
      run!.changes.push(change);
      continue;
    }
    if (run !== undefined) elements.push(runElement(run));
    run = undefined;
    elements.push(redoOf(change));
  }
  if (run !== undefined) elements.push(runElement(run));
  return elements;
}

export function recordLine(seq: number, changes: readonly Change[]): Buffer {
  return journalLine(`{"seq":${seq},"changes":${JSON.stringify(elementsOf(changes))}}`);
}

/** One decoded record's changes, runs of inserts and write runs expanded into one `Redo` per row. */
function redosOf(elements: readonly unknown[]): Redo[] {
  const redos: Redo[] = [];
  for (const element of elements) {
    const run = element as Partial<InsertRun> | Partial<WriteRun>;
    if (run.kind === "insert" && Array.isArray(run.rows)) {
      const { table, position, rows } = run as InsertRun;
      for (let i = 0; i < rows.length; i++) redos.push({ kind: "insert", table, row: rows[i]!, position: position + i });
    } else if (run.kind === "write") {
      const { table, from, positions, rows } = run as Partial<WriteRun>;
      if (!Array.isArray(positions) || !Array.isArray(rows) || positions.length !== rows.length) throw new Error("a write run whose positions and rows differ");
      // The row count as this run goes: an entry at it is an insert (no `from`: the run has none).
      let count = from ?? -1;
      for (let i = 0; i < rows.length; i++) {
        const position = positions[i]!;
        if (position === count) {
          redos.push({ kind: "insert", table: table!, row: rows[i]!, position });
          count++;
        } else {
          redos.push({ kind: "update", table: table!, after: rows[i]!, position });
        }
      }
    } else {
      redos.push(element as Redo);
    }
  }
  return redos;
}

export type JournalEntry =
  | { readonly kind: "changes"; readonly seq: number; /** The line's JSON, decoded by `decodeChanges`. */ readonly json: string }
  | { readonly kind: "checkpoint"; readonly seq: number; readonly document: string; readonly through: number };

export interface JournalScan {
  /** The first line, when it is a good header; without one, nothing in the file can be used. */
  readonly header: { readonly document: string; readonly seq: number } | undefined;
  /** The good lines after the header, in order. */
  readonly entries: readonly JournalEntry[];
  /** Bytes of the good lines: where a torn tail starts. */
  readonly end: number;
  /** Where the bytes turn to zeros up to the end of the file (preallocated space): beyond `end` when a torn tail lies in between. */
  readonly used: number;
  /** Why the journal is damaged (a bad line before a good one, a sequence out of step); undefined when it is not. */
  readonly damage: string | undefined;
}

const HEADER = new RegExp(`^\\{"journal":"${JOURNAL_FORMAT.replace("/", "\\/")}","document":"(sha256:[0-9a-f]{64})","seq":(0|[1-9][0-9]{0,15})\\}$`);
const CHANGES = /^\{"seq":(0|[1-9][0-9]{0,15}),"changes":\[/;
const MARKER = /^\{"seq":(0|[1-9][0-9]{0,15}),"checkpoint":"(sha256:[0-9a-f]{64})","through":(0|[1-9][0-9]{0,15})\}$/;

type Parsed = JournalEntry | { readonly kind: "header"; readonly document: string; readonly seq: number };

/**
 * True when the bad line [start, end) ends in a good line: a flipped bit
 * turned the newline before that line into something else. Such a line
 * holds an entry that follows a bad one — damage, not a torn tail (a torn
 * append never ends in a newline).
 */
function hidesGoodLine(file: Text, start: number, end: number): boolean {
  const { bytes } = file;
  for (let at = bytes.indexOf(0x20, start + 1); at !== -1 && at < end - 1; at = bytes.indexOf(0x20, at + 1)) {
    if (at - 8 > start && bytes[at + 1] === 0x7b && parseLine(file, at - 8, end) !== undefined) return true;
  }
  return false;
}

/**
 * A journal's bytes, and whether they are all ASCII (as usual). Each line is
 * decoded on its own: one string of the whole file is memory touched for the
 * first time, which costs more here than decoding (2.3 MB: ~6.6 ms, against
 * ~2.2 ms for 10k lines decoded and checked one by one).
 */
interface Text {
  readonly bytes: Buffer;
  readonly ascii: boolean;
}

/** The eight lower-case hex digits at `start` as a number; -1 if they are not that. */
function hexAt(bytes: Buffer, start: number): number {
  let value = 0;
  for (let i = start; i < start + 8; i++) {
    const c = bytes[i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The entry on bytes [start, end) (newline excluded), or undefined when the line is bad. */
function parseLine(file: Text, start: number, end: number): Parsed | undefined {
  const { bytes } = file;
  if (end - start < 11 || bytes[start + 8] !== 0x20) return undefined;
  // ASCII text's CRC is taken of the string decoded anyway (its UTF-8 is the same bytes): no Buffer view per line.
  const json = bytes.toString(file.ascii ? "latin1" : "utf8", start + 9, end);
  if (hexAt(bytes, start) !== crc32(file.ascii ? json : bytes.subarray(start + 9, end))) return undefined;
  let match = CHANGES.exec(json);
  if (match !== null) return json.endsWith("]}") ? { kind: "changes", seq: Number(match[1]), json } : undefined;
  match = MARKER.exec(json);
  if (match !== null) return { kind: "checkpoint", seq: Number(match[1]), document: match[2]!, through: Number(match[3]) };
  match = HEADER.exec(json);
  if (match !== null) return { kind: "header", document: match[1]!, seq: Number(match[2]) };
  return undefined;
}

const ZEROS = Buffer.alloc(4096);

/** The length of `bytes` without the zeros that end it. */
function withoutZeros(bytes: Buffer): number {
  let end = bytes.length;
  while (end > 0) {
    const start = Math.max(0, end - ZEROS.length);
    if (bytes.compare(ZEROS, 0, end - start, start, end) !== 0) break;
    end = start;
  }
  while (end > 0 && bytes[end - 1] === 0) end--;
  return end;
}

/**
 * Reads a journal's lines; never throws on bad content. With `continues`,
 * `bytes` are the lines after the entry of that sequence number (a reader
 * following a growing journal), with no header.
 */
export function scanJournal(whole: Buffer, continues?: number): JournalScan {
  const used = withoutZeros(whole);
  const bytes = whole.subarray(0, used);
  const file: Text = { bytes, ascii: isAscii(bytes) };
  const good: { readonly parsed: Parsed; readonly end: number }[] = [];
  let badAt = -1;
  let damage: string | undefined;
  for (let pos = 0; pos < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, pos);
    const end = newline === -1 ? bytes.length : newline;
    const parsed = newline === -1 ? undefined : parseLine(file, pos, end);
    if (parsed === undefined) {
      if (badAt === -1) badAt = pos;
      if (newline !== -1 && hidesGoodLine(file, pos, end)) {
        damage = `the journal has a damaged entry at byte ${badAt} followed by good ones`;
        break;
      }
    } else if (badAt !== -1) {
      damage = `the journal has a damaged entry at byte ${badAt} followed by good ones`;
      break;
    } else {
      good.push({ parsed, end: end + 1 });
    }
    pos = end + 1;
  }
  const first = good[0]?.parsed;
  let header: JournalScan["header"];
  let seq: number;
  if (continues !== undefined) {
    seq = continues;
  } else if (first?.kind === "header") {
    header = { document: first.document, seq: first.seq };
    seq = first.seq;
  } else {
    // No header: a file that is all bad (or empty) holds nothing; a good line without a header before it is damage.
    return { header: undefined, entries: [], end: 0, used, damage: damage ?? (first !== undefined ? "the journal does not start with a header" : undefined) };
  }
  const entries: JournalEntry[] = [];
  for (let i = header === undefined ? 0 : 1; i < good.length && damage === undefined; i++) {
    const parsed = good[i]!.parsed;
    if (parsed.kind === "header") damage = `the journal has a second header after sequence number ${seq}`;
    else if (parsed.seq !== seq + 1) damage = `the journal's sequence number ${parsed.seq} follows ${seq}`;
    else {
      entries.push(parsed);
      seq = parsed.seq;
    }
  }
  return { header, entries, end: good.length === 0 ? 0 : good[good.length - 1]!.end, used, damage };
}

/**
 * The sequence number up to which `document` holds the journal's records:
 * the header's when it names the document, else that of the last checkpoint
 * marker naming it (a crash came between that checkpoint's rename and the
 * journal's reset); undefined when the journal does not continue it.
 */
export function baseFor(scan: JournalScan, document: string): number | undefined {
  for (let i = scan.entries.length - 1; i >= 0; i--) {
    const entry = scan.entries[i]!;
    if (entry.kind === "checkpoint" && entry.document === document) return entry.through;
  }
  return scan.header?.document === document ? scan.header.seq : undefined;
}

/** One record's changes, decoded; throws when it does not decode (the caller reports damage). */
export function decodeRecord(entry: JournalEntry & { readonly kind: "changes" }): Redo[] {
  const record = JSON.parse(entry.json) as { changes?: unknown };
  if (!Array.isArray(record.changes)) throw new Error("a record without changes");
  return redosOf(record.changes);
}
