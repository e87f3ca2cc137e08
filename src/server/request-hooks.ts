/**
 * The service's per-request hooks: one `onRequest` and one `onSend`, each
 * running every concern of its phase in order, instead of a hook per concern.
 *
 * - `onRequest`: note the start time, set `X-Request-Id`, refuse with 503
 *   while draining (before auth or any work), then check the bearer token.
 * - `onSend`: count the request in the metrics, write its log line.
 *
 * While draining, idle connections are swept closed (`drain.ts`).
 *
 * Why one hook per phase, and why `onSend` rather than `onResponse`: fastify
 * runs each phase's hooks through a runner that allocates its closures per
 * request, and any `onResponse` hook — like any fastify logger — makes it
 * attach and later remove `finish` and `error` listeners on every response.
 * fastify gets no logger here (`app.ts`) and there is no `onResponse` hook, so
 * none of that runs. Measured under bench/http's point selects, over ten
 * interleaved pairs of fresh processes: a hook per concern, `onResponse` for
 * the line and a fastify logger cost ~0.9 µs of ~19.5 µs of server CPU per
 * request more than this.
 *
 * A request's duration is therefore measured up to the moment its answer,
 * serialized, goes to the socket — as most request loggers measure it — not
 * until the socket took the last byte.
 */

import { performance } from "node:perf_hooks";
import type { FastifyReply, FastifyRequest } from "fastify";
import { StoreError } from "../errors.js";
import { closeIdleWhileDraining, type DrainGate } from "./drain.js";
import type { ServiceMetrics } from "./metrics.js";
import { UNMATCHED } from "./outcome.js";
import { rootPlugin } from "./plugin.js";
import { requestLine, writesRequestLines, type ServiceLog } from "./request-log.js";

declare module "fastify" {
  interface FastifyRequest {
    /** `performance.now()` when the request reached its hooks. */
    storeStarted: number;
  }
}

export interface RequestHookOptions extends Record<string, unknown> {
  readonly gate: DrainGate;
  /** Whether a request may proceed (`auth.ts`); every request may when no key is configured. */
  readonly authorized?: ((request: FastifyRequest) => boolean) | undefined;
  /** Where request lines go; none when the service logs nothing, or nothing at `info`. */
  readonly log?: ServiceLog | undefined;
  readonly metrics: ServiceMetrics;
}

export const requestHooks = rootPlugin<RequestHookOptions>((app, { gate, authorized, log, metrics }, done) => {
  app.decorateRequest("storeStarted", 0);
  app.decorateRequest("storeOutcome", null);

  app.addHook("onRequest", (request, reply, next) => {
    request.storeStarted = performance.now();
    // Clients quote this id when they report a problem; the log lines carry it as `reqId`.
    reply.header("x-request-id", request.id);
    if (gate.draining) return next(new StoreError("shutting_down", "The server is shutting down; retry shortly."));
    if (authorized !== undefined && !authorized(request)) {
      return next(new StoreError("unauthorized", "Send Authorization: Bearer <key> with the configured API key."));
    }
    next();
  });

  closeIdleWhileDraining(app, gate);

  const lines = log !== undefined && writesRequestLines(log) ? log.lines : undefined;
  app.addHook("onSend", (request: FastifyRequest, reply: FastifyReply, _payload: unknown, next: () => void) => {
    const ms = performance.now() - request.storeStarted;
    const outcome = request.storeOutcome;
    metrics.record(outcome?.route ?? UNMATCHED, outcome?.command ?? "", reply.statusCode, ms / 1000);
    lines?.write(requestLine(request, reply, ms));
    next();
  });
  done();
});
