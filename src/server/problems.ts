/**
 * Every error answer, in one place: RFC 9457 problem details with the
 * CONTRACT §7 codes (`application/problem+json`).
 *
 * One error handler and one not-found handler turn whatever was thrown —
 * our `StoreError`s and fastify's own errors (content type, body limit,
 * content length, bad URL) — into a problem. A code's status and title come
 * from `src/errors.ts`; `detail` is the StoreError's message, written for
 * people. Anything else is unexpected: it is logged with the request id and
 * answered 500 `internal_error` with a fixed detail naming only the request
 * id (also in every answer's `X-Request-Id`), so no stack trace, file
 * path or internal message leaves the process.
 */

import type { Duplex } from "node:stream";
import type { FastifyError, FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { StoreError } from "../errors.js";
import { rootPlugin } from "./plugin.js";
import { noteOutcome } from "./outcome.js";
import { logRequestError, type ServiceLog } from "./request-log.js";

/** Seconds a client should wait before retrying a request refused during shutdown. */
export const RETRY_AFTER_SECONDS = 5;

export interface ProblemOptions extends Record<string, unknown> {
  readonly maxBodyBytes: number;
  /** Where unexpected and server-side errors are logged, with their request id. */
  readonly log?: ServiceLog | undefined;
}

export const problemsPlugin = rootPlugin<ProblemOptions>((app, options, done) => {
  /** Every method some route answers, for 405 `Allow` (fastify itself answers 404). */
  const knownMethods = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) knownMethods.add(method);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    // The router matches parametric routes (`/v1/databases/:name/commands`) against the concrete path.
    const methods = [...knownMethods].filter((method) => app.findRoute({ method: method as HTTPMethods, url: path }) !== null);
    if (methods.length === 0) {
      sendProblem(request, reply, new StoreError("not_found", `No route for ${request.method} ${path}.`));
      return;
    }
    const allow = methods.sort().join(", ");
    reply.header("allow", allow);
    sendProblem(request, reply, new StoreError("method_not_allowed", `${path} accepts ${allow}.`));
  });

  app.setErrorHandler((error, request, reply) => {
    const known = asStoreError(error, options.maxBodyBytes);
    if (known !== undefined && known.code !== "internal_error") {
      if (known.status >= 500) logRequestError(options.log, request, error, "command failed on the server side");
      sendProblem(request, reply, known);
      return;
    }
    logRequestError(options.log, request, error, "unexpected error");
    sendProblem(request, reply, new StoreError("internal_error", `The server failed to process the request; the server log has the details under request id ${request.id}.`));
  });
  done();
});

/** Writes one problem answer, with the headers its code calls for. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: StoreError): void {
  if (error.code === "unauthorized") reply.header("www-authenticate", "Bearer");
  if (error.code === "shutting_down") reply.header("retry-after", String(RETRY_AFTER_SECONDS));
  noteOutcome(request, error.code);
  reply.code(error.status).type("application/problem+json").send(error.toProblem());
}

/** Maps what was thrown to a §7 error; undefined when it is not one we expect. */
export function asStoreError(error: unknown, maxBodyBytes: number): StoreError | undefined {
  if (error instanceof StoreError) return error;
  if (typeof error !== "object" || error === null) return undefined;
  const { code, statusCode } = error as Partial<FastifyError>;
  switch (code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new StoreError("unsupported_media_type", "Send the body with Content-Type: application/json.");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new StoreError("payload_too_large", `The body is larger than the limit of ${maxBodyBytes} bytes.`);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new StoreError("invalid_json", "The body is empty; send a JSON envelope.");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new StoreError("invalid_json", "The body is not valid JSON.");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new StoreError("invalid_request", "Content-Length does not match the body.");
    case "FST_ERR_BAD_URL":
      return new StoreError("invalid_request", "The request URL is malformed.");
    default:
      // Other client errors fastify raises itself (e.g. an aborted body) keep a 400; anything else is ours to fix.
      if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500 && code?.startsWith("FST_")) {
        return new StoreError("invalid_request", "The request could not be read.");
      }
      return undefined;
  }
}

/**
 * Answers a request Node's HTTP parser rejected before fastify saw it
 * (malformed, headers too large, too slow). §7 has no 408/431 code, so these
 * are 400 `invalid_request`; the connection is closed, as Node does.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    const detail =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "The request did not arrive in time."
        : error.code === "HPE_HEADER_OVERFLOW"
          ? "The request headers are too large."
          : "The request is not valid HTTP.";
    const body = JSON.stringify(new StoreError("invalid_request", detail).toProblem());
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
