/** The real fs layer's whole-file read: every size, and a file longer than its stat said. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nodeFs } from "../../src/storage/fs.js";
import { removeDir, scratchDir } from "./helpers/scratch.js";

test("readFile returns exactly the file, whatever its size", async () => {
  const dir = scratchDir("fs");
  try {
    for (const size of [0, 1, 2, 4095, 4096, 65_537, 3_000_001]) {
      const file = path.join(dir, `f${size}`);
      const bytes = randomBytes(size);
      writeFileSync(file, bytes);
      assert.ok((await nodeFs.readFile(file)).equals(bytes), `${size} bytes`);
    }
  } finally {
    removeDir(dir);
  }
});

test("readFile reads to the end of a file that holds more than its stat said", async () => {
  // /proc files stat as 0 bytes but have content: the read must grow its buffer until a read comes up short.
  const file = "/proc/version";
  if (!existsSync(file)) return;
  const expected = readFileSync(file);
  assert.ok(expected.length > 2);
  assert.ok((await nodeFs.readFile(file)).equals(expected));
});

test.run();
