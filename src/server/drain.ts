/**
 * Graceful-shutdown gate (CONTRACT §8).
 *
 * `main.ts` opens the gate's drain when a signal arrives, then closes the
 * fastify instance. From that moment a request that still reaches us — on a
 * keep-alive connection that was busy, or pipelined behind one — is answered
 * 503 `shutting_down` with `Retry-After` (fastify adds `Connection: close`
 * while closing), before auth or any work. Requests already in flight run to
 * the end. After each answer the server closes connections that became idle:
 * fastify and Node close idle connections only once, when `close()` starts,
 * so without this a keep-alive connection that was busy at that moment would
 * hold `close()` open until the keep-alive timeout. `Connection: close` is
 * not set on in-flight answers, because Node would then drop answers to
 * requests pipelined behind them instead of sending their 503.
 */

import { StoreError } from "../errors.js";
import { rootPlugin } from "./plugin.js";

export class DrainGate {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    this.#draining = true;
  }
}

export interface DrainOptions extends Record<string, unknown> {
  readonly gate: DrainGate;
}

export const drainPlugin = rootPlugin<DrainOptions>((app, { gate }, done) => {
  app.addHook("onRequest", (_request, _reply, next) => {
    if (gate.draining) return next(new StoreError("shutting_down", "The server is shutting down; retry shortly."));
    next();
  });
  app.addHook("onResponse", (_request, _reply, next) => {
    if (gate.draining) setImmediate(() => app.server.closeIdleConnections());
    next();
  });
  done();
});
