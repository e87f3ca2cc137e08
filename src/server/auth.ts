/**
 * Bearer-token authentication (CONTRACT §8).
 *
 * With a key configured, every request but those to routes marked public
 * (`/health`) needs `Authorization: Bearer <key>`, the scheme matched
 * case-insensitively. The check runs in `onRequest`, which fastify also runs
 * for unknown routes, so an unauthenticated client gets 401 before any 404,
 * 405 or 415 and learns nothing about the routes. The comparison hashes both
 * sides to equal-length SHA-256 digests and compares them with
 * `timingSafeEqual`, so neither the key's content nor its length leaks
 * through timing.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import { StoreError } from "../errors.js";
import { rootPlugin } from "./plugin.js";

export interface AuthOptions extends Record<string, unknown> {
  readonly apiKey: string | undefined;
}

const BEARER = /^bearer[ \t]+([^ \t]+)[ \t]*$/i;

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

export const authPlugin = rootPlugin<AuthOptions>((app, options, done) => {
  const { apiKey } = options;
  if (apiKey !== undefined) {
    const expected = digest(apiKey);
    app.addHook("onRequest", (request, _reply, next) => {
      if (request.routeOptions.config.public === true) return next();
      const match = BEARER.exec(request.headers.authorization ?? "");
      if (match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected)) return next();
      next(new StoreError("unauthorized", "Send Authorization: Bearer <key> with the configured API key."));
    });
  }
  done();
});

declare module "fastify" {
  interface FastifyContextConfig {
    /** Served without authentication. */
    public?: boolean;
  }
}
