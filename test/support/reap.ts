/**
 * Child processes a test starts die with the test process: killed when it
 * exits, and when it is stopped by SIGINT, SIGTERM or SIGHUP. Without this,
 * a suite stopped midway (a timeout, Ctrl-C) or ending before its `after`
 * hooks left its servers running, each holding its data directory's lock,
 * its port and its memory until someone found it.
 */

import type { ChildProcess } from "node:child_process";

const live = new Map<ChildProcess, NodeJS.Signals>();
let hooked = false;

function killAll(): void {
  for (const [child, signal] of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
  live.clear();
}

/** Registers `child` to be sent `signal` (default SIGKILL) if it outlives the test process. */
export function reapOnExit<T extends ChildProcess>(child: T, signal: NodeJS.Signals = "SIGKILL"): T {
  live.set(child, signal);
  child.once("exit", () => live.delete(child));
  if (!hooked) {
    hooked = true;
    process.once("exit", killAll);
    for (const stop of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.once(stop, () => {
        killAll();
        process.kill(process.pid, stop);
      });
    }
  }
  return child;
}
