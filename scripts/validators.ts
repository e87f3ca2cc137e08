/**
 * `npm run validators`: writes the request validators as standalone code
 * (see validator-artefacts.ts). Re-run it after changing src/commands/schema.ts.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validatorArtefacts } from "./validator-artefacts.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
for (const artefact of validatorArtefacts()) {
  writeFileSync(path.join(root, artefact.path), artefact.content);
  console.log(`wrote ${artefact.path}`);
}
