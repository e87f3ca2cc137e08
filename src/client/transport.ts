/**
 * One command to the server: `POST /v1/databases/{name}/commands` (CONTRACT
 * §12) with `{"command": …}`, answered by a §6 result or a §7 problem.
 *
 * Node's built-in `fetch` (undici) keeps connections alive between calls, so
 * a client sending many commands reuses its sockets. Each attempt has its
 * own timeout; a failed attempt is sent again only when `safe-retry.ts`
 * says doing so cannot apply a write twice, after a short pause that grows
 * with each attempt.
 */

import type { Result } from "../commands/results.js";
import { ConnectionError } from "./connection-error.js";
import { errorFromAnswer } from "./problem.js";
import { neverConnected, onlyReads } from "./safe-retry.js";

export interface TransportOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:3000` (a path prefix is kept, for a proxy that mounts storedb below one). */
  readonly url: URL;
  readonly apiKey?: string | undefined;
  readonly timeoutMs: number;
  /** Further attempts after the first, where a retry is safe. */
  readonly retries: number;
}

/** Pause before attempt n+1 (ms): 100, 200, 400, … */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
}

/** The innermost reason a `fetch` failed: Node's error code where there is one (`ECONNREFUSED`), else its message. */
function rootCause(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  if (inner instanceof AggregateError && inner.errors[0] instanceof Error) inner = inner.errors[0];
  if (!(inner instanceof Error)) return String(inner);
  return (inner as NodeJS.ErrnoException).code ?? inner.message;
}

type Attempt = { readonly result: Result } | { readonly error: Error; readonly retry: boolean };

export class Transport {
  readonly #options: TransportOptions;
  readonly #headers: Record<string, string>;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#headers = { "content-type": "application/json", accept: "application/json, application/problem+json" };
    if (options.apiKey !== undefined) this.#headers.authorization = `Bearer ${options.apiKey}`;
  }

  /** The endpoint of database `name`. */
  endpoint(name: string): URL {
    const base = this.#options.url.href.endsWith("/") ? this.#options.url.href : `${this.#options.url.href}/`;
    return new URL(`v1/databases/${encodeURIComponent(name)}/commands`, base);
  }

  async send(endpoint: URL, command: unknown): Promise<Result> {
    // Serialized once: a command that cannot be JSON (a cycle, a BigInt) fails here, before any attempt.
    const body = JSON.stringify({ command });
    const reads = onlyReads(command);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#attempt(endpoint, body, reads);
      if ("result" in outcome) return outcome.result;
      if (!outcome.retry || attempt >= this.#options.retries) throw outcome.error;
      await backoff(attempt);
    }
  }

  async #attempt(endpoint: URL, body: string, reads: boolean): Promise<Attempt> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, { method: "POST", headers: this.#headers, body, signal: AbortSignal.timeout(this.#options.timeoutMs) });
      text = await response.text();
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") {
        return { error: new ConnectionError("timeout", `No answer from ${endpoint.origin} within ${this.#options.timeoutMs} ms.`, { cause: error }), retry: false };
      }
      const refused = neverConnected(error);
      const reason = refused ? "could not connect" : "no answer came";
      return { error: new ConnectionError("connection_failed", `${endpoint.origin}: ${reason} (${rootCause(error)}).`, { cause: error }), retry: refused || reads };
    }
    if (response.ok) {
      try {
        return { result: JSON.parse(text) as Result };
      } catch (error) {
        return { error: new ConnectionError("unexpected_response", `The server answered ${response.status} with a body that is not JSON.`, { status: response.status, cause: error }), retry: false };
      }
    }
    const error = errorFromAnswer(response.status, text);
    // 503 shutting_down: the drain gate turned the command away unrun.
    return { error, retry: "code" in error && error.code === "shutting_down" };
  }
}
