/**
 * Hostile `.store` files: a hand-written (checksum-less) file of the fixed
 * table, mutated at the value level (a wrong type, 2^53, 1e400, a duplicate
 * or null key, an unknown or `__proto__` key, deep nesting) or the text level
 * (truncated, a byte changed, a duplicate key), then written in place while
 * the server runs — as a person editing the file would.
 *
 * Property: the next command sees the new content, and
 * - `validate` answers 200 with a well-formed verdict, which for value-level
 *   mutations agrees with a reference check written here from CONTRACT §2–§3;
 * - a valid file is read back exactly (missing keys as NULL);
 * - an invalid file answers every other command with 500 `database_corrupt`
 *   and is left byte-for-byte untouched, writes included.
 */
import fc from "fast-check";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { COLUMNS, COLUMN_NAMES, ROWS, SCHEMA, TABLE, withComputed } from "./dataset.js";
import { problemViolations } from "./problem.js";
import type { ServerProcess } from "./server.js";

export const FILE_DB = "ff";
const ENTRY_CODES = new Set(["required", "type", "unknown_column", "duplicate_key", "unique", "foreign_key", "check", "computed_write", "json", "checksum", "format"]);

export interface FileCase {
  /** The file's text as written. */
  readonly text: string;
  /** The rows as this module's reference reads them, when it can judge the file; null when it cannot. */
  readonly expected: { readonly valid: boolean; readonly rows: readonly Record<string, unknown>[] } | null;
}

/** A value-level mutation: [row index, column or key, raw JSON text for the value]. */
type Edit = readonly [number, string, string];

const BAD_VALUES: Readonly<Record<string, readonly string[]>> = {
  integer: ['"1"', "1.5", "9007199254740992", "-9007199254740992", "1e400", "true", "[]", "{}", `${"[".repeat(300)}${"]".repeat(300)}`],
  real: ['"1"', "1e400", "-1e400", "true", "[1]", "{}"],
  text: ["1", "true", "[]", '{"a":1}', "null"],
  boolean: ['"true"', "1", "0", "[]"],
};

const GOOD_VALUES: Readonly<Record<string, readonly string[]>> = {
  integer: ["0", "-5", "9007199254740991", "null", "1.0", "-0"],
  real: ["0.5", "-0", "1e300", "null", "3", "1E2"],
  text: ['""', '"\\u0000"', '"\\ud83d\\ude00"', '"\\ud800"', "null", '"__proto__"'],
  boolean: ["true", "false", "null"],
};

function rowText(row: Record<string, string>): string {
  return `{${Object.entries(row)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(",")}}`;
}

function document(rows: readonly string[], schema = JSON.stringify(SCHEMA)): string {
  return `{"format":"storedb/1","tables":{\n${JSON.stringify(TABLE)}:{"schema":${schema},\n"rows":[\n${rows.join(",\n")}\n]}}}\n`;
}

/** The reference verdict for rows given as raw JSON member texts. */
function judge(rows: readonly Record<string, string>[]): FileCase["expected"] {
  const seen = new Set<unknown>();
  let valid = true;
  const out: Record<string, unknown>[] = [];
  for (const raw of rows) {
    const row: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(raw)) {
      const value: unknown = JSON.parse(text);
      if (!Object.prototype.hasOwnProperty.call(COLUMNS, key)) valid = false;
      else {
        const type = COLUMNS[key];
        const ok =
          value === null ||
          (type === "integer" && Number.isSafeInteger(value)) ||
          (type === "real" && typeof value === "number" && Number.isFinite(value)) ||
          (type === "text" && typeof value === "string") ||
          (type === "boolean" && typeof value === "boolean");
        if (!ok) valid = false;
      }
      Object.defineProperty(row, key, { value, enumerable: true, configurable: true, writable: true });
    }
    const id = Object.prototype.hasOwnProperty.call(row, "id") ? row.id : null;
    if (id === null || seen.has(id)) valid = false;
    seen.add(id);
    if (valid) out.push(withComputed(row as Record<string, string | number | boolean | null>));
  }
  return { valid, rows: out };
}

const baseRows = (): Record<string, string>[] => ROWS.slice(0, 6).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, JSON.stringify(v)])));

const valueEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc
    .tuple(fc.nat(5), fc.constantFrom(...COLUMN_NAMES), fc.boolean(), fc.nat())
    .map(([row, column, bad, pick]): Edit => {
      const pool = (bad ? BAD_VALUES : GOOD_VALUES)[COLUMNS[column]!]!;
      return [row, column, pool[pick % pool.length]!];
    }),
  fc.tuple(fc.nat(5), fc.constantFrom("__proto__", "constructor", "extra", "ID", "")).map(([row, key]): Edit => [row, key, key === "__proto__" ? '{"id":1}' : "1"]),
  fc.tuple(fc.nat(5), fc.nat(5)).map(([row, other]): Edit => [row, "id", String((other % 6) + 1)]),
  fc.nat(5).map((row): Edit => [row, "-drop", "id"]),
  fc.tuple(fc.nat(5), fc.constantFrom("n", "r", "s", "b")).map(([row, column]): Edit => [row, "-drop", column]),
);

