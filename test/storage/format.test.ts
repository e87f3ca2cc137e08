import { test } from "uvu";
import { createHash } from "node:crypto";
import * as assert from "uvu/assert";
import { tableSnapshot } from "../../src/catalog/snapshot.js";
import type { TableSnapshot } from "../../src/catalog/types.js";
import type { TableSchema } from "../../src/commands/types.js";
import { readStore, StoreWriter } from "../../src/storage/format.js";
import { pieceText } from "../../src/storage/row-lines.js";
import { identityOfSealed, sumDocument } from "../../src/storage/checksum.js";
import { writeInSlices } from "../../src/storage/document-slices.js";

const userSchema: TableSchema = { name: "users", columns: { id: "text", name: "text" }, required: ["id"], primary_key: { columns: ["id"] } };
const users: TableSnapshot = tableSnapshot(userSchema, [
  ["1", "Ada"],
  ["2", null],
]);

const orders: TableSnapshot = tableSnapshot(
  {
    name: "orders",
    // Declaration order, not alphabetical: the writer must keep it.
    columns: { zeta: "integer", alpha: "text" },
    computed: { z: { type: "literal", value: 1 }, a: { type: "literal", value: 2 } },
    comment: "c",
  },
  [[1, 'quote " and \\ and \n newline']],
);

function body(bytes: Buffer): string {
  return bytes.toString("utf8").replace(/sha256:[0-9a-f]{64}/, "sha256:<digits>");
}

test("writes the exact layout of CONTRACT §2", () => {
  const text = body(new StoreWriter().write([users]));
  assert.is(
    text,
    '{"checksum":"sha256:<digits>","format":"storedb/1","tables":{\n' +
      '"users":{"schema":{"columns":{"id":"text","name":"text"},"name":"users","primary_key":{"columns":["id"]},"required":["id"]},\n' +
      '"rows":[\n' +
      '{"id":"1","name":"Ada"},\n' +
      '{"id":"2","name":null}\n' +
      "]}}}\n",
  );
});

test("sorts schema members at the top level only, keeps columns and computed in declaration order", () => {
  const text = body(new StoreWriter().write([orders]));
  assert.ok(text.includes('{"columns":{"zeta":"integer","alpha":"text"},"comment":"c","computed":{"z":{"type":"literal","value":1},"a":{"type":"literal","value":2}},"name":"orders"}'), text);
  assert.ok(text.includes('{"zeta":1,"alpha":"quote \\" and \\\\ and \\n newline"}'), text);
});

test("tables in the given (name) order, empty tables and an empty database", () => {
  const empty: TableSnapshot = tableSnapshot(userSchema, []);
  const text = body(new StoreWriter().write([orders, empty]));
  assert.ok(text.indexOf('"orders":') < text.indexOf('"users":'));
  assert.ok(text.endsWith('"rows":[\n]}}}\n'), text);
  assert.is(body(new StoreWriter().write([])), '{"checksum":"sha256:<digits>","format":"storedb/1","tables":{}}\n');
});

test("writing is deterministic", () => {
  const writer = new StoreWriter();
  const first = writer.write([orders, users]);
  const again = writer.write([orders, users]);
  assert.ok(first.equals(again));
  assert.ok(first.equals(new StoreWriter().write([orders, users])));
});

test("a text value holding the row separator `},{` still gives one row per line", async () => {
  const tricky: TableSnapshot = tableSnapshot(userSchema, [["1", "a},{b"], ["2", '"},{"'], ["3", null]]);
  const text = new StoreWriter().write([tricky]).toString("utf8");
  assert.ok(text.includes('{"id":"1","name":"a},{b"},\n{"id":"2","name":"\\"},{\\""},\n{"id":"3","name":null}\n'), text);
  assert.equal((await readStore(Buffer.from(text))).tables?.[0]?.rows, [
    { id: "1", name: "a},{b" },
    { id: "2", name: '"},{"' },
    { id: "3", name: null },
  ]);
});

test("round trip: what the writer writes, the reader reads back", async () => {
  const read = await readStore(new StoreWriter().write([orders, users]));
  assert.equal(read.problems, []);
  assert.equal(read.tables?.map((t) => t.name), ["orders", "users"]);
  assert.equal(read.tables?.[1]?.rows, [
    { id: "1", name: "Ada" },
    { id: "2", name: null },
  ]);
  assert.equal(read.tables?.[0]?.schema, orders.schema);
});

