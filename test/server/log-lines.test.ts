import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FLUSH_BYTES, FLUSH_MS, batchedLines } from "../../src/server/log-lines.js";

test("lines are gathered and leave in one write, in order, within FLUSH_MS", async () => {
  const writes: string[] = [];
  const sink = batchedLines({ write: (text: string) => writes.push(text) });
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

test("a batch of FLUSH_BYTES is written at once", () => {
  const writes: string[] = [];
  const sink = batchedLines({ write: (text: string) => writes.push(text) });
  const line = "x".repeat(1023) + "\n";
  for (let i = 0; i < FLUSH_BYTES / line.length; i++) sink.write(line);
  assert.is(writes.length, 1);
  assert.is(writes[0]!.length, FLUSH_BYTES);
});

test("process.exit right after a line still writes it", () => {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/server/log-lines.ts");
  const script = `import { batchedLines } from ${JSON.stringify(module)}; const sink = batchedLines(); sink.write("last words\\n"); process.exit(3);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.is(child.status, 3);
  assert.is(child.stdout, "last words\n");
});

test.run();
