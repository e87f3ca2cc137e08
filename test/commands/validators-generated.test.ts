/**
 * The checked-in standalone validators are exactly what `npm run validators`
 * would write from the schemas as they are now, and they are the ones
 * requests are held to.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { validatorArtefacts } from "../../scripts/validator-artefacts.js";
import { parseCommand } from "../../src/commands/index.js";
import { artefactsUpToDate } from "../support/artefacts.js";

artefactsUpToDate(validatorArtefacts(), "npm run validators");

test("the generated validators judge commands: a good one passes, a bad one is refused with its field named", () => {
  assert.equal(parseCommand({ kind: "select", table: "t", columns: ["a"] }).kind, "select");
  assert.throws(() => parseCommand({ kind: "select", table: "t", columns: ["a"], limit: -1 }), /command\.limit: must be >= 0/);
  assert.throws(() => parseCommand({ kind: "sleep" }), /command\.kind: must be one of/);
});

test.run();
