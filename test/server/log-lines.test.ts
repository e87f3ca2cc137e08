import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FLUSH_BYTES, FLUSH_MS, RETRY_MS, batchedLines } from "../../src/server/log-lines.js";

/** An output that takes every batch whole, kept as text. */
const taking = (writes: string[]) => (bytes: Uint8Array) => (writes.push(Buffer.from(bytes).toString("utf8")), bytes.length);

test("lines are gathered and leave in one write, in order, within FLUSH_MS", async () => {
  const writes: string[] = [];
  const sink = batchedLines(taking(writes));
  sink.write("a\n");
  await new Promise((resolve) => setImmediate(resolve));
  sink.write("b\n");
  assert.equal(writes, [], "nothing written per line or per turn");
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 20));
  assert.equal(writes, ["a\nb\n"]);
  sink.write("c\n");
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 20));
  assert.equal(writes, ["a\nb\n", "c\n"]);
});

test("a full batch is written at once, in order; a line longer than a batch goes alone; UTF-8 intact", () => {
  const writes: string[] = [];
  const sink = batchedLines(taking(writes));
  const line = "é".repeat(1000) + "\n";
  const lines = Math.ceil((2 * FLUSH_BYTES) / Buffer.byteLength(line));
  for (let i = 0; i < lines; i++) sink.write(line);
  assert.ok(writes.length >= 2, "written without waiting for the timer");
  assert.ok(writes.every((batch) => Buffer.byteLength(batch) <= FLUSH_BYTES));
  const huge = "x".repeat(FLUSH_BYTES) + "\n";
  sink.write(huge);
  sink.write("after\n");
  assert.is(writes.at(-1), huge, "the long line alone, after what was pending");
  assert.is(writes.slice(0, -1).join(""), line.repeat(lines));
});

test("a reader that is behind: what it did not take is offered again, and every line arrives whole and in order", async () => {
  let calls = 0;
  const got: string[] = [];
  // Takes nothing on every other call, and at most 700 bytes on the others.
  const sink = batchedLines((bytes) => {
    calls += 1;
    if (calls % 2 === 1) return 0;
    const taken = Math.min(700, bytes.length);
    got.push(Buffer.from(bytes.subarray(0, taken)).toString("latin1"));
    return taken;
  });
  const lines = Array.from({ length: 300 }, (_, i) => `${i} ${"y".repeat(i % 50)}\n`);
  for (const line of lines) sink.write(line);
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 100 * RETRY_MS));
  assert.is(got.join(""), lines.join(""));
  assert.ok(calls > 20, "offered again and again while the reader was behind");
});

test("process.exit right after a line still writes it", () => {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/server/log-lines.ts");
  const script = `import { batchedLines } from ${JSON.stringify(module)}; const sink = batchedLines(); sink.write("last words\\n"); process.exit(3);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.is(child.status, 3);
  assert.is(child.stdout, "last words\n");
});

test("many batches through a real pipe arrive whole and in order (the buffer is reused between them)", () => {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/server/log-lines.ts");
  const script = [
    `import { batchedLines } from ${JSON.stringify(module)};`,
    "const sink = batchedLines();",
    'for (let i = 0; i < 2000; i++) sink.write(`${i} ${"x".repeat(500 + (i % 7))}\\n`);',
  ].join("\n");
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 1 << 24 });
  assert.is(child.status, 0, child.stderr);
  const lines = child.stdout.split("\n").slice(0, -1);
  assert.is(lines.length, 2000);
  lines.forEach((line, i) => assert.is(line, `${i} ${"x".repeat(500 + (i % 7))}`));
});

test("a reader that stalls near the end still gets every line: the exit waits for it", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-log-lines-"));
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/server/log-lines.ts");
  writeFileSync(
    path.join(dir, "writer.mjs"),
    `import { batchedLines } from ${JSON.stringify(module)};\nconst sink = batchedLines();\nfor (let i = 0; i < 2000; i++) sink.write(\`\${i} \${"x".repeat(500 + (i % 7))}\\n\`);\n`,
  );
  // Reads what the pipe holds, as it comes; past 1,700 lines it stops reading for half a second — the
  // writer reaches its exit with the pipe full — then reads the rest and prints all it got.
  writeFileSync(
    path.join(dir, "reader.cjs"),
    `const fs = require("node:fs");
const chunk = Buffer.alloc(65536);
const parts = [];
let lines = 0;
let stalled = false;
for (;;) {
  const n = fs.readSync(0, chunk);
  if (n === 0) break;
  parts.push(Buffer.from(chunk.subarray(0, n)));
  for (let i = 0; i < n; i++) if (chunk[i] === 10) lines++;
  if (!stalled && lines > 1700) {
    stalled = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
  }
}
fs.writeSync(1, Buffer.concat(parts));
`,
  );
  // From the repository's root, where `--import tsx` resolves. (sh has no pipefail: a writer that failed shows as missing lines.)
  const pipeline = spawnSync("sh", ["-c", '"$0" --import tsx "$1/writer.mjs" | "$0" "$1/reader.cjs"', process.execPath, dir], { cwd: path.join(path.dirname(module), "../.."), encoding: "utf8", maxBuffer: 1 << 24 });
  rmSync(dir, { recursive: true, force: true });
  assert.is(pipeline.status, 0, pipeline.stderr);
  const lines = pipeline.stdout.split("\n").slice(0, -1);
  assert.is(lines.length, 2000);
  lines.forEach((line, i) => assert.is(line, `${i} ${"x".repeat(500 + (i % 7))}`));
});

test.run();
