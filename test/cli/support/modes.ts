/**
 * The two ways a `storedb` command reaches a database, for tests that run
 * every case both ways: on the data directory `./data` of the working
 * directory, or through a real server (a process serving that same
 * directory, with an API key) with `--url`.
 */

import path from "node:path";
import { serverEnv, startServer, type ServerProcess } from "../../server/support/server-process.js";
import { cleanEnv, runCli, type RunOptions, type RunResult } from "./cli-process.js";

export type ModeKind = "data" | "url";

export const MODES: readonly ModeKind[] = ["data", "url"];

export const API_KEY = "cli-test-key-0123456789abcdef0123456789";

export interface Mode {
  readonly kind: ModeKind;
  readonly cwd: string;
  /** Options that point a command at the database, given right after the subcommand. */
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly server?: ServerProcess;
  /** Runs `storedb <subcommand> <mode options> <rest…>`. */
  run(args: readonly string[], options?: Omit<RunOptions, "cwd" | "env">): Promise<RunResult>;
  close(): Promise<void>;
}

export async function openMode(kind: ModeKind, cwd: string): Promise<Mode> {
  let server: ServerProcess | undefined;
  let args: string[] = [];
  let env = cleanEnv();
  if (kind === "url") {
    server = await startServer(serverEnv(path.join(cwd, "data"), { STORE_API_KEY: API_KEY }));
    args = ["--url", server.url];
    env = cleanEnv({ STORE_API_KEY: API_KEY });
  }
  return {
    kind,
    cwd,
    args,
    env,
    ...(server ? { server } : {}),
    run: ([subcommand, ...rest], options = {}) => runCli([subcommand as string, ...args, ...rest], { ...options, cwd, env }),
    close: async () => {
      await server?.stop();
    },
  };
}
