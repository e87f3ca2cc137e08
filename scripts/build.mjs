#!/usr/bin/env node
/**
 * Builds dist/ with esbuild: `dist/index.js` (the library: `import { Database } from "storedb"`)
 * and `dist/server.js` (the service, `npm start` and the container's entry point).
 * Dependencies stay external: the container installs production dependencies beside the bundle.
 */
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

await build({
  absWorkingDir: root,
  entryPoints: { index: "src/index.ts", server: "src/server/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
