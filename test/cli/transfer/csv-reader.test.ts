/**
 * The CSV reader that makes values straight from a file's bytes
 * (`csv-reader.ts`) agrees with the way it replaced — papaparse's fields
 * given to each column's converter — on generated files of awkward fields
 * (numbers at their limits, signs, leading zeros, booleans in any case,
 * quotes, line breaks, non-ASCII text, all three line endings, a
 * byte-order mark), read in reads as small as one byte, so every field
 * and line break is cut by a read somewhere. It refuses what papaparse
 * guessed at, and batches flush where the sink says.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Papa from "papaparse";
import type { ColumnType, Value } from "../../../src/commands/types.js";
import { StoreError } from "../../../src/errors.js";
import { readCsv, readCsvHeader } from "../../../src/cli/transfer/csv-reader.js";
import { fieldConverter } from "../../../src/cli/transfer/values.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-csv-reader-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function write(text: string): string {
  const file = path.join(dir, `f${files++}.csv`);
  writeFileSync(file, text);
  return file;
}

/** A value with its type and sign shown, so -0 is not 0 and "1" is not 1. */
function shown(value: Value): string {
  return typeof value === "number" ? `n:${Object.is(value, -0) ? "-0" : value}` : `${typeof value}:${String(value)}`;
}

interface Read {
  readonly header: readonly string[] | undefined;
  readonly records: string[][];
  readonly flushes: number;
}

/** Reads `file` with columns of `types`, a batch every `batch` records, a new list for the values every three (as a batch's statements have). */
async function read(file: string, types: readonly ColumnType[], readSize?: number, batch = Infinity): Promise<Read> {
  const records: string[][] = [];
  const lists: Value[][] = [];
  let values: Value[] = [];
  let width = 0;
  let pending = 0;
  let flushes = 0;
  const take = () => {
    for (const list of lists) assert.is(list.length, 3 * width, "a list handed over takes no more values");
    for (const list of [...lists.splice(0), values]) for (let i = 0; i < list.length; i += width) records.push(list.slice(i, i + width).map(shown));
    values = [];
  };
  const header = await readCsv(
    file,
    {
      header: (names) => ((width = names.length), types.slice(0, width)),
      values: () => values,
      endRecord: () => {
        if (++pending % 3 === 0) {
          lists.push(values);
          values = [];
        }
        return pending >= batch;
      },
      flush: async () => {
        flushes++;
        pending = 0;
        take();
      },
    },
    undefined,
    readSize,
  );
  take();
  return { header, records, flushes };
}

/** What the reader before did: papaparse's records (header first; a blank record skipped when there are several columns), each field given to its column's converter. */
function reference(text: string, types: readonly ColumnType[]): { header: string[]; records: string[][] } {
  const body = text.replace(/^\ufeff/, "");
  const records = Papa.parse<string[]>(body, { delimiter: "," }).data;
  // Parsing a whole text, papaparse ends with an empty record after a final line break; reading a stream it did not.
  if (/[\r\n]$/.test(body) && records.length > 1 && records[records.length - 1]!.length === 1 && records[records.length - 1]![0] === "") records.pop();
  const header = records[0]!;
  const converters = types.map(fieldConverter);
  const rows = records
    .slice(1)
    .filter((record) => !(header.length > 1 && record.length === 1 && record[0] === ""))
    .map((record) => record.map((field, i) => shown(converters[i]!(field))));
  return { header, records: rows };
}

