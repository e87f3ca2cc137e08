/**
 * How storedb is bundled, in one place: `npm run build` (scripts/build.mjs),
 * the tests that start the real server, and the HTTP benchmark all bundle the
 * service the same way, so the tests and the benchmark run what ships.
 */
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

/** The checkout's root: bundles resolve `node_modules` from here. */
export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The service's entry point. */
export const SERVER_ENTRY = "src/server/main.ts";

const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

/**
 * The packages left to `node_modules` (the container installs production
 * dependencies beside the bundle): all but chevrotain, which is bundled.
 * Loaded as a package, chevrotain's ESM build pulls in lodash-es file by
 * file — 640 modules, ~390 ms of every command-line run and server start
 * resolving and reading them; bundled, only the parts it uses, parsed once.
 */
const EXTERNAL = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name !== "chevrotain");

/** ESM for Node 20; dependencies but chevrotain stay external. */
export const bundleOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: EXTERNAL,
  sourcemap: true,
};

/** The `storedb` command's entry point; `storedb serve` loads SERVER_ENTRY. */
export const CLI_ENTRY = "src/cli/main.ts";

/**
 * The command is split into chunks loaded on demand (each subcommand imports
 * its work dynamically), so `storedb --help` or a `--url` command does not
 * load the engine and its dependencies, and `storedb serve` keeps the
 * service's config-first loading. It starts with a shebang: it is the
 * package's `bin`.
 */
export function cliBuildOptions(outdir) {
  return {
    ...bundleOptions,
    entryPoints: { cli: CLI_ENTRY },
    outdir,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
  };
}

/** Bundles the command into `dir/cli.js` (put it under the checkout, so its imports resolve). */
export async function buildCli(dir) {
  await build({ ...cliBuildOptions(dir), logLevel: "error" });
  return path.join(dir, "cli.js");
}

/** Bundles the service into `outfile` (put it under the checkout, so its imports resolve). */
export async function buildServer(outfile) {
  await build({ ...bundleOptions, entryPoints: [SERVER_ENTRY], outfile, logLevel: "error" });
}
