/**
 * The `storedb` command on a pseudo-terminal, as a person meets the shell.
 *
 * util-linux `script` gives the command a real pty (so `isTTY` is true and
 * readline edits lines and recalls history), forwards what the test types
 * and returns the command's exit code (`-e`). Output is read with ANSI
 * escapes and carriage returns stripped; `waitFor` polls it, so a test
 * waits for what the screen shows rather than for a fixed time.
 */

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cliBundle, cleanEnv } from "./cli-process.js";
import { reapOnExit } from "../../support/reap.js";

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\r/g;

export class Terminal {
  #raw = "";
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (this.#raw += chunk));
    this.exited = new Promise((resolve) => child.on("close", (code) => resolve(code)));
  }

  /** Starts `storedb <args>` on a pty, in `cwd`, with `HOME` = `home` (where the history lives). */
  static async start(args: readonly string[], cwd: string, home: string): Promise<Terminal> {
    const quoted = [process.execPath, await cliBundle(), ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const child = reapOnExit(spawn("script", ["-qfec", quoted, "/dev/null"], { cwd, env: cleanEnv({ HOME: home, TERM: "xterm", COLUMNS: "120", LINES: "40" }) }));
    return new Terminal(child);
  }

  /** Everything shown so far, without escape sequences. */
  get screen(): string {
    return this.#raw.replace(ANSI, "");
  }

  /** Types `text` (use "\r" for Enter, "\x03" for Ctrl-C, "\x04" for Ctrl-D, "\x1b[A" for Up). */
  type(text: string): void {
    this.child.stdin.write(text);
  }

  /** Waits until the screen, after `from` characters, matches `pattern`; returns the text from `from` on. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.screen.slice(from);
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; the screen shows:\n${this.screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Types a line and waits for the next prompt after it; returns what it printed. */
  async line(text: string, prompt = /\n\S*> $/): Promise<string> {
    const from = this.screen.length;
    this.type(`${text}\r`);
    return this.waitFor(prompt, from);
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
