#!/usr/bin/env node
/**
 * `npm test`: type-check (the service, the console's scripts, the browser tests), then
 * every `test/**\/*.test.ts` file under uvu with c8 coverage, in one process
 * (uvu's own model). uvu prints its own totals;
 * CI reads one closing line, `N passed, N failed`, which this script adds
 * (each failed type-check counts as one failure).
 *
 * `npm test -- <pattern>` runs only the test files whose path matches.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pattern = process.argv[2] ?? "\\.test\\.ts$";
const bin = (name) => path.join(root, "node_modules", name);

/** The environment without colour: NO_COLOR alone (Node warns when FORCE_COLOR is set beside it). */
function plainEnv() {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  return env;
}

let failed = 0;
let passed = 0;

if (process.argv[2] === undefined) {
  // The service's TypeScript; the web console's plain JS modules (JSDoc-typed, DOM, no Node);
  // the browser tests (Node and the DOM, for the functions they run in the page).
  for (const project of [root, path.join(root, "tsconfig.console.json"), path.join(root, "test/console")]) {
    const tsc = spawnSync(process.execPath, [bin("typescript/bin/tsc"), "--noEmit", "-p", project], { stdio: "inherit", cwd: root });
    if (tsc.status === 0) passed += 1;
    else {
      failed += 1;
      console.error(`type-check failed: ${path.relative(root, project) || "tsconfig.json"}`);
    }
  }
}

const run = spawnSync(
  process.execPath,
  [
    bin("c8/bin/c8.js"),
    "--reporter=text-summary",
    "--reports-dir=coverage",
    "--include=src/**",
    // Generated code (Ajv's validators) is checked by its stale test, not by coverage.
    "--exclude=src/**/*.generated.*",
    process.execPath,
    "--import",
    "tsx",
    bin("uvu/bin.js"),
    "test",
    pattern,
  ],
  {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 1 << 30,
    // uvu colours its output even into a pipe; keep CI logs plain text.
    env: process.stdout.isTTY ? process.env : plainEnv(),
  },
);
process.stdout.write(run.stdout ?? "");

const total = Number(/Total:\s+(\d+)/.exec(run.stdout ?? "")?.[1] ?? NaN);
const ok = Number(/Passed:\s+(\d+)/.exec(run.stdout ?? "")?.[1] ?? NaN);
const skipped = Number(/Skipped:\s+(?:\x1b\[\d+m)?(\d+)/.exec(run.stdout ?? "")?.[1] ?? 0);
if (Number.isNaN(total) || Number.isNaN(ok)) {
  // The runner died before its summary (a crash outside any test): that is a failure.
  failed += 1;
  console.error(`test runner exited with status ${run.status} before printing its totals`);
} else {
  passed += ok;
  // uvu's Total counts the tests that ran (skipped ones are not in it).
  failed += total - ok;
  if (run.status !== 0 && total === ok) {
    failed += 1;
    console.error(`test runner exited with status ${run.status}`);
  }
}
console.log(`${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : ""));
process.exit(failed === 0 ? 0 : 1);
