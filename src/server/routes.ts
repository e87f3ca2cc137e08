/**
 * The routes: `POST /v1/commands` (CONTRACT §4) and `GET /health`.
 *
 * The command route declares the envelope schema of `src/commands/schema.ts`
 * and validates it with `parseEnvelope`, the same strict validator the
 * engine's surfaces use (installed as this route's validator compiler), so
 * there is one definition of a valid request, not fastify's Ajv copy beside
 * ours. The content type is checked in the route's own `onRequest` — after
 * auth, before the body is read — because fastify would hand a POST without
 * a body and without a content type straight to the handler.
 */

import type { FastifyPluginCallback, FastifyRequest } from "fastify";
import { parseEnvelope } from "../commands/index.js";
import { envelopeSchema } from "../commands/schema.js";
import type { Command, Envelope } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { runChecked } from "../checked.js";
import { StoreError } from "../errors.js";
import { noteCommand } from "./request-log.js";

/** What the routes run commands on, already validated: `DataDirectory` in the service. */
export interface CommandStore {
  [runChecked](database: string, command: Command): Promise<Result>;
}

export interface RouteOptions extends Record<string, unknown> {
  readonly store: CommandStore;
}

/** `application/json`, any case, parameters allowed (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;|$)/i;

function requireJson(request: FastifyRequest, _reply: unknown, next: (error?: Error) => void): void {
  if (JSON_MEDIA_TYPE.test(request.headers["content-type"] ?? "")) return next();
  next(new StoreError("unsupported_media_type", "Send the envelope with Content-Type: application/json."));
}

function validateEnvelope(data: unknown): { value: Envelope } | { error: Error } {
  try {
    return { value: parseEnvelope(data) };
  } catch (error) {
    return { error: error instanceof Error ? error : new StoreError("invalid_request", "The body is not a valid envelope.") };
  }
}

export const routes: FastifyPluginCallback<RouteOptions> = (app, { store }, done) => {
  app.get("/health", { config: { public: true } }, (_request, reply) => {
    reply.send({ status: "ok" });
  });

  app.post(
    "/v1/commands",
    {
      schema: { body: envelopeSchema },
      validatorCompiler: () => validateEnvelope,
      onRequest: requireJson,
    },
    // Not an async function: answering from `then` skips fastify's wrapper around a handler's promise.
    (request, reply) => {
      const { database, command } = request.body as Envelope;
      noteCommand(request, database, command.kind);
      store[runChecked](database, command).then(
        (result) => reply.send(result),
        // fastify answers an Error through the error handler, anything else as a payload.
        (error: unknown) => reply.send(error instanceof Error ? error : new Error(`A command failed with ${String(error)}`)),
      );
    },
  );
  done();
};
