/**
 * Structured request logs: one JSON line per answered request, through
 * fastify's pino logger, with the request id (pino child binding `reqId`),
 * method, path, database, command kind, status, error code and duration.
 * Every answer carries the same id in `X-Request-Id`.
 *
 * fastify's own two lines per request are turned off in `app.ts`; this one
 * line carries what an operator needs. The Authorization header is redacted
 * from every line (CONTRACT §8) even though no serializer here emits
 * headers, so a debug log of a raw request cannot leak the key either.
 */

import type { FastifyRequest, FastifyServerOptions } from "fastify";
import type { ErrorCode } from "../errors.js";
import type { LogLevel } from "./config.js";
import { batchedLines, type LineSink } from "./log-lines.js";
import { rootPlugin } from "./plugin.js";

interface Outcome {
  database?: string;
  command?: string;
  code?: ErrorCode;
}

const outcomes = new WeakMap<FastifyRequest, Outcome>();

function outcomeOf(request: FastifyRequest): Outcome {
  let outcome = outcomes.get(request);
  if (outcome === undefined) {
    outcome = {};
    outcomes.set(request, outcome);
  }
  return outcome;
}

/** Records which database and command kind a request ran, for its log line. */
export function noteCommand(request: FastifyRequest, database: string, command: string): void {
  const outcome = outcomeOf(request);
  outcome.database = database;
  outcome.command = command;
}

/** Records the error code a request was answered with, for its log line. */
export function noteOutcome(request: FastifyRequest, code: ErrorCode): void {
  outcomeOf(request).code = code;
}

export const REDACTED_PATHS = [
  "req.headers.authorization",
  "request.headers.authorization",
  "headers.authorization",
  'req.headers["authorization"]',
];

/** The service's logger options: JSON lines to `stream` (stdout, batched per turn), Authorization redacted. */
export function loggerOptions(level: LogLevel, stream: LineSink = batchedLines()): Exclude<FastifyServerOptions["logger"], boolean | undefined> {
  return { level, stream, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
}

export const requestLogPlugin = rootPlugin((app, _options, done) => {
  // Clients quote this id when they report a problem; the log lines carry it as `reqId`.
  app.addHook("onRequest", (request, reply, next) => {
    reply.header("x-request-id", request.id);
    next();
  });
  app.addHook("onResponse", (request, reply, next) => {
    const outcome = outcomes.get(request);
    request.log.info(
      {
        method: request.method,
        path: request.routeOptions.url ?? request.url.split("?")[0],
        database: outcome?.database,
        command: outcome?.command,
        status: reply.statusCode,
        code: outcome?.code,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
      },
      "request completed",
    );
    next();
  });
  done();
});
