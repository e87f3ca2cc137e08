/**
 * `npm run bench`: every benchmark, one after the other, each in its own
 * process so one's heap does not disturb the next. Each prints its own table
 * of figures and ratios against its peers. `npm run bench -- parser` runs one.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const all = ["parser", "executor", "recursive", "json", "storage", "http", "import", "writes"];
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;

let failures = 0;
for (const name of chosen) {
  const file = path.join(here, `${name}.ts`);
  if (!existsSync(file)) {
    console.log(`\n== ${name}: no benchmark yet`);
    continue;
  }
  console.log(`\n== ${name}`);
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", file], { stdio: "inherit" });
  if (run.status !== 0) failures += 1;
}
process.exit(failures === 0 ? 0 : 1);
