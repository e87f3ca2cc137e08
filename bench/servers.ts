/**
 * What the HTTP benchmarks share about the servers they start as child
 * processes: sending a command, reading a process's CPU time, stopping it.
 */

import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

export interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

/** POST /v1/commands with `body`; the answer's text, or an error naming the status. */
export async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}/v1/commands`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text}`);
  return text;
}

/** CPU time (user + system) a process has used, in ms, from /proc (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Stops a server and waits for it to exit (storedb releases its data directory then). */
export async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}
