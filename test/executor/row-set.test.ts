/**
 * RowSet, the rows a row value is tested against (`(a, b) IN (SELECT x, y
 * …)` and a list of constant rows): its three-valued answers against a
 * brute-force reading of SQLite's rule over random rows and probes with
 * NULLs anywhere (more NULL masks than a group keeps indexes for, so its
 * scan is read too), and that rows holding NULLs are not scanned per probe
 * (before: each miss read every such row — 3 s at 20k × 20k in SQL).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Value } from "../../src/commands/types.js";
import { RowSet } from "../../src/executor/row-set.js";

const same = (_i: number, v: Value): Value => v;

/** SQLite's rule, row by row: TRUE when one row equals, else NULL when one might, else FALSE. */
function reference(rows: readonly (readonly Value[])[], probe: readonly Value[]): boolean | null {
  let maybe = false;
  for (const row of rows) {
    if (row.every((v, i) => v !== null && probe[i] !== null && v === probe[i])) return true;
    if (row.every((v, i) => v === null || probe[i] === null || v === probe[i])) maybe = true;
  }
  return maybe ? null : false;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("answers as SQLite's rule over random rows and probes with NULLs", () => {
  for (const [width, seed] of [[2, 1], [3, 2], [5, 3], [6, 4]] as const) {
    const next = random(seed);
    const value = (): Value => (next() < 0.25 ? null : Math.floor(next() * 3));
    for (let trial = 0; trial < 30; trial++) {
      const rows = Array.from({ length: Math.floor(next() * 12) }, () => Array.from({ length: width }, value));
      const set = new RowSet(width);
      for (const row of rows) set.add([99, ...row], 1, same);
      for (let p = 0; p < 60; p++) {
        const probe = Array.from({ length: width }, value);
        assert.is(set.test(probe), reference(rows, probe), `rows ${JSON.stringify(rows)} probe ${JSON.stringify(probe)}`);
      }
    }
  }
});

test("probes do not scan the rows holding NULLs (30k rows, 30k probes)", () => {
  const n = 30_000;
  for (const nullAt of [0, 1]) {
    const set = new RowSet(2);
    for (let i = 0; i < n; i++) set.add(nullAt === 1 ? [i + n, null] : [null, i + n], 0, same);
    const start = performance.now();
    let misses = 0;
    const probe: Value[] = [0, 0];
    for (let i = 0; i < n; i++) {
      probe[0] = i;
      probe[1] = i;
      if (set.test(probe) === false) misses++;
    }
    const ms = performance.now() - start;
    assert.is(misses, n);
    // A scan per probe is 900M pair checks, seconds; lookups take milliseconds.
    assert.ok(ms < 1500, `30k probes took ${ms.toFixed(0)} ms (NULL in column ${nullAt})`);
  }
});

test.run();