const valueCase: fc.Arbitrary<FileCase> = fc.array(valueEdit, { minLength: 1, maxLength: 3 }).map((edits) => {
  const rows = baseRows();
  for (const [index, key, value] of edits) {
    const row = rows[index]!;
    if (key === "-drop") delete row[value];
    else Object.defineProperty(row, key, { value, enumerable: true, configurable: true, writable: true });
  }
  return { text: document(rows.map(rowText)), expected: judge(rows) };
});

const textCase: fc.Arbitrary<FileCase> = fc
  .tuple(fc.constantFrom("truncate", "byte", "dupkey", "format", "schema", "nesting", "bom", "trailing"), fc.nat(), fc.nat(255))
  .map(([kind, at, byte]): FileCase => {
    const good = document(baseRows().map(rowText));
    const cut = at % good.length;
    switch (kind) {
      case "truncate":
        return { text: good.slice(0, cut), expected: null };
      case "byte":
        return { text: good.slice(0, cut) + String.fromCharCode(byte) + good.slice(cut + 1), expected: null };
      case "dupkey":
        return { text: good.replace('{"id":1,', '{"id":1,"id":2,'), expected: null };
      case "format":
        return { text: good.replace('"storedb/1"', ['"storedb/2"', "1", "null", '""'][byte % 4]!), expected: { valid: false, rows: [] } };
      case "schema": {
        // A schema naming another table than its key: the contract does not say, so only consistency is checked.
        const schemas = ['{"name":"t"}', '{"name":"t","columns":{"id":"blob"}}', "[]", "null", '{"name":"u","columns":{"id":"integer"}}'];
        const pick = byte % schemas.length;
        return { text: document(baseRows().map(rowText), schemas[pick]), expected: pick === 4 ? null : { valid: false, rows: [] } };
      }
      case "nesting":
        return { text: good.replace('"rows":[', `"rows":[${"[".repeat(20_000 + byte)}${"]".repeat(20_000 + byte)},`), expected: { valid: false, rows: [] } };
      case "bom":
        return { text: `\ufeff${good}`, expected: null };
      case "trailing":
        return { text: `${good}${["{}", "x", "\u0000", "   \n"][byte % 4]}`, expected: null };
    }
    throw new Error(kind);
  });

export const fileCase: fc.Arbitrary<FileCase> = fc.oneof({ weight: 3, arbitrary: valueCase }, { weight: 1, arbitrary: textCase });

/** Writes the case in place and checks every command against it; returns violations. */
let edits = 0;

export async function checkFile(server: ServerProcess, input: FileCase): Promise<string[]> {
  const file = path.join(server.dataDir, `${FILE_DB}.store`);
  writeFileSync(file, input.text);
  // Each edit gets its own mtime: two same-size writes within one clock tick are indistinguishable by stat.
  edits += 1;
  utimesSync(file, new Date(), new Date(Date.UTC(2020, 0, 1) + edits * 1000));
  const bytes = readFileSync(file);
  const out: string[] = [];
  const run = (command: unknown) => server.command({ database: FILE_DB, command }, { timeoutMs: 15_000 });

  const validate = await run({ kind: "validate" });
  const verdict = validate.json as { kind?: string; valid?: unknown; errors?: unknown } | undefined;
  if (validate.status !== 200 || verdict?.kind !== "validation" || typeof verdict.valid !== "boolean" || !Array.isArray(verdict.errors)) {
    return [`validate answered ${validate.status} ${validate.text.slice(0, 300)}`];
  }
  const errors = verdict.errors as { code?: unknown; message?: unknown }[];
  for (const e of errors) if (!ENTRY_CODES.has(String(e.code)) || typeof e.message !== "string") out.push(`bad validation entry ${JSON.stringify(e)}`);
  if (verdict.valid === (errors.length > 0)) out.push(`valid ${verdict.valid} with ${errors.length} errors`);
  if (input.expected && input.expected.valid !== verdict.valid) out.push(`validate says valid=${verdict.valid}, the reference says ${input.expected.valid}: ${validate.text.slice(0, 400)}`);

  const select = await run({ kind: "select", table: TABLE, columns: "*" });
  const insert = await run({ kind: "insert", table: TABLE, rows: [{ id: 999 }] });
  if (verdict.valid) {
    if (select.status !== 200) out.push(`a valid file, but select answered ${select.status} ${select.text.slice(0, 200)}`);
    else if (input.expected && JSON.stringify((select.json as { rows: unknown }).rows) !== JSON.stringify(input.expected.rows)) {
      out.push(`a valid file read back differently\nexpected ${JSON.stringify(input.expected.rows)}\nactual   ${JSON.stringify((select.json as { rows: unknown }).rows)}`);
    }
  } else {
    for (const [what, reply] of [["select", select], ["insert", insert]] as const) {
      const v = problemViolations(reply, { status: 500, codes: ["database_corrupt"], dataDir: server.dataDir });
      if (v.length > 0) out.push(`${what} on an invalid file: ${v.join("; ")}`);
    }
    if (!readFileSync(file).equals(bytes)) out.push("an invalid file was changed");
  }
  if (!server.alive) out.push(`server died: ${server.log.slice(-1500)}`);
  return out.map((v) => `${v}\nfile: ${JSON.stringify(input.text.slice(0, 1500))}`);
}
