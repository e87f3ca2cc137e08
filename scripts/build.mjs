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

const common = {
  absWorkingDir: root,
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

await build({ ...common, entryPoints: { index: "src/index.ts" } });
// The server is also the package's `storedb` command, so it starts with a shebang.
await build({ ...common, entryPoints: { server: "src/server/main.ts" }, banner: { js: "#!/usr/bin/env node" } });
