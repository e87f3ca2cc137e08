/**
 * `readTableNames`: the keys of a document's `tables` object from a
 * streaming scan, for writer-made files and hand-written ones, at every chunk
 * boundary; `null` for structures that break.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DataDirectory } from "../../src/storage/data-directory.js";
import { readTableNames } from "../../src/storage/table-names.js";
import { removeDir, scratchDir } from "./helpers/scratch.js";

let dir = "";
test.before.each(() => {
  dir = scratchDir("table-names");
});
test.after.each(() => removeDir(dir));

const CHUNKS = [1, 2, 3, 7, 64, 65536];

async function namesAtEveryChunkSize(file: string): Promise<string[] | null> {
  const results = await Promise.all(CHUNKS.map((size) => readTableNames(file, size)));
  for (const result of results) assert.equal(result, results[0]);
  return results[0]!;
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

test("a writer-made document: its tables, with rows whose text looks like structure", async () => {
  const data = await DataDirectory.open(dir);
  const tricky = ['"},{"tables":{"fake":{', "\\", '\\"', "]]]}}}", "é\u2028\u0000", "{{{[[["];
  for (const table of ["users", "orders", "a_b", "Zeta"]) {
    await data.execute("shop", { kind: "create-table", schema: { name: table, columns: { id: "integer", note: "text" }, primary_key: { columns: ["id"] } } });
    await data.execute("shop", { kind: "insert", table, rows: tricky.map((note, id) => ({ id, note })) });
  }
  await data.close();
  assert.equal(await namesAtEveryChunkSize(path.join(dir, "shop.store")), ["Zeta", "a_b", "orders", "users"]);
});

test("hand-written layouts: pretty-printed, escaped keys, tables first, look-alike keys deeper", async () => {
  const doc = {
    tables: {
      users: { schema: { name: "users", columns: { id: "text" }, tables: { not: 1 } }, rows: [{ id: "x" }] },
      empty: { schema: { name: "empty", columns: { id: "text" } }, rows: [] },
    },
    format: "storedb/1",
  };
  assert.equal(await namesAtEveryChunkSize(write("pretty.store", JSON.stringify(doc, null, 2))), ["empty", "users"]);
  assert.equal(await namesAtEveryChunkSize(write("escaped.store", '{"t\\u0061bles" : { "us\\u0065rs" : {"rows":[]} , "\\"q\\"":{}}}')), ['"q"', "users"]);
  assert.equal(await namesAtEveryChunkSize(write("none.store", '{"format":"storedb/1","tables":{}}')), []);
  assert.equal(await namesAtEveryChunkSize(write("nested.store", '{"meta":{"tables":{"no":{}}},"tables":{"yes":{"tables":{"no2":{}}}}}')), ["yes"]);
});

test("structures that break have no names", async () => {
  const broken = [
    "",
    "   ",
    '{"tables":{"users":{}}',
    '{"tables":{"users":{}}}}',
    '{"tables":{"users":{]}}',
    '{"tables":{"us',
    '{"tables":{"users":{"rows":["unterminated}}}',
    '[{"tables":{}}]',
    '{"tables":{}}{"tables":{}}',
    '{"format":"storedb/1"}',
    '{"tables":["users"]}',
    '{"tables":{"bad\\x":{}}}',
  ];
  for (const [i, text] of broken.entries()) assert.is(await namesAtEveryChunkSize(write(`b${i}.store`, text)), null, text);
});

test.run();
