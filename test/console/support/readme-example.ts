/**
 * The README's console example, run: the shell block under "## The web
 * console" generates a key and starts `storedb serve --data ./data`, then
 * says which URL to open. Each line runs for real — the key command in `sh`,
 * the serve line as the `storedb` command (the bundle `npm run build` makes)
 * in a scratch working directory — with one change: port 0 instead of the
 * default 3000, so test runs never collide. The URL to open is the README's
 * with that port.
 */

import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../../../scripts/bundle.mjs";
import { cleanEnv, cliBundle } from "../../cli/support/cli-process.js";
import { reapOnExit } from "../../support/reap.js";

export interface ReadmeServer {
  /** The key the README's command generated. */
  readonly key: string;
  /** The server's origin. */
  readonly url: string;
  /** The URL the README says to open, on the server's port. */
  readonly consoleUrl: string;
  stop(): Promise<number | null>;
}

/** The lines of the README's console example, without comments and blank lines. */
export function readmeExample(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const section = readme.split(/^## /m).find((part) => part.startsWith("The web console\n"));
  const block = section === undefined ? undefined : /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no "## The web console" section with a sh example');
  return block.split("\n").filter((line) => line.trim() !== "");
}

function line(lines: readonly string[], pattern: RegExp, what: string): string {
  const found = lines.find((candidate) => pattern.test(candidate));
  if (found === undefined) throw new Error(`the README's console example has no ${what}`);
  return found;
}

export async function serveReadmeExample(cwd: string): Promise<ReadmeServer> {
  const lines = readmeExample();
  const keyLine = line(lines, /^export STORE_API_KEY=/, "key command");
  const serveLine = line(lines, /^storedb serve\b/, "storedb serve line");
  const open = /http:\/\/127\.0\.0\.1:3000(\/\S*)/.exec(line(lines, /http:\/\/127\.0\.0\.1:3000\//, "URL to open"))![1]!;

  const key = execFileSync("sh", ["-c", `${keyLine}\nprintf %s "$STORE_API_KEY"`], { cwd, encoding: "utf8" });
  if (key.length < 32) throw new Error(`the README's key command made a key of ${key.length} characters; the server warns under 32`);
  const args = serveLine.replace(/#.*$/, "").trim().split(/\s+/).slice(1);

  const child = reapOnExit(spawn(process.execPath, [await cliBundle(), ...args], {
    cwd,
    env: cleanEnv({ STORE_API_KEY: key, STORE_PORT: "0" }),
    stdio: ["ignore", "pipe", "pipe"],
  }));
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`storedb serve did not start: ${stderr}${stdout}`));
    }, 15_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`storedb serve exited (${code}) before listening: ${stderr}${stdout}`));
    });
    child.stdout.on("data", () => {
      const ready = stdout.split("\n").find((text) => text.includes('"storedb ready"'));
      if (ready === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(ready) as { port: number }).port);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    key,
    url,
    consoleUrl: `${url}${open}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