test("every single-bit flip is detected", async () => {
  const bytes = new StoreWriter().write([users, orders].sort((a, b) => a.schema.name.localeCompare(b.schema.name)));
  let undetected = 0;
  for (let byte = 0; byte < bytes.length; byte++) {
    for (let bit = 0; bit < 8; bit++) {
      const damaged = Buffer.from(bytes);
      damaged[byte]! ^= 1 << bit;
      const read = await readStore(damaged);
      if (read.problems.length === 0) undetected += 1;
    }
  }
  assert.is(undetected, 0);
  assert.is(sumDocument(bytes).verdict, "valid");
});

test("a checksum's verdicts, with the bytes left as they were", () => {
  const good = new StoreWriter().write([users]);
  const files = [good, Buffer.from(good.toString("latin1").replace('"Ada"', '"Ado"'), "latin1"), Buffer.from('{"checksum":"sha256:xyz","format":"storedb/1","tables":{}}'), Buffer.from('{"format":"storedb/1","tables":{}}')];
  const copies = files.map((bytes) => Buffer.from(bytes));
  assert.equal(files.map((bytes) => sumDocument(bytes).verdict), ["valid", "mismatch", "malformed", "absent"]);
  files.forEach((bytes, i) => assert.ok(bytes.equals(copies[i]!), `file ${i} unchanged`));
});

test("a document's identity: its checksum when it has one, else the SHA-256 of its bytes", () => {
  const sealed = new StoreWriter().write([users]);
  assert.is(sumDocument(sealed).identity, "sha256:" + sealed.toString("latin1", 20, 84));
  const hand = Buffer.from('{"format":"storedb/1","tables":{}}');
  assert.is(sumDocument(hand).identity, "sha256:" + createHash("sha256").update(hand).digest("hex"));
  // One changed byte is another document, with or without a checksum.
  assert.is.not(sumDocument(Buffer.from('{"format":"storedb/1","tables":{} }')).identity, sumDocument(hand).identity);
  assert.is(sumDocument(Buffer.from('{"checksum":"sha256:xyz","format":"storedb/1","tables":{}}')).identity, undefined);
});

test("written in pieces of a few rows, the document is the same text", () => {
  const many: TableSnapshot = tableSnapshot(userSchema, Array.from({ length: 1000 }, (_, i) => [String(i), i % 3 === 0 ? null : `n${i}`]));
  const tables = [many, orders].sort((a, b) => a.schema.name.localeCompare(b.schema.name));
  const whole = new StoreWriter().write(tables);
  for (const size of [1, 7, 256, 5000]) {
    const writer = new StoreWriter();
    const text = [...writer.pieces(tables, size)].map(pieceText).join("");
    const bytes = Buffer.from(text);
    bytes.write(whole.toString("latin1", 20, 84), 20, "latin1");
    assert.ok(bytes.equals(whole), `pieces of ${size}`);
  }
});

test("written in slices (remembering lines or not), the document is the same bytes, across chunks and with a piece larger than one", async () => {
  const text = (i: number): string => (i === 700 ? "漢字 😀 ".repeat(80_000) : i % 5 === 0 ? `é ${i}` : `n${i}`);
  const many: TableSnapshot = tableSnapshot(userSchema, Array.from({ length: 30_000 }, (_, i) => [String(i), i % 3 === 0 ? null : text(i)]));
  const tables = [many, orders].sort((a, b) => a.schema.name.localeCompare(b.schema.name));
  const whole = new StoreWriter().write(tables);
  assert.ok(whole.length > 1 << 20, "many chunks");
  for (const remember of [true, false]) {
    // A file written at offsets, as the checkpoint's temp file is (chunk 0 last).
    const bytes = Buffer.alloc(whole.length);
    let written = 0;
    const sink = {
      write: async (data: Uint8Array, position: number) => {
        bytes.set(data, position);
        written += data.length;
      },
    };
    const document = await writeInSlices(new StoreWriter(remember), tables, { budgetMs: 1, chunkBytes: 64 * 1024, busyChunkBytes: 64 * 1024 }, sink);
    assert.is(document.bytes, whole.length);
    assert.is(written, whole.length, "every byte written once");
    assert.ok(bytes.equals(whole), `remember ${remember}`);
    assert.is(document.identity, identityOfSealed(whole));
  }
});

