/**
 * A generated CSV file for the import/export tests and `npm run bench --
 * import`: deterministic, in the canonical form `storedb export` writes
 * (quotes only where a field needs them, `\n` line ends, numbers as
 * JavaScript prints them, NULL as an empty field), so exporting what was
 * imported must give back the same bytes. Written by hand here, not with
 * the tool's own CSV writer, so the round trip checks the writer too.
 *
 * Columns: id (integer, 0..n-1), name (text, some with a comma, quotes, a
 * line break or non-ASCII), score (integer, negative too), amount (real),
 * active (boolean), note (text, NULL in one row of seven).
 */

import { createWriteStream } from "node:fs";
import { once } from "node:events";

export const FIXTURE_HEADER = ["id", "name", "score", "amount", "active", "note"] as const;

function field(text: string): string {
  return /[,"\r\n]|^ | $/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const NAMES = ["Ada", "Grace Hopper", "Lovelace, Ada", 'Alan "Turing"', "Émilie du Châtelet", "line\nbreak", "日本語", "Katherine"];

/** Record `i` of the fixture, one line with its `\n`. */
export function fixtureLine(i: number): string {
  const name = `${NAMES[i % NAMES.length]} ${i}`;
  const score = ((i * 7919) % 2001) - 1000;
  const amount = ((i * 104729) % 1_000_000) / 100;
  const note = i % 7 === 3 ? "" : field(`note ${i % 1000}${i % 11 === 0 ? ", with a comma" : ""}`);
  return `${i},${field(name)},${score},${amount},${i % 3 === 0},${note}\n`;
}

/** Writes the header and `rows` records to `file`. */
export async function writeFixture(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  let chunk = FIXTURE_HEADER.join(",") + "\n";
  for (let i = 0; i < rows; i++) {
    chunk += fixtureLine(i);
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}
