/**
 * Structured request logs: one JSON line per answered request with the
 * request id (`reqId`), method, path, database, command kind, status, error
 * code and duration. Every answer carries the same id in `X-Request-Id`.
 *
 * The service logs through fastify's pino logger (startup, warnings, errors
 * with their request id, shutdown). The per-request line is the one line
 * written on the hot path, so it is formatted here, in pino's own line format
 * (level, time, pid, hostname, reqId, fields, msg), straight into the same
 * batched destination: pino's generic path — a child logger per request,
 * then serializing an object — measured ~1 µs per request in isolation and
 * ~4 µs of a ~35 µs point select under load (bench/http.ts). For the same
 * reason `request.log`, the child logger fastify makes for every request, is
 * made only when something logs through it (errors do; most requests never).
 *
 * fastify's own two lines per request are turned off in `app.ts`. The
 * Authorization header is redacted from every pino line (CONTRACT §8) even
 * though no serializer here emits headers, so a debug log of a raw request
 * cannot leak the key either; the request line has no headers at all.
 */

import os from "node:os";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from "fastify";
import type { ErrorCode } from "../errors.js";
import type { LogLevel } from "./config.js";
import { batchedLines, type LineSink } from "./log-lines.js";
import { rootPlugin } from "./plugin.js";

/** What a request ran and how it ended, for its log line. */
interface Outcome {
  database?: string;
  command?: string;
  code?: ErrorCode;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Filled in as the request runs; `null` until something is noted. */
    storeOutcome: Outcome | null;
  }
}

function outcomeOf(request: FastifyRequest): Outcome {
  return (request.storeOutcome ??= {});
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

/** The service's logging: pino options for fastify, and the destination the request lines share with them. */
export interface ServiceLog {
  readonly level: LogLevel;
  readonly lines: LineSink;
  readonly fastify: Exclude<FastifyServerOptions["logger"], boolean | undefined>;
}

/** JSON lines to `lines` (stdout, batched per turn), Authorization redacted. */
export function serviceLog(level: LogLevel, lines: LineSink = batchedLines()): ServiceLog {
  return { level, lines, fastify: { level, stream: lines, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } } };
}

/** pino's numeric levels; the request line is written at `info`. */
const LEVELS: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const INFO = 30;

/** The line's constant head after the time, as pino's default `base` writes it. */
const BASE = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())}`;

/** The last path and time formatted, reused while they repeat (one route; every request of a millisecond). */
let lastUrl = "";
let lastPath = '""';
let lastTime = 0;
let lastTimeText = "0";

/** The path of a URL (without its query) as a JSON string. */
function pathJson(url: string): string {
  if (url !== lastUrl) {
    const query = url.indexOf("?");
    lastPath = JSON.stringify(query === -1 ? url : url.slice(0, query));
    lastUrl = url;
  }
  return lastPath;
}

/**
 * Milliseconds rounded to hundredths, as a JSON number ("0.42", "12.05"):
 * formatted from integers, several times cheaper than a double's shortest
 * form (~15 against ~100 ns).
 */
export function hundredths(ms: number): string {
  const total = Math.round(ms * 100);
  if (!(total >= 0 && total <= Number.MAX_SAFE_INTEGER)) return "0";
  const whole = Math.floor(total / 100);
  const rest = total - whole * 100;
  return `${whole}.${rest < 10 ? "0" : ""}${rest}`;
}

/**
 * Quoted without escaping where the text cannot hold a quote, a backslash or a
 * control character: our request ids, methods (llhttp knows only fixed
 * upper-case names), database names (noted after the envelope's pattern
 * check), command kinds (noted after validation), error codes (ours). The
 * path (without the query) may be anything a client sent, so it is escaped.
 */
function requestLine(request: FastifyRequest, reply: FastifyReply): string {
  const outcome = request.storeOutcome;
  let fields = "";
  if (outcome !== null) {
    if (outcome.database !== undefined) fields += `,"database":"${outcome.database}"`;
    if (outcome.command !== undefined) fields += `,"command":"${outcome.command}"`;
  }
  fields += `,"status":${reply.statusCode}`;
  if (outcome?.code !== undefined) fields += `,"code":"${outcome.code}"`;
  const now = Date.now();
  if (now !== lastTime) {
    lastTime = now;
    lastTimeText = String(now);
  }
  // Not `request.routeOptions.url`: that getter builds a dozen-member object on every read.
  return `{"level":${INFO},"time":${lastTimeText}${BASE},"reqId":"${request.id}","method":"${request.method}","path":${pathJson(request.url)}${fields},"durationMs":${hundredths(reply.elapsedTime)},"msg":"request completed"}\n`;
}

export interface RequestLogOptions extends Record<string, unknown> {
  /** Where request lines go; none when the service logs nothing. */
  readonly log?: ServiceLog | undefined;
}

export const requestLogPlugin = rootPlugin<RequestLogOptions>((app, { log }, done) => {
  app.decorateRequest("storeOutcome", null);
  // Clients quote this id when they report a problem; the log lines carry it as `reqId`.
  app.addHook("onRequest", (request, reply, next) => {
    reply.header("x-request-id", request.id);
    next();
  });
  if (log !== undefined && LEVELS[log.level] <= INFO) {
    const { lines } = log;
    app.addHook("onResponse", (request, reply, next) => {
      lines.write(requestLine(request, reply));
      next();
    });
  }
  done();
});

/**
 * fastify's `childLoggerFactory`: `request.log` becomes the usual pino child
 * (bound to `reqId`), created the first time something logs through it.
 */
export function lazyRequestLogger(this: unknown, parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: object): FastifyBaseLogger {
  return new LazyChild(parent, bindings, options) as unknown as FastifyBaseLogger;
}

class LazyChild {
  private made: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}
  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.real.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  fatal(...args: Parameters<FastifyBaseLogger["fatal"]>): void {
    this.real.fatal(...args);
  }
  error(...args: Parameters<FastifyBaseLogger["error"]>): void {
    this.real.error(...args);
  }
  warn(...args: Parameters<FastifyBaseLogger["warn"]>): void {
    this.real.warn(...args);
  }
  info(...args: Parameters<FastifyBaseLogger["info"]>): void {
    this.real.info(...args);
  }
  debug(...args: Parameters<FastifyBaseLogger["debug"]>): void {
    this.real.debug(...args);
  }
  trace(...args: Parameters<FastifyBaseLogger["trace"]>): void {
    this.real.trace(...args);
  }
  silent(...args: Parameters<FastifyBaseLogger["silent"]>): void {
    this.real.silent(...args);
  }
  child(...args: Parameters<FastifyBaseLogger["child"]>): FastifyBaseLogger {
    return this.real.child(...args);
  }
}