test("written in slices, chunks are the busy size while the sink is busy and the full size while it is not, the bytes the same", async () => {
  const many: TableSnapshot = tableSnapshot(userSchema, Array.from({ length: 30_000 }, (_, i) => [String(i), `name ${i}`]));
  const whole = new StoreWriter().write([many]);
  for (const busy of [true, false]) {
    const bytes = Buffer.alloc(whole.length);
    const sizes: number[] = [];
    const sink = {
      write: async (data: Uint8Array, position: number) => {
        bytes.set(data, position);
        if (position > 0) sizes.push(data.length);
      },
      busy: () => busy,
    };
    await writeInSlices(new StoreWriter(), [many], { budgetMs: 1, chunkBytes: 256 * 1024, busyChunkBytes: 16 * 1024 }, sink);
    assert.ok(bytes.equals(whole), `busy ${busy}`);
    const largest = Math.max(...sizes);
    if (busy) assert.ok(largest <= 16 * 1024, `busy chunks of at most 16 KB, got ${largest}`);
    else assert.ok(largest > 128 * 1024 && largest <= 256 * 1024, `quiet chunks up to 256 KB, got ${largest}`);
  }
});

test("a large file: sound, then one byte damaged", async () => {
  const big: TableSnapshot = tableSnapshot(userSchema, Array.from({ length: 20_000 }, (_, i) => [String(i), "x".repeat(60)]));
  const bytes = new StoreWriter().write([big]);
  assert.equal((await readStore(bytes)).problems, []);
  bytes[bytes.length - 40] = "y".charCodeAt(0);
  assert.equal((await readStore(bytes)).problems.map((p) => p.code), ["checksum"]);
});

test("non-ASCII text and a leading BOM read back exactly", async () => {
  const text: TableSnapshot = tableSnapshot(userSchema, [["1", "Zoë ✓ 😀"]]);
  const read = await readStore(new StoreWriter().write([text]));
  assert.equal(read.problems, []);
  assert.equal(read.tables?.[0]?.rows, [{ id: "1", name: "Zoë ✓ 😀" }]);
  const bom = await readStore(Buffer.from('\ufeff{"format":"storedb/1","tables":{"t":{"schema":{"name":"t","columns":{"a":"text"}},"rows":[{"a":"é"}]}}}'));
  assert.equal(bom.problems, []);
  assert.equal(bom.tables?.[0]?.rows, [{ a: "é" }]);
});

test("a file without a checksum is accepted (hand-written)", async () => {
  const read = await readStore(Buffer.from('{"format":"storedb/1","tables":{"t":{"schema":{"name":"t","columns":{"a":"text"}},"rows":[{"a":"x"}]}}}'));
  assert.equal(read.problems, []);
  assert.is(read.tables?.length, 1);
});

test("checksum problems: mismatch, malformed, misplaced", async () => {
  const good = new StoreWriter().write([users]).toString("utf8");
  const cases: [string, string][] = [
    ["mismatch", good.replace('"Ada"', '"Ado"')],
    ["upper-case digits", good.replace(/sha256:([0-9a-f]{64})/, (_, d: string) => "sha256:" + d.toUpperCase())],
    ["other algorithm", good.replace("sha256:", "sha512:")],
    ["short", good.replace(/sha256:[0-9a-f]{64}/, "sha256:abc")],
    ["misplaced", '{"format":"storedb/1","checksum":"sha256:' + "0".repeat(64) + '","tables":{}}'],
    ["spaced", '{ "checksum":"sha256:' + "0".repeat(64) + '","format":"storedb/1","tables":{}}'],
  ];
  for (const [label, text] of cases) {
    const codes = (await readStore(Buffer.from(text))).problems.map((p) => p.code);
    assert.ok(codes.includes("checksum"), `${label}: ${codes.join(",")}`);
  }
});

test("format problems", async () => {
  const cases: [string, string][] = [
    ["wrong format", '{"format":"storedb/2","tables":{}}'],
    ["no format", '{"tables":{}}'],
    ["not an object", "[]"],
    ["tables not an object", '{"format":"storedb/1","tables":[]}'],
    ["table without rows", '{"format":"storedb/1","tables":{"t":{"schema":{}}}}'],
    ["rows not an array", '{"format":"storedb/1","tables":{"t":{"schema":{},"rows":{}}}}'],
    ["unknown member", '{"format":"storedb/1","tables":{},"extra":1}'],
    ["unknown table member", '{"format":"storedb/1","tables":{"t":{"schema":{},"rows":[],"x":1}}}'],
  ];
  for (const [label, text] of cases) {
    const problems = (await readStore(Buffer.from(text))).problems;
    assert.ok(problems.some((p) => p.code === "format"), `${label}: ${JSON.stringify(problems)}`);
  }
});

test("JSON syntax errors name line and column", async () => {
  const read = await readStore(Buffer.from('{"format":"storedb/1","tables":{\n"t":{"schema":{},\n"rows":[\n{"a":1},\n{"a":2,}\n]}}}'));
  assert.is(read.tables, undefined);
  assert.is(read.problems.length, 1);
  assert.is(read.problems[0]?.code, "json");
  assert.match(read.problems[0]!.message, /line 5, column 8/);
});

test.run();
