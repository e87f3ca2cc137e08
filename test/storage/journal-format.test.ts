/**
 * The journal's lines: written and scanned back; a torn tail is cut, damage
 * (a bad line before a good one, a sequence number out of step) is named,
 * every single-bit flip is caught, zeros of preallocated space after the
 * last line hold nothing, and the document a journal continues is
 * found by its header or by the last checkpoint marker naming it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { crc32 } from "node:zlib";
import { tableSnapshot } from "../../src/catalog/snapshot.js";
import type { Change } from "../../src/catalog/types.js";
import { baseFor, decodeRecord, headerLine, markerLine, recordLine, scanJournal, type JournalEntry } from "../../src/storage/journal-format.js";

/** Every change record among `entries`, decoded, in order. */
const decodeAll = (entries: readonly JournalEntry[]) => entries.flatMap((e) => (e.kind === "changes" ? [decodeRecord(e)] : []));

const D0 = "sha256:" + "0".repeat(63) + "1";
const D1 = "sha256:" + "a".repeat(64);
const insert = (id: number, position: number): Change => ({ kind: "insert", table: "t", row: [id, `name ${id} é 😀`], position });
const changes: readonly Change[][] = [
  [insert(1, 0), insert(2, 1)],
  [{ kind: "update", table: "t", before: [1, "x"], after: [1, "y"], position: 0 }],
  [{ kind: "delete", table: "t", row: [2, "z"], position: 1 }],
  [{ kind: "create-table", schema: { name: "u", columns: { a: "text" } } }, { kind: "drop-table", table: "u", schema: { name: "u", columns: { a: "text" } }, rows: tableSnapshot({ name: "u", columns: { a: "text" } }, [["gone"]]) }],
];

/** A journal continuing D0 from sequence number 7: four records, a marker naming D1 through 9, one more record. */
function journal(): { bytes: Buffer; lines: Buffer[] } {
  const lines = [headerLine(D0, 7), ...changes.slice(0, 2).map((c, i) => recordLine(8 + i, c)), markerLine(10, D1, 9), ...changes.slice(2).map((c, i) => recordLine(11 + i, c))];
  return { bytes: Buffer.concat(lines), lines };
}

test("written and read back: header, records with what redo needs, a marker, the end", () => {
  const { bytes } = journal();
  const scan = scanJournal(bytes);
  assert.equal(scan.header, { document: D0, seq: 7 });
  assert.is(scan.damage, undefined);
  assert.is(scan.end, bytes.length);
  assert.equal(scan.entries.map((e) => [e.kind, e.seq]), [["changes", 8], ["changes", 9], ["checkpoint", 10], ["changes", 11], ["changes", 12]]);
  // Before-images and dropped rows are not journaled: redo does not need them.
  assert.equal(decodeAll(scan.entries), [
    [
      { kind: "insert", table: "t", row: [1, "name 1 é 😀"], position: 0 },
      { kind: "insert", table: "t", row: [2, "name 2 é 😀"], position: 1 },
    ],
    [{ kind: "update", table: "t", position: 0, after: [1, "y"] }],
    [{ kind: "delete", table: "t", position: 1 }],
    [
      { kind: "create-table", schema: { name: "u", columns: { a: "text" } } },
      { kind: "drop-table", table: "u" },
    ],
  ]);
});

test("inserts at consecutive positions of one table are written as one run and read back one per row, in order with the rest", () => {
  const group: Change[] = [insert(1, 5), insert(2, 6), insert(3, 7), { kind: "delete", table: "t", row: [9, "z"], position: 0 }, insert(4, 7), insert(5, 9), { kind: "insert", table: "u", row: ["a"], position: 10 }];
  const line = recordLine(1, group);
  const json = JSON.parse(line.toString("utf8").slice(9)) as { changes: { rows?: unknown[] }[] };
  assert.equal(json.changes.map((c) => c.rows?.length), [3, undefined, 1, 1, 1], "a run breaks at another change, a gap in positions and another table");
  const scan = scanJournal(Buffer.concat([headerLine(D0, 0), line]));
  assert.equal(decodeAll(scan.entries), [
    [
      { kind: "insert", table: "t", row: [1, "name 1 é 😀"], position: 5 },
      { kind: "insert", table: "t", row: [2, "name 2 é 😀"], position: 6 },
      { kind: "insert", table: "t", row: [3, "name 3 é 😀"], position: 7 },
      { kind: "delete", table: "t", position: 0 },
      { kind: "insert", table: "t", row: [4, "name 4 é 😀"], position: 7 },
      { kind: "insert", table: "t", row: [5, "name 5 é 😀"], position: 9 },
      { kind: "insert", table: "u", row: ["a"], position: 10 },
    ],
  ]);
});

