import { test } from "uvu";
import * as assert from "uvu/assert";
import { ColumnHeap } from "../../src/catalog/row-heap.js";
import type { StoredRows } from "../../src/catalog/types.js";
import type { Value } from "../../src/commands/types.js";
import { pieceText, RowLines } from "../../src/storage/row-lines.js";

const columns = ["id", "name", "n", "ok"];

/** A table's rows as the engine keeps them: values in one heap, a row a new id whenever it changes. */
class Rows {
  readonly heap = new ColumnHeap(["integer", "text", "real", "boolean"]);
  ids: number[] = [];
  values: Value[][] = [];
  add(row: Value[], at = this.ids.length): void {
    this.ids.splice(at, 0, this.heap.append(row));
    this.values.splice(at, 0, row);
  }
  set(at: number, row: Value[]): void {
    this.ids[at] = this.heap.append(row);
    this.values[at] = row;
  }
  remove(at: number, count: number): void {
    this.ids.splice(at, count);
    this.values.splice(at, count);
  }
  get stored(): StoredRows {
    return { heap: this.heap, rows: this.ids.slice() };
  }
}

/** The plain definition: one JSON.stringify per row of an object keyed in column order. */
function expected(rows: readonly (readonly Value[])[]): string {
  return rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null])))).join(",\n");
}

const texts = ["plain", "},{", '"},{"', "new\nline", "tab\t", "é ü 漢字 😀", "\\", "", "}", "{"];

function randomRow(random: () => number, id: number): Value[] {
  return [id, random() < 0.1 ? null : texts[Math.floor(random() * texts.length)]!, random() < 0.5 ? Math.floor(random() * 1000) / 8 : null, random() < 0.5];
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s / 0x7fffffff);
}

test("equals one stringify per row, through inserts, updates (a new row in the old one's place) and deletes", () => {
  const random = seeded(7);
  const writer = new RowLines(columns);
  const rows = new Rows();
  let id = 0;
  for (let step = 0; step < 300; step++) {
    const r = random();
    if (r < 0.5 || rows.ids.length === 0) rows.add(randomRow(random, id++));
    else if (r < 0.8) {
      // As the engine updates: the row's values under a new id, at the same position.
      const at = Math.floor(random() * rows.ids.length);
      const row = rows.values[at]!.slice();
      row[1] = texts[Math.floor(random() * texts.length)]!;
      rows.set(at, row);
    } else rows.remove(Math.floor(random() * rows.ids.length), 1 + Math.floor(random() * 3));
    if (step % 50 === 0) for (let k = 0; k < 40; k++) rows.add(randomRow(random, id++)); // bulk path
    assert.is(writer.text(rows.stored), expected(rows.values), `step ${step}`);
  }
});

test("after a delete in the middle, the rows behind it keep their lines", () => {
  const writer = new RowLines(columns);
  const rows = new Rows();
  for (let i = 0; i < 1000; i++) rows.add([i, "r", i, true]);
  writer.text(rows.stored);
  rows.remove(10, 3);
  rows.set(500, [-1, "new", 0, false]);
  rows.add([-2, "new", 0, false], 501);
  const want = expected(rows.values);
  const spy = JSON.stringify;
  let calls = 0;
  JSON.stringify = ((...args: Parameters<typeof spy>) => (calls++, spy(...args))) as typeof spy;
  let text: string;
  try {
    text = writer.text(rows.stored);
  } finally {
    JSON.stringify = spy;
  }
  assert.is(text, want);
  assert.ok(calls <= 4, `only the new rows were serialized (${calls} calls)`);
});

test("empty tables and a first write with a row separator inside a value", () => {
  const writer = new RowLines(columns);
  const rows = new Rows();
  assert.is(writer.text(rows.stored), "");
  rows.add([1, "a},{b", null, true]);
  rows.add([2, "x", 1.5, false]);
  assert.is(writer.text(rows.stored), expected(rows.values));
  rows.remove(0, 2);
  assert.is(writer.text(rows.stored), "");
});

test("a last write remembers nothing and gives the same text, in pieces of any size, a row separator inside a value included", () => {
  const random = seeded(11);
  const rows = new Rows();
  for (let i = 0; i < 700; i++) rows.add(i === 300 ? [300, "a},{b", null, true] : randomRow(random, i));
  for (const size of [1, 7, 128, 1000, Infinity]) {
    const writer = new RowLines(columns, false);
    assert.is([...writer.pieces(rows.stored, size)].map(pieceText).join(",\n"), expected(rows.values), `pieces of ${size}`);
    // Nothing was remembered: the next write serializes every row again.
    const spy = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof spy>) => (calls++, spy(...args))) as typeof spy;
    try {
      assert.is(writer.text(rows.stored), expected(rows.values));
    } finally {
      JSON.stringify = spy;
    }
    assert.ok(calls >= 1, `serialized again (${calls} calls)`);
  }
  assert.is(new RowLines(columns, false).text(new Rows().stored), "");
});

test.run();
