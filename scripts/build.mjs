#!/usr/bin/env node
/**
 * Builds dist/ with esbuild: `dist/index.js` (the library: `import { Database } from "storedb"`)
 * and `dist/server.js` (the service, `npm start` and the container's entry point).
 */
import { build } from "esbuild";
import { bundleOptions, SERVER_ENTRY } from "./bundle.mjs";

const common = { ...bundleOptions, outdir: "dist", logLevel: "warning" };

await build({ ...common, entryPoints: { index: "src/index.ts" } });
// The server is also the package's `storedb` command, so it starts with a shebang.
await build({ ...common, entryPoints: { server: SERVER_ENTRY }, banner: { js: "#!/usr/bin/env node" } });
