/**
 * A real storedb server process for the hostile suites: spawned as a child on
 * a free loopback port over a data directory under os.tmpdir(), talked to
 * over plain `node:http` (not fetch: fetch normalizes `..` in paths and fixes
 * up bodies, and these suites need to send exactly the bytes they mean).
 *
 * Every request has a deadline, so a hang is a test failure rather than a
 * stuck suite, and the process is always killed by `stop()` / `kill()`.
 * `HOSTILE_SERVER_ENTRY` may name a built entry (a bundle of `src/server/main.ts`);
 * by default the TypeScript entry runs under tsx so no build is needed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reapOnExit } from "../../support/reap.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown;
  readonly ms: number;
}

export interface RequestOptions {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Deadline for the whole exchange; past it the request fails as a hang. */
  readonly timeoutMs?: number;
  /** Omit the default `content-type: application/json`. */
  readonly noContentType?: boolean;
  /** Send the body chunked, without a content-length. */
  readonly chunked?: boolean;
}

export interface StartOptions {
  /** Reuse a data directory (restart after a crash); default: a fresh temp dir. */
  readonly dataDir?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly startTimeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `storedb-hostile-${prefix}-`));
}

function entryArgs(): string[] {
  const entry = process.env.HOSTILE_SERVER_ENTRY;
  if (entry) return [path.resolve(ROOT, entry)];
  return ["--import", "tsx", path.join(ROOT, "src/server/main.ts")];
}

export class ServerProcess {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private output = "";
  /** HTTP requests sent so far (fuzz figures count generated cases and the requests they took). */
  requests = 0;
  private exited: Promise<number | null>;
  exitCode: number | null | undefined = undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
    private readonly ownsDir: boolean,
  ) {
    const keep = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.exited = new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        resolve(code);
      }),
    );
  }

  static async start(options: StartOptions = {}): Promise<ServerProcess> {
    const dataDir = options.dataDir ?? tempDir("data");
    const port = await freePort();
    const child = reapOnExit(spawn(process.execPath, entryArgs(), {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? os.tmpdir(),
        STORE_DATA_PATH: dataDir,
        STORE_PORT: String(port),
        STORE_BIND_ADDRESS: "127.0.0.1",
        STORE_LOG_LEVEL: "warn",
        // Under c8, a server stopped gracefully adds its coverage to the run's.
        ...(process.env.NODE_V8_COVERAGE ? { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE } : {}),
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }));
    const server = new ServerProcess(child, port, dataDir, options.dataDir === undefined);
    const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
    while (Date.now() < deadline) {
      if (server.exitCode !== undefined) {
        if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
        throw new Error(`server exited at startup (${server.exitCode}):\n${server.output}`);
      }
      try {
        const reply = await server.request(undefined, { method: "GET", path: "/health", timeoutMs: 1000 });
        if (reply.status === 200) return server;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    await server.stop();
    throw new Error(`server did not answer /health in time:\n${server.output}`);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  /** The last lines the process printed (for failure messages). */
  get log(): string {
    return this.output;
  }

  /** Resident memory of the server process in MiB, from /proc (Linux). */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  }

  /** Runs `work` while sampling this process's RSS every 20 ms; returns its result and the peak in MiB. */
  async peakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
    let peakMiB = this.rssMiB();
    const timer = setInterval(() => {
      if (this.alive) peakMiB = Math.max(peakMiB, this.rssMiB());
    }, 20);
    try {
      const result = await work();
      return { result, peakMiB: Math.max(peakMiB, this.alive ? this.rssMiB() : 0) };
    } finally {
      clearInterval(timer);
    }
  }

  /** POST a command envelope (an object is JSON-encoded; a string or Buffer is sent as is). */
  command(body: unknown, options: RequestOptions = {}): Promise<Reply> {
    const raw = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    return this.request(raw, { method: "POST", path: "/v1/commands", ...options });
  }

  request(body: string | Buffer | undefined, options: RequestOptions = {}): Promise<Reply> {
    this.requests += 1;
    const started = performance.now();
    const headers: Record<string, string> = {};
    if (body !== undefined && !options.noContentType) headers["content-type"] = "application/json";
    Object.assign(headers, options.headers);
    if (body !== undefined && !options.chunked) headers["content-length"] = String(Buffer.byteLength(body));
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: this.port, method: options.method ?? "POST", path: options.path ?? "/v1/commands", headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString("utf8");
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, ms: performance.now() - started });
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`request timed out after ${timeoutMs} ms (${options.method ?? "POST"} ${options.path ?? "/v1/commands"})`));
      }, timeoutMs);
      req.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      if (options.chunked && body !== undefined) {
        const bytes = Buffer.from(body);
        for (let at = 0; at < bytes.length; at += 65536) req.write(bytes.subarray(at, at + 65536));
        req.end();
      } else req.end(body);
    });
  }

  /** Sends a signal and waits for the exit; SIGKILL by default (a crash). */
  async kill(signal: NodeJS.Signals = "SIGKILL"): Promise<number | null> {
    this.agent.destroy();
    if (this.exitCode === undefined) this.child.kill(signal);
    return this.exited;
  }

  /** Stops the process (SIGTERM, SIGKILL after 5 s) and removes the data directory it was given by default. */
  async stop(): Promise<void> {
    if (this.alive) {
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
      await this.kill("SIGTERM");
      clearTimeout(timer);
    }
    if (this.ownsDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** uvu reports a failing `before` hook without its error; this prints it first. */
export function loudHook<T>(hook: (context: T) => Promise<void>): (context: T) => Promise<void> {
  return async (context) => {
    try {
      await hook(context);
    } catch (error) {
      console.error(error);
      throw error;
    }
  };
}
