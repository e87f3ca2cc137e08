/**
 * The typed HTTP client: `createClient({ url, apiKey }).database("shop")`.
 *
 * A `RemoteDatabase` offers what `Database` offers (`Queryable`): `execute`
 * with a JSON command, `sql` with text and parameters, and the same fluent
 * builder (`src/api`'s `TableQuery`, whose runner here sends the command it
 * builds). Nothing is validated or planned on this side: the server does
 * that, with the one engine, so results and errors are the engine's own —
 * errors arrive as the library's error classes (`problem.ts`). No engine
 * code is loaded by this folder, so a process that only talks to a server
 * stays small.
 *
 * `transaction(steps)` is the batch form of a transaction: the steps (JSON
 * commands or builder queries) go to the server as one `transaction`
 * command, all kept or none. A callback form, as `Database` has, would hold
 * the database across round trips the server cannot see the end of, so the
 * client does not offer one.
 */

import type { DerivedInput } from "../api/expressions.js";
import { TableQuery } from "../api/table-query.js";
import type { Queryable } from "../api/queryable.js";
import type { Result } from "../commands/results.js";
import type { Value } from "../commands/types.js";
import { ConnectionError } from "./connection-error.js";
import { Transport } from "./transport.js";

export { ConnectionError, type ConnectionErrorCode } from "./connection-error.js";

export interface ClientOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:3000`. */
  readonly url: string | URL;
  /** Sent as `Authorization: Bearer <apiKey>` when the server has `STORE_API_KEY` set. */
  readonly apiKey?: string;
  /** How long one attempt may wait for its answer; default 30 000 ms (the server's own request timeout). */
  readonly timeoutMs?: number;
  /** Further attempts where resending is safe (see the README); default 2. */
  readonly retries?: number;
}

export interface Client {
  /** The database named `name` on this server (no request is made until a command is sent). */
  database(name: string): RemoteDatabase;
}

export class RemoteDatabase implements Queryable {
  readonly #transport: Transport;
  readonly #endpoint: URL;

  /** Use `createClient(...).database(name)`. */
  constructor(transport: Transport, readonly name: string) {
    this.#transport = transport;
    this.#endpoint = transport.endpoint(name);
  }

  execute(command: unknown): Promise<Result> {
    return this.#transport.send(this.#endpoint, command);
  }

  sql(text: string, params: readonly Value[] = []): Promise<Result> {
    return this.execute({ kind: "sql", sql: text, params });
  }

  table(name: string | DerivedInput): TableQuery {
    return new TableQuery(name, (command) => this.execute(command));
  }

  /**
   * Runs `steps` (JSON commands, or builder queries not yet run) in order
   * as one `transaction` command: resolves with one result per step, all
   * kept; or rejects with the failing step's error (its `step` says which),
   * nothing kept. Never resent after a broken connection (it writes).
   */
  async transaction(steps: readonly (TableQuery | unknown)[]): Promise<readonly Result[]> {
    const commands = steps.map((step) => (step instanceof TableQuery ? step.toPlan() : step));
    const result = await this.execute({ kind: "transaction", commands });
    if (result.kind !== "transaction") throw new ConnectionError("unexpected_response", `The server answered a transaction with a ${result.kind} result.`);
    return result.results;
  }
}

function positiveInteger(value: number | undefined, fallback: number, what: string, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`createClient: ${what} must be an integer ≥ ${min}.`);
  return value;
}

export function createClient(options: ClientOptions): Client {
  const url = new URL(options.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`createClient: url must be http: or https:, not ${url.protocol}`);
  const transport = new Transport({
    url,
    apiKey: options.apiKey,
    timeoutMs: positiveInteger(options.timeoutMs, 30_000, "timeoutMs", 1),
    retries: positiveInteger(options.retries, 2, "retries", 0),
  });
  return { database: (name) => new RemoteDatabase(transport, name) };
}
