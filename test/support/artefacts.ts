/**
 * A test per checked-in generated file: it must be exactly what its script
 * would write now (the grammar's artefacts, the request validators).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Registers one test per artefact (`path` from the repository root), naming `script` as the cure; the caller's file runs them. */
export function artefactsUpToDate(artefacts: readonly { readonly path: string; readonly content: string }[], script: string): void {
  for (const artefact of artefacts) {
    test(`${artefact.path} is up to date (run \`${script}\` if not)`, () => {
      const onDisk = readFileSync(path.join(root, artefact.path), "utf8");
      assert.ok(onDisk === artefact.content, `${artefact.path} is stale: run \`${script}\` and commit the result`);
    });
  }
}
