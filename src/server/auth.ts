/**
 * Bearer-token authentication (CONTRACT §8).
 *
 * With a key configured, every request but those to routes marked public
 * (`/health`) needs `Authorization: Bearer <key>`, the scheme matched
 * case-insensitively. The check runs in the `onRequest` hook
 * (`request-hooks.ts`), which fastify also runs for unknown routes, so an
 * unauthenticated client gets 401 before any 404, 405 or 415 and learns
 * nothing about the routes. The comparison hashes both sides to equal-length
 * SHA-256 digests and compares them with `timingSafeEqual`, so neither the
 * key's content nor its length leaks through timing.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";

const BEARER = /^bearer[ \t]+([^ \t]+)[ \t]*$/i;

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Whether a request may proceed under `apiKey`; `undefined` (everyone may) without a key. */
export function bearerAuth(apiKey: string | undefined): ((request: FastifyRequest) => boolean) | undefined {
  if (apiKey === undefined) return undefined;
  const expected = digest(apiKey);
  return (request) => {
    if (request.routeOptions.config.public === true) return true;
    const match = BEARER.exec(request.headers.authorization ?? "");
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
  };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Served without authentication. */
    public?: boolean;
  }
}