const update = (id: number, position: number, n: number): Change => ({ kind: "update", table: "t", before: [id, "old"], after: [id, `v${n}`], position });

test("inserts and updates of one table in a row are one write run, read back in order: an entry at the row count an insert, the rest updates", () => {
  // An upsert's shape: updates and appends alternating, an update of a row the run inserted, then another table and a lone update.
  const group: Change[] = [
    update(1, 0, 1),
    insert(10, 4),
    update(2, 1, 2),
    insert(11, 5),
    update(10, 4, 3),
    { kind: "insert", table: "u", row: ["a"], position: 0 },
    update(3, 2, 4),
  ];
  const line = recordLine(1, group);
  const json = JSON.parse(line.toString("utf8").slice(9)) as { changes: Record<string, unknown>[] };
  assert.equal(json.changes, [
    { kind: "write", table: "t", positions: [0, 4, 1, 5, 4], rows: [[1, "v1"], [10, "name 10 é 😀"], [2, "v2"], [11, "name 11 é 😀"], [10, "v3"]], from: 4 },
    { kind: "insert", table: "u", position: 0, rows: [["a"]] },
    { kind: "update", table: "t", position: 2, after: [3, "v4"] },
  ]);
  assert.equal(decodeAll(scanJournal(Buffer.concat([headerLine(D0, 0), line])).entries), [
    [
      { kind: "update", table: "t", after: [1, "v1"], position: 0 },
      { kind: "insert", table: "t", row: [10, "name 10 é 😀"], position: 4 },
      { kind: "update", table: "t", after: [2, "v2"], position: 1 },
      { kind: "insert", table: "t", row: [11, "name 11 é 😀"], position: 5 },
      { kind: "update", table: "t", after: [10, "v3"], position: 4 },
      { kind: "insert", table: "u", row: ["a"], position: 0 },
      { kind: "update", table: "t", position: 2, after: [3, "v4"] },
    ],
  ]);
});

test("a write run of updates alone has no from; an insert away from the run's end starts a new run", () => {
  const line = recordLine(1, [update(1, 0, 1), update(2, 1, 2), insert(7, 9), insert(8, 11), update(3, 2, 3)]);
  const json = JSON.parse(line.toString("utf8").slice(9)) as { changes: Record<string, unknown>[] };
  assert.equal(json.changes, [
    { kind: "write", table: "t", positions: [0, 1, 9], rows: [[1, "v1"], [2, "v2"], [7, "name 7 é 😀"]], from: 9 },
    { kind: "write", table: "t", positions: [11, 2], rows: [[8, "name 8 é 😀"], [3, "v3"]], from: 11 },
  ]);
  assert.equal(
    decodeAll(scanJournal(Buffer.concat([headerLine(D0, 0), recordLine(1, [update(1, 0, 1), update(2, 1, 2)])])).entries),
    [[{ kind: "update", table: "t", after: [1, "v1"], position: 0 }, { kind: "update", table: "t", after: [2, "v2"], position: 1 }]],
  );
});

test("a journal written before write runs (an update object per row, inserts one run each between them) reads the same", () => {
  const old = (seq: number, changes: unknown[]): Buffer => {
    const json = JSON.stringify({ seq, changes });
    const bytes = Buffer.from(` ${json}\n`);
    return Buffer.concat([Buffer.from(crc32(bytes.subarray(1, bytes.length - 1)).toString(16).padStart(8, "0")), bytes]);
  };
  const line = old(1, [
    { kind: "update", table: "t", position: 0, after: [1, "v1"] },
    { kind: "insert", table: "t", position: 4, rows: [[10, "x"]] },
    { kind: "update", table: "t", position: 4, after: [10, "y"] },
  ]);
  assert.equal(decodeAll(scanJournal(Buffer.concat([headerLine(D0, 0), line])).entries), [
    [
      { kind: "update", table: "t", position: 0, after: [1, "v1"] },
      { kind: "insert", table: "t", row: [10, "x"], position: 4 },
      { kind: "update", table: "t", position: 4, after: [10, "y"] },
    ],
  ]);
});

test("a write run whose positions and rows differ in length does not decode", () => {
  const json = JSON.stringify({ seq: 1, changes: [{ kind: "write", table: "t", positions: [0, 1], rows: [[1, "a"]] }] });
  assert.throws(() => decodeRecord({ kind: "changes", seq: 1, json }), /positions and rows/);
});

test("the document a journal continues: its header's, or the last marker naming it; records after that point replay", () => {
  const scan = scanJournal(journal().bytes);
  assert.is(baseFor(scan, D0), 7);
  assert.is(baseFor(scan, D1), 9, "a crash between the checkpoint's rename and the journal's reset");
  assert.is(baseFor(scan, "sha256:" + "b".repeat(64)), undefined, "a document replaced from outside: stale");
});

