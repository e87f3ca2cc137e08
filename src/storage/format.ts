/**
 * The `<name>.store` document (CONTRACT §2): writer and reader.
 *
 * Writer: deterministic bytes so a file diffs well — checksum, format, tables
 * (sorted by name); per table the schema (top-level members sorted, `columns`
 * and `computed` kept in declaration order) then the rows, one per line, keys
 * in column order. It never sorts a row, and re-serializes only rows that
 * changed since the last write (see `RowLines`).
 *
 * Reader: verifies the checksum (see `checksum.ts` for why on the main
 * thread), checks the document's shape and hands raw tables to
 * `Engine.load`, which checks schemas and rows. Every problem becomes a
 * `ProblemEntry` (JSON syntax errors with line and column); the reader never
 * throws on bad content.
 */

import { isAscii } from "node:buffer";

import type { LoadedTable, TableSnapshot } from "../catalog/types.js";
import type { TableSchema } from "../commands/types.js";
import type { ProblemEntry } from "../errors.js";
import { findSyntaxError } from "./json-syntax.js";
import { CHECKSUM_PLACEHOLDER, sealChecksum, sumDocument } from "./checksum.js";
import { pieceText, RowLines, type LineRun } from "./row-lines.js";

export const FORMAT = "storedb/1";

/** Schema members sorted at the top level; nested values as the engine normalized them. */
export function serializeSchema(schema: TableSchema): string {
  const record = schema as unknown as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return "{" + keys.map((key) => JSON.stringify(key) + ":" + JSON.stringify(record[key])).join(",") + "}";
}

/**
 * Writes whole `.store` documents. One writer per database, kept across
 * persists, so each table's unchanged rows reuse their lines — except for a
 * write known to be the last (`remember` false), which keeps no line.
 */
export class StoreWriter {
  private writers = new Map<string, RowLines>();

  constructor(private readonly remember = true) {}

  /** The whole document, checksum sealed. */
  write(tables: readonly TableSnapshot[]): Buffer {
    const bytes = Buffer.from([...this.pieces(tables, Infinity)].map(pieceText).join(""), "utf8");
    sealChecksum(bytes);
    return bytes;
  }

  /**
   * The document's text in pieces of at most `size` rows, for a writer that
   * must not hold the event loop for the whole document: joined, they are
   * the document with the checksum's digits still `0` (the placeholder
   * starts the first piece, which is text). A run of row lines stands for
   * their text joined by ",\n" (see `LineRun`).
   */
  *pieces(tables: readonly TableSnapshot[], size: number): Generator<string | LineRun> {
    const next = new Map<string, RowLines>();
    yield CHECKSUM_PLACEHOLDER + '"format":' + JSON.stringify(FORMAT) + ',"tables":{';
    for (let t = 0; t < tables.length; t++) {
      const table = tables[t]!;
      const key = table.schema.name + "\0" + table.columns.join("\0");
      const writer = this.writers.get(key) ?? new RowLines(table.columns, this.remember);
      next.set(key, writer);
      const head = (t === 0 ? "\n" : ",\n") + JSON.stringify(table.schema.name) + ':{"schema":' + serializeSchema(table.schema) + ',\n"rows":[';
      let first = true;
      for (const lines of writer.pieces(table, size)) {
        yield first ? head + "\n" : ",\n";
        yield lines;
        first = false;
      }
      yield (first ? head : "") + "\n]}";
    }
    yield "}}\n";
    if (this.remember) this.writers = next;
  }
}

export interface ReadOutcome {
  /** The raw tables, when the document parsed and has the right shape. */
  readonly tables?: readonly LoadedTable[];
  /** File-level problems (codes `checksum`, `json`, `format`); empty for a sound file. */
  readonly problems: readonly ProblemEntry[];
  /** The document's identity, which a journal that continues it names (see `checksum.ts`). */
  readonly identity: string | undefined;
}

const TOP_LEVEL = new Set(["checksum", "format", "tables"]);

/** Reads a `.store` document. Never throws on bad content. */
export function readStore(bytes: Buffer): ReadOutcome {
  const { verdict, identity } = sumDocument(bytes);
  const text = decode(bytes);
  let document: unknown;
  let syntaxError = false;
  try {
    document = JSON.parse(text);
  } catch {
    syntaxError = true;
  }
  const problems: ProblemEntry[] = [];
  if (verdict === "mismatch") problems.push({ code: "checksum", message: "The file's checksum does not match its content: it was damaged or edited without updating it (remove the checksum member after a hand edit)." });
  else if (verdict === "malformed") problems.push({ code: "checksum", message: 'The checksum member is malformed: it must be the first member, "sha256:" followed by 64 lower-case hex digits.' });
  if (syntaxError) {
    problems.push({ code: "json", message: describeSyntaxError(text) });
    return { problems, identity };
  }
  if (!isObject(document)) {
    problems.push({ code: "format", message: "The file must hold a JSON object." });
    return { problems, identity };
  }
  if ("checksum" in document && verdict === "absent") {
    problems.push({ code: "checksum", message: "The checksum member must come first, exactly as the writer puts it." });
  }
  for (const key of Object.keys(document)) {
    if (!TOP_LEVEL.has(key)) problems.push({ code: "format", message: `Unknown top-level member ${JSON.stringify(key)}.` });
  }
  if (document.format !== FORMAT) {
    problems.push({ code: "format", message: `The format member must be ${JSON.stringify(FORMAT)}, found ${document.format === undefined ? "none" : JSON.stringify(document.format)}.` });
  }
  const tables = document.tables;
  if (!isObject(tables)) {
    problems.push({ code: "format", message: 'The "tables" member must be an object of tables by name.' });
    return { problems, identity };
  }
  const loaded: LoadedTable[] = [];
  for (const name of Object.keys(tables)) {
    const table = tables[name];
    if (!isObject(table) || !Array.isArray(table.rows) || !("schema" in table)) {
      problems.push({ table: name, code: "format", message: 'A table must be an object with "schema" and "rows" (an array).' });
      continue;
    }
    for (const key of Object.keys(table)) {
      if (key !== "schema" && key !== "rows") problems.push({ table: name, code: "format", message: `Unknown table member ${JSON.stringify(key)}.` });
    }
    loaded.push({ name, schema: table.schema, rows: table.rows as unknown[] });
  }
  return { tables: loaded, problems, identity };
}

/**
 * UTF-8 text without a BOM. A file of ASCII only (what the writer produces
 * for ASCII data) decodes as latin1, a plain copy several times cheaper
 * than UTF-8 decoding and the same text.
 */
function decode(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString("latin1");
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where and why the text is not JSON, as "line 3, column 14: expected ',' or '}' but found ']'". */
function describeSyntaxError(text: string): string {
  let problem: ReturnType<typeof findSyntaxError>;
  try {
    problem = findSyntaxError(text);
  } catch {
    problem = null; // never let the diagnosis of a bad file fail the read
  }
  if (problem === null) return "Invalid JSON.";
  return `Invalid JSON at line ${problem.line}, column ${problem.column}: ${problem.reason}.`;
}