function field(text: string): string {
  return /[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(rows: readonly (readonly string[])[], newline: string, bom: boolean, trailing: boolean, quoteAll: boolean): string {
  const body = rows.map((row) => row.map((f) => (quoteAll && f !== "" ? `"${f.replaceAll('"', '""')}"` : field(f))).join(",")).join(newline);
  return (bom ? "\ufeff" : "") + body + (trailing ? newline : "");
}

test("fields at the edges of each shape become what the column's converter makes of them", async () => {
  const cases: [ColumnType, string][] = [
    ["integer", "9007199254740991"],
    ["integer", "9007199254740992"],
    ["integer", "123456789012345"],
    ["integer", "1234567890123456"],
    ["integer", "-0"],
    ["integer", "+7"],
    ["integer", "007"],
    ["integer", "1.0"],
    ["integer", "-"],
    ["integer", " 1"],
    ["real", "0.1"],
    ["real", "-0.0"],
    ["real", "1."],
    ["real", ".5"],
    ["real", "."],
    ["real", "+2.5"],
    ["real", "123456789.012345"],
    ["real", "0.30000000000000004"],
    ["real", "1e6"],
    ["real", "1e400"],
    ["real", "9007199254740993"],
    ["boolean", "true"],
    ["boolean", "FALSE"],
    ["boolean", "TrUe"],
    ["boolean", "yes"],
    ["boolean", "falsey"],
    ["text", "é 日本語"],
    ["text", "0"],
  ];
  for (const [type, value] of cases) {
    const converted = shown(fieldConverter(type)(value));
    assert.equal((await read(write(`a\n${value}\n`), [type])).records, [[converted]], `${type} ${value}`);
    assert.equal((await read(write(`a\r\n"${value}"\r\n`), [type], 3)).records, [[converted]], `"${value}" in reads of 3 bytes`);
  }
});

test("agrees with papaparse and the converters on generated files, whatever the reads", async () => {
  const chars = ["0", "1", "9", "-", "+", ".", "e", "E", "t", "r", "u", "f", "a", "l", "s", "T", "F", ",", '"', "\n", "\r", " ", "x", "é", "日"];
  const fieldText = fc.oneof(
    fc.constantFrom("", "0", "-0", "007", "+5", "42", "-17", "3.25", ".5", "5.", "1e5", "true", "FALSE", "9007199254740993", "0.1234567890123456", "12345678901234567890"),
    fc.array(fc.constantFrom(...chars), { maxLength: 6 }).map((c) => c.join("")),
  );
  const type = fc.constantFrom<ColumnType>("integer", "real", "boolean", "text");
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }).chain((width) =>
        fc.record({
          rows: fc.array(fc.array(fieldText, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }),
          types: fc.array(type, { minLength: width, maxLength: width }),
          newline: fc.constantFrom("\n", "\r\n", "\r"),
          bom: fc.boolean(),
          trailing: fc.boolean(),
          quoteAll: fc.boolean(),
          readSize: fc.integer({ min: 1, max: 16 }),
        }),
      ),
      async ({ rows, types, newline, bom, trailing, quoteAll, readSize }) => {
        const header = rows[0]!.map((_, i) => `c${i}`);
        const text = csv([header, ...rows], newline, bom, trailing, quoteAll);
        const expected = reference(text, types);
        const got = await read(write(text), types, readSize);
        assert.equal(got.header, expected.header, JSON.stringify(text));
        assert.equal(got.records, expected.records, JSON.stringify(text));
      },
    ),
    { numRuns: 400 },
  );
});

test("a batch is flushed whenever the sink says it is full, and a record cut by a read is read again whole", async () => {
  const lines = Array.from({ length: 250 }, (_, i) => `${i},"n ""${i}""\nx",${i / 4}`);
  const file = write("id,name,r\n" + lines.join("\n") + "\n");
  const got = await read(file, ["integer", "text", "real"], 7, 100);
  assert.is(got.flushes, 2);
  assert.is(got.records.length, 250);
  assert.equal(got.records[249], ["n:249", `string:n "249"\nx`, "n:62.25"]);
  assert.equal(await readCsvHeader(file), ["id", "name", "r"]);
  assert.is(await readCsvHeader(write("")), undefined);
  assert.is(await readCsvHeader(write("\n\n")), undefined);
});

test("one column: a blank line is a NULL; several columns: no record", async () => {
  assert.equal((await read(write("a\n1\n\n2\n"), ["integer"])).records, [["n:1"], ["object:null"], ["n:2"]]);
  assert.equal((await read(write("a,b\n1,2\n\n3,4\n"), ["integer", "integer"])).records, [["n:1", "n:2"], ["n:3", "n:4"]]);
});

test("refuses a quoted field never closed or with text after its closing quote, and a record of the wrong width, naming the record", async () => {
  const refusal = async (text: string): Promise<StoreError> => {
    try {
      await read(write(text), ["text", "text"], 4);
    } catch (error) {
      if (error instanceof StoreError) return error;
      throw error;
    }
    throw new Error(`read ${JSON.stringify(text)}`);
  };
  let error = await refusal('a,b\n1,2\n"3"x,4\n');
  assert.is(error.code, "invalid_request");
  assert.match(error.message, /^Record 2 of the CSV file has a quoted field with text after its closing quote/);
  error = await refusal('a,b\n1,"2');
  assert.match(error.message, /^Record 1 of the CSV file has a quoted field that is never closed/);
  error = await refusal("a,b\n1,2\n3\n");
  assert.is(error.code, "validation_failed");
  assert.match(error.message, /^Record 2 has 1 fields; the header has 2\./);
  error = await refusal("a,b\n1,2,3\n");
  assert.match(error.message, /^Record 1 has 3 fields; the header has 2\./);
});

test.run();