test("a torn tail — any cut inside the last line — is cut back to the last whole line, never damage", () => {
  const { bytes, lines } = journal();
  const lastStart = bytes.length - lines[lines.length - 1]!.length;
  for (let cut = lastStart; cut < bytes.length; cut++) {
    const scan = scanJournal(bytes.subarray(0, cut));
    assert.is(scan.damage, undefined, `cut at ${cut}`);
    assert.is(scan.end, lastStart, `cut at ${cut}`);
    assert.is(scan.entries.length, 4);
  }
  assert.equal(scanJournal(Buffer.alloc(0)), { header: undefined, entries: [], end: 0, used: 0, damage: undefined });
  assert.is(scanJournal(bytes.subarray(0, 20)).header, undefined, "a torn header: nothing usable");
});

test("every single-bit flip is caught: damage before the last line, a cut in the last, never an altered entry accepted", () => {
  const { bytes, lines } = journal();
  const good = scanJournal(bytes);
  const lastStart = bytes.length - lines[lines.length - 1]!.length;
  let damaged = 0;
  for (let byte = 0; byte < bytes.length; byte++) {
    for (let bit = 0; bit < 8; bit++) {
      const flipped = Buffer.from(bytes);
      flipped[byte]! ^= 1 << bit;
      const scan = scanJournal(flipped);
      if (scan.damage !== undefined) {
        damaged += 1;
        assert.ok(byte < lastStart || scan.header === undefined, `damage reported for a flip in the last line (byte ${byte})`);
        continue;
      }
      // What is accepted is a prefix of the good journal, unaltered.
      if (scan.header !== undefined) assert.equal(scan.header, good.header, `byte ${byte} bit ${bit}`);
      assert.equal(scan.entries, good.entries.slice(0, scan.entries.length), `byte ${byte} bit ${bit}`);
      assert.ok(byte >= lastStart || scan.header === undefined, `a flip at byte ${byte} before the last line passed as a cut`);
    }
  }
  assert.ok(damaged > 0);
});

test("preallocated space: the zeros after the last line hold nothing; a torn line before them is a tail to cut; a zero inside a middle line is damage", () => {
  const { bytes, lines } = journal();
  const zeros = Buffer.alloc(70_000);
  const clean = scanJournal(Buffer.concat([bytes, zeros]));
  assert.equal(clean, { ...scanJournal(bytes), used: bytes.length }, "the same entries, nothing torn");
  const lastStart = bytes.length - lines[lines.length - 1]!.length;
  // An append the crash cut short over preallocated zeros: only part of its bytes (any part) reached the disk.
  for (const [from, to] of [[0, 30], [30, 60], [10, lines[lines.length - 1]!.length]] as const) {
    const torn = Buffer.concat([bytes.subarray(0, lastStart), zeros]);
    lines[lines.length - 1]!.copy(torn, lastStart + from, from, to);
    const scan = scanJournal(torn);
    assert.is(scan.damage, undefined, `bytes ${from}-${to}`);
    assert.is(scan.end, lastStart, `bytes ${from}-${to}`);
    assert.is(scan.used, lastStart + to, `bytes ${from}-${to}`);
    assert.is(scan.entries.length, 4);
  }
  const flipped = Buffer.concat([bytes, zeros]);
  flipped[lines[0]!.length + 8] = 0; // the space after the second line's CRC
  assert.ok(scanJournal(flipped).damage, "a zero in a middle line does not end the journal");
});

test("a sequence number out of step — a line lost, repeated or moved — is damage", () => {
  const { lines } = journal();
  const cases: [string, Buffer[]][] = [
    ["lost", [lines[0]!, lines[1]!, lines[3]!, lines[4]!]],
    ["repeated", [lines[0]!, lines[1]!, lines[1]!, lines[2]!]],
    ["moved", [lines[0]!, lines[2]!, lines[1]!]],
    ["a second header", [lines[0]!, lines[1]!, headerLine(D0, 8)]],
    ["no header", [lines[1]!, lines[2]!]],
  ];
  for (const [label, parts] of cases) assert.ok(scanJournal(Buffer.concat(parts)).damage, label);
});

test("a reader following a growing journal scans the new lines after the sequence number it reached", () => {
  const { lines } = journal();
  const tail = Buffer.concat(lines.slice(3));
  const scan = scanJournal(tail, 9);
  assert.equal(scan.entries.map((e) => e.seq), [10, 11, 12]);
  assert.is(scan.end, tail.length);
  assert.ok(scanJournal(tail, 8).damage, "a gap before the first new line");
  assert.equal(scanJournal(tail.subarray(0, tail.length - 3), 9).entries.length, 2, "an append still under way is left for later");
});

test.run();
