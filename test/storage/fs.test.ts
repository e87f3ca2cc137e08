/** The real fs layer: its whole-file read (every size, and a file longer than its stat said), and its journals' appends. */
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

test("a blocking journal's append is written before the call returns; both kinds write the same bytes at the same places", async () => {
  const dir = scratchDir("fs");
  try {
    const line = Buffer.from("0123abcd {}\n");
    for (const blocking of [true, false]) {
      const file = path.join(dir, `journal-${blocking}`);
      const journal = await nodeFs.openJournal(file, { create: true, mode: 0o600, blocking });
      await journal.append(line, 0);
      const second = journal.append(line, line.length);
      // A blocking append wrote on this thread: the bytes are in the file before anything is awaited.
      if (blocking) assert.ok(readFileSync(file).equals(Buffer.concat([line, line])), "written before the call returned");
      await second;
      await journal.preallocate(2 * line.length, 100);
      await journal.append(line, 2 * line.length);
      await journal.close();
      assert.ok(readFileSync(file).equals(Buffer.concat([line, line, line, Buffer.alloc(100 - line.length)])), `blocking ${blocking}`);
    }
  } finally {
    removeDir(dir);
  }
});

test.run();
