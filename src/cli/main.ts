/**
 * The `storedb` command's entry point (`dist/cli.js`, the package's `bin`).
 *
 * Sets the exit code rather than calling `process.exit`, so everything
 * written to stdout reaches a pipe before the process ends.
 */

import { main } from "./program.js";

process.exitCode = await main(process.argv.slice(2));
