#!/usr/bin/env node
/**
 * Builds dist/ afresh with esbuild: `dist/index.js` (the library: `import { Database } from "storedb"`),
 * `dist/client.js` (the HTTP client alone: `import { createClient } from "storedb/client"`)
 * and `dist/cli.js` (the `storedb` command; `storedb serve` is the service, `npm start` and
 * the container's entry point). See bundle.mjs for how each is bundled.
 */
import { rmSync } from "node:fs";
import { build } from "esbuild";
import { bundleOptions, cliBuildOptions } from "./bundle.mjs";

// Old chunks must not linger beside the new ones (their names carry content hashes).
rmSync("dist", { recursive: true, force: true });
await build({ ...bundleOptions, outdir: "dist", logLevel: "warning", entryPoints: { index: "src/index.ts", client: "src/client/entry.ts" } });
await build(cliBuildOptions("dist"));
