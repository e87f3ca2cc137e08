/**
 * The `storedb` command's entry point (`dist/cli.js`, the package's `bin`).
 *
 * Sets the exit code rather than calling `process.exit`, so everything
 * written to stdout reaches a pipe before the process ends. A reader that
 * stops reading (`storedb export shop t | head`) ends the command quietly
 * with exit 0: it asked for no more — except a script (`sql`, `shell`),
 * which stops before its next statement and exits 1 (`io.ts`).
 */

import { stdoutClosed } from "./io.js";
import { main } from "./program.js";

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  if (stdoutClosed()) process.exit(0);
});

process.exitCode = await main(process.argv.slice(2));
