/**
 * What a database holds on disk, read by this module alone — not by
 * storedb's loader — so an audit of acknowledged writes does not trust the
 * code it audits: the `.store` document, then the records of its journal
 * (`<name>.store-journal`) after the point the document holds, when the
 * journal continues this document (its header or a checkpoint marker names
 * the document's checksum, or for a file without one the SHA-256 of its
 * bytes). Lines are checked by their CRC-32; a torn last line is ignored, a
 * bad line before a good one throws.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";

type Values = unknown[];
interface Entry {
  readonly journal?: string;
  readonly document?: string;
  readonly seq: number;
  readonly changes?: {
    kind: string;
    table?: string;
    position?: number;
    row?: Values;
    // An insert's or a write's run of rows, or an alter-table's reshape of every row.
    rows?: Values[] | { kind: "add"; value: unknown } | { kind: "drop"; position: number };
    // A write run: each row's position, and the first insert's (the row count then).
    positions?: number[];
    from?: number;
    after?: Values;
    schema?: { name: string; columns: Record<string, string> };
  }[];
  readonly checkpoint?: string;
  readonly through?: number;
}

function identity(document: Buffer): string {
  const prefix = '{"checksum":"sha256:';
  if (document.toString("latin1", 0, prefix.length) === prefix) return "sha256:" + document.toString("latin1", prefix.length, prefix.length + 64);
  return "sha256:" + createHash("sha256").update(document).digest("hex");
}

function entries(journal: Buffer): Entry[] {
  const out: Entry[] = [];
  let bad = false;
  for (let start = 0; start < journal.length; ) {
    const end = journal.indexOf(0x0a, start);
    if (end === -1) break; // an unfinished last line
    const line = journal.subarray(start, end);
    const good = line.length > 9 && Number.parseInt(line.toString("latin1", 0, 8), 16) === crc32(line.subarray(9));
    if (good && bad) throw new Error("a damaged journal line before a good one");
    if (!good) bad = true;
    else out.push(JSON.parse(line.toString("utf8", 9)) as Entry);
    start = end + 1;
  }
  return out;
}

/**
 * The document and its journal as one state: when the document changed
 * while they were read (a checkpoint renamed a new one in, then reset the
 * journal), read both again.
 */
function readBoth(file: string): [Buffer, Buffer | undefined] {
  for (;;) {
    const before = statSync(file, { bigint: true });
    const document = readFileSync(file);
    const journal = existsSync(`${file}-journal`) ? readFileSync(`${file}-journal`) : undefined;
    const after = statSync(file, { bigint: true });
    if (before.ino === after.ino && before.mtimeNs === after.mtimeNs && before.size === after.size) return [document, journal];
  }
}

/** Every table of database `database` of `dataDir`, by name, with its rows as objects keyed by column. */
export function databaseOnDisk(dataDir: string, database: string): Map<string, Record<string, unknown>[]> {
  const file = path.join(dataDir, `${database}.store`);
  const [document, journalBytes] = readBoth(file);
  const parsed = JSON.parse(document.toString("utf8")) as { tables: Record<string, { schema: { columns: Record<string, string> }; rows: Record<string, unknown>[] }> };
  const tables = new Map<string, { columns: string[]; rows: Values[] }>();
  for (const [name, stored] of Object.entries(parsed.tables)) {
    const columns = Object.keys(stored.schema.columns);
    tables.set(name, { columns, rows: stored.rows.map((row) => columns.map((column) => row[column] ?? null)) });
  }
  const journal = journalBytes === undefined ? [] : entries(journalBytes);
  const me = identity(document);
  let base: number | undefined = journal[0]?.document === me ? journal[0].seq : undefined;
  for (const entry of journal) if (entry.checkpoint === me) base = entry.through;
  for (const entry of base === undefined ? [] : journal) {
    if (entry.seq <= base! || entry.changes === undefined) continue;
    for (const change of entry.changes) {
      if (change.kind === "create-table") tables.set(change.schema!.name, { columns: Object.keys(change.schema!.columns), rows: [] });
      else if (change.kind === "drop-table") tables.delete(change.table!);
      else if (change.kind === "alter-table") {
        const reshape = change.rows as { kind: "add"; value: unknown } | { kind: "drop"; position: number } | undefined;
        const rows = tables.get(change.table!)!.rows.map((row) =>
          reshape === undefined ? row : reshape.kind === "add" ? [...row, reshape.value] : row.filter((_, i) => i !== reshape.position),
        );
        tables.delete(change.table!);
        tables.set(change.schema!.name, { columns: Object.keys(change.schema!.columns), rows });
      } else {
        const rows = tables.get(change.table!)!.rows;
        const run = change.rows as Values[] | undefined;
        // A run of inserts at consecutive positions carries `rows`; a single insert, `row`.
        if (change.kind === "insert") rows.splice(change.position!, 0, ...(run ?? [change.row!]));
        else if (change.kind === "delete") rows.splice(change.position!, 1);
        else if (change.kind === "update") rows[change.position!] = change.after!;
        else if (change.kind === "write") {
          // Each row to its position: appended at the row count (from `from`, one more per insert), else replacing the row there.
          let count = change.from ?? -1;
          change.positions!.forEach((position, i) => {
            if (position === count) {
              rows.push(run![i]!);
              count++;
            } else rows[position] = run![i]!;
          });
        }
      }
    }
  }
  const out = new Map<string, Record<string, unknown>[]>();
  for (const name of [...tables.keys()].sort()) {
    const { columns, rows } = tables.get(name)!;
    out.set(name, rows.map((values) => Object.fromEntries(columns.map((column, i) => [column, values[i]]))));
  }
  return out;
}
