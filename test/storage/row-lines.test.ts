import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { RowLines } from "../../src/storage/row-lines.js";

const columns = ["id", "name", "n", "ok"];

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

test("equals one stringify per row, through inserts, updates (a new array in the old one's place) and deletes", () => {
  const random = seeded(7);
  const writer = new RowLines(columns);
  const rows: Value[][] = [];
  let id = 0;
  for (let step = 0; step < 300; step++) {
    const r = random();
    if (r < 0.5 || rows.length === 0) rows.push(randomRow(random, id++));
    else if (r < 0.8) {
      // As the engine updates: the row's values in a new array, at the same position.
      const at = Math.floor(random() * rows.length);
      const row = rows[at]!.slice();
      row[1] = texts[Math.floor(random() * texts.length)]!;
      rows[at] = row;
    } else rows.splice(Math.floor(random() * rows.length), 1 + Math.floor(random() * 3));
    if (step % 50 === 0) rows.push(...Array.from({ length: 40 }, () => randomRow(random, id++))); // bulk path
    assert.is(writer.text(rows), expected(rows), `step ${step}`);
  }
});

test("after a delete in the middle, the rows behind it keep their lines", () => {
  const writer = new RowLines(columns);
  const rows: Value[][] = Array.from({ length: 1000 }, (_, i) => [i, "r", i, true]);
  writer.text(rows);
  rows.splice(10, 3);
  rows.splice(500, 1, [-1, "new", 0, false], [-2, "new", 0, false]);
  const want = expected(rows);
  const spy = JSON.stringify;
  let calls = 0;
  JSON.stringify = ((...args: Parameters<typeof spy>) => (calls++, spy(...args))) as typeof spy;
  let text: string;
  try {
    text = writer.text(rows);
  } finally {
    JSON.stringify = spy;
  }
  assert.is(text, want);
  assert.ok(calls <= 4, `only the new rows were serialized (${calls} calls)`);
});

test("empty tables and a first write with a row separator inside a value", () => {
  const writer = new RowLines(columns);
  assert.is(writer.text([]), "");
  const rows: Value[][] = [
    [1, "a},{b", null, true],
    [2, "x", 1.5, false],
  ];
  assert.is(writer.text(rows), expected(rows));
  assert.is(writer.text([]), "");
});

test("a last write remembers nothing and gives the same text, in pieces of any size, a row separator inside a value included", () => {
  const random = seeded(11);
  const rows = Array.from({ length: 700 }, (_, i) => randomRow(random, i));
  rows[300] = [300, "a},{b", null, true];
  for (const size of [1, 7, 128, 1000, Infinity]) {
    const writer = new RowLines(columns, false);
    assert.is([...writer.pieces(rows, size)].join(",\n"), expected(rows), `pieces of ${size}`);
    // Nothing was remembered: the next write serializes every row again.
    const spy = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof spy>) => (calls++, spy(...args))) as typeof spy;
    try {
      assert.is(writer.text(rows), expected(rows));
    } finally {
      JSON.stringify = spy;
    }
    assert.ok(calls >= 1, `serialized again (${calls} calls)`);
  }
  assert.is(new RowLines(columns, false).text([]), "");
});

test.run();
