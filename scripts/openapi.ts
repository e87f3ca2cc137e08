/**
 * `npm run openapi`: writes the service's OpenAPI document to
 * docs/openapi.json, generated from the schemas the server validates with
 * (src/server/openapi.ts). Re-run it after adding a command kind, an
 * expression type, an error code or a route; test/server/openapi.test.ts
 * fails while the checked-in copy is stale.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAPI_FILE, openApiFileText } from "../src/server/openapi.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
writeFileSync(path.join(root, OPENAPI_FILE), openApiFileText());
console.log(`wrote ${OPENAPI_FILE}`);
