/**
 * Graceful-shutdown gate (CONTRACT §8).
 *
 * `main.ts` opens the gate's drain when a signal arrives, then closes the
 * fastify instance. From that moment a request that still reaches us — on a
 * keep-alive connection that was busy, or pipelined behind one — is answered
 * 503 `shutting_down` with `Retry-After` (fastify adds `Connection: close`
 * while closing), before auth or any work (`request-hooks.ts`). Requests
 * already in flight run to the end.
 *
 * fastify and Node close idle connections once, when `close()` starts; a
 * keep-alive connection that was busy at that moment would then hold
 * `close()` open until the keep-alive timeout. So while draining, connections
 * that have become idle are closed every `IDLE_SWEEP_MS` until the server has
 * closed: nothing per request, and no answer can slip between a check and
 * its last byte. `Connection: close` is not set on in-flight answers, because
 * Node would then drop answers to requests pipelined behind them instead of
 * sending their 503.
 */

import type { FastifyInstance } from "fastify";

/** While draining, idle connections are closed this often. */
export const IDLE_SWEEP_MS = 20;

export class DrainGate {
  #draining = false;
  readonly #onBegin: (() => void)[] = [];

  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    if (this.#draining) return;
    this.#draining = true;
    for (const listener of this.#onBegin.splice(0)) listener();
  }

  /** Runs `listener` when the drain begins (at once if it has). */
  whenDraining(listener: () => void): void {
    if (this.#draining) listener();
    else this.#onBegin.push(listener);
  }
}

/** Closes `app`'s idle connections every `IDLE_SWEEP_MS` from the drain's start until the instance has closed. */
export function closeIdleWhileDraining(app: FastifyInstance, gate: DrainGate): void {
  let sweep: NodeJS.Timeout | undefined;
  gate.whenDraining(() => {
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
  });
  app.addHook("onClose", (_instance, done) => {
    clearInterval(sweep);
    done();
  });
}
