import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FLUSH_BYTES, FLUSH_MS, batchedLines } from "../../src/server/log-lines.js";

test("lines are gathered and leave in one write, in order, within FLUSH_MS", async () => {
  const writes: string[] = [];
  const sink = batchedLines({ write: (bytes: Uint8Array) => writes.push(Buffer.from(bytes).toString("utf8")) });
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
  const sink = batchedLines({ write: (bytes: Uint8Array) => writes.push(Buffer.from(bytes).toString("utf8")) });
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

test("the batch buffer is reused only when the stream has taken the batch", () => {
  const FILL = Math.floor(FLUSH_BYTES / 4);
  const line = (c: string) => c.repeat(FILL - 1) + "\n";
  // A stream that copies at once (writableLength 0) and one that keeps the chunk it was given.
  const taken: string[] = [];
  const eager = batchedLines({ writableLength: 0, write: (bytes: Uint8Array) => taken.push(Buffer.from(bytes).toString("latin1")) });
  const kept: Uint8Array[] = [];
  const holding = batchedLines({ writableLength: 1, write: (bytes: Uint8Array) => kept.push(bytes) });
  for (const c of "abcdefghij") {
    eager.write(line(c));
    holding.write(line(c));
  }
  assert.ok(taken.length >= 2 && kept.length >= 2, "several batches flushed");
  assert.ok([..."abcdefghij"].map(line).join("").startsWith(taken.join("")), "batches in order, each intact");
  // Every batch a holding stream kept still reads as written: the next batch went to a fresh buffer.
  assert.is(kept.map((bytes) => Buffer.from(bytes).toString("latin1")).join(""), taken.join(""));
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

test.run();
