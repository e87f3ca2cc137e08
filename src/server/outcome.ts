/**
 * What a request ran and how it ended — its route, database, command kind
 * and error code — noted as it runs and read once at its end by the request
 * log line and the metrics (`request-hooks.ts`).
 *
 * The route is noted by the handler that answers (a field write, nothing
 * looked up), or, for a request refused before its handler ran (auth,
 * content type, validation, body size), where the problem is sent: there
 * fastify's `routeOptions` (an object built per read) is affordable. A
 * request no route matched is `UNMATCHED`.
 */

import type { FastifyRequest } from "fastify";
import type { ErrorCode } from "../errors.js";

/** The route label of a request that matched no route (404, 405). */
export const UNMATCHED = "unmatched";

export interface Outcome {
  /** The route's path as registered (`/v1/databases/:name/commands`), or `UNMATCHED`. */
  route: string;
  database: string | undefined;
  command: string | undefined;
  code: ErrorCode | undefined;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Filled in as the request runs; `null` until something is noted. */
    storeOutcome: Outcome | null;
  }
}

function outcomeOf(request: FastifyRequest, route: string): Outcome {
  return (request.storeOutcome ??= { route, database: undefined, command: undefined, code: undefined });
}

/** Records the route that answers a request. */
export function noteRoute(request: FastifyRequest, route: string): void {
  outcomeOf(request, route);
}

/** Records the route, database and command kind of a command request. */
export function noteCommand(request: FastifyRequest, route: string, database: string, command: string): void {
  request.storeOutcome = { route, database, command, code: undefined };
}

/** Records the error code a request was answered with (and its route, if its handler did not run). */
export function noteOutcome(request: FastifyRequest, code: ErrorCode): void {
  const outcome = request.storeOutcome ?? outcomeOf(request, request.routeOptions.url ?? UNMATCHED);
  outcome.code = code;
}
