/**
 * The checked-in standalone validators are exactly what `npm run validators`
 * would write from the schemas as they are now, and they are the ones
 * requests are held to.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validatorArtefacts } from "../../scripts/validator-artefacts.js";
import { parseCommand } from "../../src/commands/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

for (const artefact of validatorArtefacts()) {
  test(`${artefact.path} is up to date (run \`npm run validators\` if not)`, () => {
    const onDisk = readFileSync(path.join(root, artefact.path), "utf8");
    assert.ok(onDisk === artefact.content, `${artefact.path} is stale: run \`npm run validators\` and commit the result`);
  });
}

test("the generated validators judge commands: a good one passes, a bad one is refused with its field named", () => {
  assert.equal(parseCommand({ kind: "select", table: "t", columns: ["a"] }).kind, "select");
  assert.throws(() => parseCommand({ kind: "select", table: "t", columns: ["a"], limit: -1 }), /command\.limit: must be >= 0/);
  assert.throws(() => parseCommand({ kind: "sleep" }), /command\.kind: must be one of/);
});

test.run();
