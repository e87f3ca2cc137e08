/**
 * The CSV type inference that reads a file's bytes (`csv-types.ts`) agrees
 * with classifying every field papaparse finds: on generated files of
 * awkward fields (numbers at their limits, quotes, line breaks, both line
 * endings, a byte-order mark), read in reads as small as one byte, so every
 * field and line break is cut by a read somewhere.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Papa from "papaparse";
import type { ColumnType } from "../../../src/commands/types.js";
import { inferCsvTypes } from "../../../src/cli/transfer/csv-types.js";
import { classify, join, type Seen } from "../../../src/cli/transfer/values.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-csv-types-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function sniff(text: string, width: number, readSize?: number): Promise<ColumnType[]> {
  const file = path.join(dir, `f${files++}.csv`);
  writeFileSync(file, text);
  return inferCsvTypes(file, width, readSize);
}

/** What classifying papaparse's fields says (the reader's rules: header first, blank records skipped when there are several columns). */
function reference(text: string): { width: number; types: ColumnType[] } {
  const records = Papa.parse<string[]>(text.replace(/^\ufeff/, "")).data;
  const header = records[0] ?? [""];
  const width = header.length;
  const seen: Seen[] = new Array<Seen>(width).fill(undefined);
  for (const record of records.slice(1)) {
    if (width > 1 && record.length === 1 && record[0] === "") continue;
    for (let i = 0; i < width; i++) {
      const field = record[i];
      if (field !== undefined && field !== "") seen[i] = join(seen[i], classify(field));
    }
  }
  return { width, types: seen.map((t) => t ?? "text") };
}

function field(text: string): string {
  return /[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(rows: readonly (readonly string[])[], newline: string, bom: boolean, trailing: boolean, quoteAll: boolean): string {
  const body = rows.map((row) => row.map((f) => (quoteAll && f !== "" ? `"${f.replaceAll('"', '""')}"` : field(f))).join(",")).join(newline);
  return (bom ? "\ufeff" : "") + body + (trailing ? newline : "");
}

test("fields at the edges of each shape", async () => {
  const cases: [string, ColumnType][] = [
    ["9007199254740991", "integer"],
    ["-9007199254740991", "integer"],
    ["9007199254740992", "text"],
    ["123456789012345", "integer"],
    ["-0", "integer"],
    ["007", "text"],
    ["0.5", "real"],
    ["1.", "text"],
    [".5", "text"],
    ["+1", "text"],
    ["1e6", "real"],
    ["1E+06", "real"],
    ["1e400", "text"],
    ["0e999", "real"],
    ["1" + "0".repeat(400) + ".5", "text"],
    ["true", "boolean"],
    ["True", "text"],
    ["falsey", "text"],
    ["1 ", "text"],
  ];
  for (const [value, type] of cases) {
    assert.equal(await sniff(`a\n${value}\n`, 1), [type], value);
    assert.equal(await sniff(`a\r\n"${value}"\r\n`, 1, 3), [type], `"${value}" in reads of 3 bytes`);
  }
  assert.equal(await sniff('a,b,c\n1,"x""",2.5\n\n"2",,3\n', 3), ["integer", "text", "real"]);
  assert.equal(await sniff('a,b\n"1"x,2\n', 2), ["text", "integer"], "text after a closing quote");
  assert.equal(await sniff('a,b\n1,"2', 2), ["integer", "text"], "a quote never closed");
  assert.equal(await sniff("a,b\r1,2\r3,4", 2), ["integer", "integer"], "CR line ends");
});

test("agrees with papaparse and classify on generated files, whatever the reads", async () => {
  const chars = ["0", "1", "9", "-", "+", ".", "e", "E", "t", "r", "u", "f", "a", "l", "s", ",", '"', "\n", "\r", " ", "x", "é"];
  const fieldText = fc.oneof(
    fc.constantFrom("", "0", "-0", "42", "-17", "3.25", "1e5", "true", "false", "9007199254740993", "12345678901234567890"),
    fc.array(fc.constantFrom(...chars), { maxLength: 6 }).map((c) => c.join("")),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }).chain((width) =>
        fc.record({
          rows: fc.array(fc.array(fieldText, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 }),
          newline: fc.constantFrom("\n", "\r\n", "\r"),
          bom: fc.boolean(),
          trailing: fc.boolean(),
          quoteAll: fc.boolean(),
          readSize: fc.integer({ min: 1, max: 16 }),
        }),
      ),
      async ({ rows, newline, bom, trailing, quoteAll, readSize }) => {
        const header = rows[0]!.map((_, i) => `c${i}`);
        const text = csv([header, ...rows], newline, bom, trailing, quoteAll);
        const expected = reference(text);
        assert.equal(await sniff(text, expected.width, readSize), expected.types, JSON.stringify(text));
      },
    ),
    { numRuns: 300 },
  );
});

test.run();
