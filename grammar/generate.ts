/**
 * `npm run grammar`: regenerate the grammar's derived files (see
 * `artefacts.ts`) from the parser, the single source of truth.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { artefacts } from "./artefacts.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
for (const artefact of artefacts()) {
  writeFileSync(path.join(root, artefact.path), artefact.content);
  console.log(`wrote ${artefact.path}`);
}
