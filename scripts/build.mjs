#!/usr/bin/env node
/**
 * Builds dist/ with esbuild: `dist/index.js` (the library: `import { Database } from "storedb"`)
 * and `dist/cli.js` (the `storedb` command; `storedb serve` is the service, `npm start` and
 * the container's entry point). See bundle.mjs for how each is bundled.
 */
import { build } from "esbuild";
import { bundleOptions, cliBuildOptions } from "./bundle.mjs";

await build({ ...bundleOptions, outdir: "dist", logLevel: "warning", entryPoints: { index: "src/index.ts" } });
await build(cliBuildOptions("dist"));
