import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { batchedLines } from "../../src/server/log-lines.js";

test("lines of one turn leave in one write, in order, before the next turn", async () => {
  const writes: string[] = [];
  const sink = batchedLines({ write: (text: string) => writes.push(text) });
  sink.write("a\n");
  sink.write("b\n");
  assert.equal(writes, []);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes, ["a\nb\n"]);
  sink.write("c\n");
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes, ["a\nb\n", "c\n"]);
});

test("process.exit right after a line still writes it", () => {
  const module = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/server/log-lines.ts");
  const script = `import { batchedLines } from ${JSON.stringify(module)}; const sink = batchedLines(); sink.write("last words\\n"); process.exit(3);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
  assert.is(child.status, 3);
  assert.is(child.stdout, "last words\n");
});

test.run();
