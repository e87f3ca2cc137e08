/**
 * `buildApp(options)`: the fastify instance of the service, without
 * listening (fastify's own layout: `main.ts` listens, tests `inject`).
 *
 * Plugins: the request hooks (request id, the shutdown gate's 503, auth's
 * 401, the request log line and the metrics' tally: `request-hooks.ts`),
 * errors (one error handler, one not-found handler), then the routes and the
 * web console's files (`console.ts`). The instance options are chosen
 * deliberately:
 * - No fastify logger: the service logs through its own pino logger
 *   (`request-log.ts`), because a fastify logger costs every request a
 *   child logger and a pair of response listeners.
 * - Only one body parser, for `application/json`, using `JSON.parse`
 *   directly: it keeps a `__proto__` key as an ordinary own property (no
 *   prototype change), so such a body reaches validation and is rejected
 *   there with the right code, instead of fastify's parser refusing it as
 *   "invalid JSON" (`onProtoPoisoning: "error"`) or silently dropping it
 *   (`"remove"`). The parse error's message says where the JSON broke.
 * - Timeouts against slow clients (fastify's `requestTimeout` defaults to
 *   none), and `return503OnClosing: false` so a request that arrives while
 *   closing gets our problem body, not fastify's.
 */

import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, { LogController, type FastifyInstance } from "fastify";
import { StoreError } from "../errors.js";
import { bearerAuth } from "./auth.js";
import { consoleFiles } from "./console.js";
import { DrainGate } from "./drain.js";
import { ServiceMetrics } from "./metrics.js";
import { asStoreError, clientErrorHandler, problemsPlugin, sendProblem } from "./problems.js";
import { requestHooks } from "./request-hooks.js";
import type { ServiceLog } from "./request-log.js";
import { routes, type CommandStore } from "./routes.js";

export interface AppOptions {
  readonly store: CommandStore;
  readonly apiKey?: string | undefined;
  readonly maxBodyBytes: number;
  /** Opened by `main.ts` on SIGTERM/SIGINT; a fresh closed gate when omitted. */
  readonly gate?: DrainGate;
  /** The service's logging (`serviceLog`); no logs when omitted, as in tests. */
  readonly logger?: ServiceLog;
  /** The metrics `/metrics` shows; made here (without storage's measurements) when omitted. */
  readonly metrics?: ServiceMetrics;
}

/** Timeouts, in milliseconds, against clients that send slowly or hold connections. */
export const TIMEOUTS = {
  /** Whole request (headers and body) must arrive within this. */
  requestTimeout: 30_000,
  /** Headers must arrive within this (Node checks it every `connectionsCheckingInterval`). */
  headersTimeout: 10_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeout: 5_000,
  /** A socket with no activity at all is closed after this. */
  connectionTimeout: 60_000,
} as const;

/**
 * What an incoming `X-Request-Id` may be to be kept: 1-128 characters of
 * letters, digits and `-_.:/+=@` — UUIDs, nginx's `$request_id`, base64 and
 * trace ids fit. The id is echoed in a response header and written into log
 * lines and problem details unescaped, so anything else (a quote, a space,
 * two ids joined by a comma) is replaced by one of ours, never trimmed.
 */
export const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

/**
 * Request ids: the caller's `X-Request-Id` when it is acceptable (a proxy in
 * front sends one, so its log and ours share the id), else a random prefix
 * per app and a counter — unique across restarts and instances for any
 * practical log, and cheaper than a UUID per request (the crypto pool refill
 * showed in a point select's profile).
 */
function requestIds(): (request: IncomingMessage) => string {
  const prefix = randomBytes(6).toString("hex");
  let next = 0;
  return (request) => {
    const incoming = request.headers["x-request-id"];
    if (incoming !== undefined && INCOMING_REQUEST_ID.test(incoming as string)) return incoming as string;
    return `${prefix}-${(next++).toString(36)}`;
  };
}

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Without a logger fastify's own request lines go nowhere; this skips even calling for them.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIds(),
    bodyLimit: options.maxBodyBytes,
    requestTimeout: TIMEOUTS.requestTimeout,
    keepAliveTimeout: TIMEOUTS.keepAliveTimeout,
    connectionTimeout: TIMEOUTS.connectionTimeout,
    http: { headersTimeout: TIMEOUTS.headersTimeout, connectionsCheckingInterval: 1_000 },
    forceCloseConnections: "idle",
    return503OnClosing: false,
    onProtoPoisoning: "ignore",
    onConstructorPoisoning: "ignore",
    clientErrorHandler,
    // A malformed URL fails before routing, outside the error handler.
    frameworkErrors: (error, request, reply) => {
      sendProblem(request, reply, asStoreError(error, options.maxBodyBytes) ?? new StoreError("invalid_request", "The request could not be routed."));
    },
  });

  // A client that asks before sending its body (`Expect: 100-continue`; curl does above 1 MiB) is told to
  // go on only when the body could be read: one declared over the limit gets its answer (413, or whatever
  // comes first) before sending a byte, instead of an upload cut off under it.
  app.server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers["content-length"]) > options.maxBodyBytes)) response.writeContinue();
    app.server.emit("request", request, response);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `: ${error.message}` : "";
      done(new StoreError("invalid_json", `The body is not valid JSON${reason}.`), undefined);
    }
  });

  const metrics = options.metrics ?? new ServiceMetrics(() => options.store.gauges());
  app.register(requestHooks, { gate: options.gate ?? new DrainGate(), authorized: bearerAuth(options.apiKey), log: options.logger, metrics });
  app.register(problemsPlugin, { maxBodyBytes: options.maxBodyBytes, log: options.logger });
  app.register(routes, { store: options.store, metrics });
  app.register(consoleFiles, {});
  return app;
}
