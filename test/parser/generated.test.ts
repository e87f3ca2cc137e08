/**
 * The checked-in grammar artefacts (railroad diagrams, CST types) are exactly
 * what `npm run grammar` would write from the grammar as it is now.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { artefacts } from "../../grammar/artefacts.js";
import { artefactsUpToDate } from "../support/artefacts.js";

artefactsUpToDate(artefacts(), "npm run grammar");

test("the artefacts cover every grammar rule", () => {
  const [types, diagrams] = artefacts();
  for (const rule of ["statement", "selectStatement", "createTableStatement", "expression", "literal"]) {
    assert.match(diagrams!.content, `"${rule}"`);
    assert.match(types!.content, `name: "${rule}"`);
  }
});

test.run();
