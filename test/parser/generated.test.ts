/**
 * The checked-in grammar artefacts (railroad diagrams, CST types) are exactly
 * what `npm run grammar` would write from the grammar as it is now.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { artefacts } from "../../grammar/artefacts.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

for (const artefact of artefacts()) {
  test(`${artefact.path} is up to date (run \`npm run grammar\` if not)`, () => {
    const onDisk = readFileSync(path.join(root, artefact.path), "utf8");
    assert.ok(onDisk === artefact.content, `${artefact.path} is stale: run \`npm run grammar\` and commit the result`);
  });
}

test("the artefacts cover every grammar rule", () => {
  const [types, diagrams] = artefacts();
  for (const rule of ["statement", "selectStatement", "createTableStatement", "expression", "literal"]) {
    assert.match(diagrams!.content, `"${rule}"`);
    assert.match(types!.content, `name: "${rule}"`);
  }
});

test.run();
