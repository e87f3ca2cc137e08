/**
 * The routes: `POST /v1/commands` (CONTRACT §4), its twin
 * `POST /v1/databases/{name}/commands` (§12), `GET /v1/databases` (§12:
 * the listing, `src/storage/listing.ts`), `GET /v1/openapi.json` (§12: the
 * document of `openapi.ts`), `GET /metrics` (`metrics.ts`) and `GET /health`.
 *
 * The two command routes differ only in where the database name comes from
 * — the envelope's `database`, or the path, so a proxy can route by database
 * without reading bodies — and share everything else: the content-type check,
 * strict validation against the schemas of `src/commands/schema.ts`, the log
 * note and the run. Each route declares its schemas and validates them with
 * the same strict validators the engine's surfaces use (installed as the
 * route's validator compiler), so there is one definition of a valid
 * request, not fastify's Ajv copy beside ours. fastify validates the path
 * before the body, so a bad name is `invalid_name` whatever the body holds.
 * The content type is checked in the route's own `onRequest` — after auth,
 * before the body is read — because fastify would hand a POST without a
 * body and without a content type straight to the handler.
 */

import type { FastifyPluginCallback, FastifyReply, FastifyRequest, FastifySchemaCompiler } from "fastify";
import { assertDatabaseName, parseCommandBody, parseEnvelope } from "../commands/index.js";
import { commandBodySchema, databaseParamsSchema, envelopeSchema } from "../commands/schema.js";
import type { Command, CommandBody, Envelope } from "../commands/types.js";
import type { Result } from "../commands/results.js";
import { runChecked } from "../checked.js";
import { StoreError } from "../errors.js";
import { rowSlices } from "../executor/index.js";
import type { StorageGauges } from "../storage/data-directory.js";
import type { DatabaseSummary } from "../storage/listing.js";
import type { ServiceMetrics } from "./metrics.js";
import { openApiText } from "./openapi.js";
import { PATHS } from "./paths.js";
import { noteCommand, noteRoute } from "./outcome.js";
import { rowsStream } from "./rows-stream.js";

/** What the routes run commands on, already validated, and list databases of: `DataDirectory` in the service. */
export interface CommandStore {
  [runChecked](database: string, command: Command): Promise<Result>;
  list(): Promise<readonly DatabaseSummary[]>;
  /** Keeps `database` open until the returned function is called (a streamed answer reads its rows). */
  hold(database: string): () => void;
  /** The open databases, for the metrics. */
  gauges(): StorageGauges;
}

export interface RouteOptions extends Record<string, unknown> {
  readonly store: CommandStore;
  readonly metrics: ServiceMetrics;
}

/** `application/json`, any case, parameters allowed (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;|$)/i;

function requireJson(request: FastifyRequest, _reply: unknown, next: (error?: Error) => void): void {
  if (JSON_MEDIA_TYPE.test(request.headers["content-type"] ?? "")) return next();
  next(new StoreError("unsupported_media_type", "Send the body with Content-Type: application/json."));
}

/** A fastify validator from one of ours: the value it accepts, or the `StoreError` it threw. */
function validatorOf<T>(parse: (data: unknown) => T): (data: unknown) => { value: T } | { error: Error } {
  return (data) => {
    try {
      return { value: parse(data) };
    } catch (error) {
      return { error: error instanceof Error ? error : new StoreError("invalid_request", "The request is not valid.") };
    }
  };
}

const validateEnvelope = validatorOf(parseEnvelope);
const validateCommandBody = validatorOf(parseCommandBody);
const validateParams = validatorOf((params) => {
  assertDatabaseName((params as { name?: unknown }).name);
  return params;
});

/** The path route's validators: its name segment, then its body. */
const databaseRouteValidators: FastifySchemaCompiler<unknown> = ({ httpPart }) => (httpPart === "params" ? validateParams : validateCommandBody);

/** The content type fastify gives a JSON answer; a streamed answer says it too. */
const JSON_TYPE = "application/json; charset=utf-8";

/** Answers with `error` through the error handler (fastify answers an Error that way, anything else as a payload). */
function fail(reply: FastifyReply, error: unknown): void {
  reply.send(error instanceof Error ? error : new Error(`A request failed with ${String(error)}`));
}

/**
 * Answers with what `work` resolves to, or with its error.
 * Not async: answering from `then` skips fastify's wrapper around a handler's promise.
 */
function answer(reply: FastifyReply, work: Promise<unknown>): void {
  work.then(
    (value) => reply.send(value),
    (error: unknown) => fail(reply, error),
  );
}

export const routes: FastifyPluginCallback<RouteOptions> = (app, { store, metrics }, done) => {
  /**
   * Runs a validated command on `database`. A long rows answer streams
   * (`rows-stream.ts`), holding its database open until it ends; the hold is
   * taken in the turn the answer arrives, before the budget can look again.
   */
  const run = (request: FastifyRequest, reply: FastifyReply, route: string, database: string, command: Command): void => {
    noteCommand(request, route, database, command.kind);
    store[runChecked](database, command).then(
      (result) => {
        const slices = result.kind === "rows" ? rowSlices(result) : undefined;
        if (result.kind === "rows" && slices !== undefined) reply.type(JSON_TYPE).send(rowsStream(result, slices, store.hold(database)));
        else reply.send(result);
      },
      (error: unknown) => fail(reply, error),
    );
  };

  app.get(PATHS.health, { config: { public: true } }, (request, reply) => {
    noteRoute(request, PATHS.health);
    reply.send({ status: "ok" });
  });

  app.post(PATHS.commands, { schema: { body: envelopeSchema }, validatorCompiler: () => validateEnvelope, onRequest: requireJson }, (request, reply) => {
    const { database, command } = request.body as Envelope;
    run(request, reply, PATHS.commands, database, command);
  });

  app.get(PATHS.openapi, (request, reply) => {
    noteRoute(request, PATHS.openapi);
    reply.type("application/json").send(openApiText());
  });

  app.get(PATHS.metrics, (request, reply) => {
    noteRoute(request, PATHS.metrics);
    answer(reply.type(metrics.contentType), metrics.text());
  });

  app.get(PATHS.databases, (request, reply) => {
    noteRoute(request, PATHS.databases);
    answer(reply, store.list().then((databases) => ({ databases })));
  });

  app.post(
    PATHS.databaseCommands,
    { schema: { params: databaseParamsSchema, body: commandBodySchema }, validatorCompiler: databaseRouteValidators, onRequest: requireJson },
    (request, reply) => {
      const { name } = request.params as { name: string };
      const { database, command } = request.body as CommandBody;
      if (database !== undefined && database !== name) {
        reply.send(new StoreError("invalid_request", `database: the body names "${database}" but the path names "${name}"; send one name, or the same in both.`));
        return;
      }
      run(request, reply, PATHS.databaseCommands, name, command);
    },
  );
  done();
};
