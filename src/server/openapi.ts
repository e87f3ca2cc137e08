/**
 * The OpenAPI 3.1 document of the service (`GET /v1/openapi.json`, and
 * `docs/openapi.json` through `npm run openapi`), generated from the objects
 * the server itself uses, so it cannot describe another service:
 * - request bodies and every command, expression and table schema: the JSON
 *   Schemas the routes validate with (`src/commands/schema.ts`);
 * - results: `src/commands/result-schema.ts` (checked against real answers);
 * - errors: the code table of `src/errors.ts` — each operation lists, per
 *   status, the codes it can answer with, as RFC 9457 problem details;
 * - paths: `paths.ts`, the table the routes register.
 * A new command kind, expression type or error code therefore reaches the
 * document by re-running `npm run openapi`; a new route needs its
 * operation below (the test fails until it has one).
 *
 * The command schemas are draft-07 style with Ajv's `discriminator` (a bare
 * `propertyName`). The conversion moves `definitions` to
 * `components/schemas`, rewrites `$ref`s, and gives every discriminator the
 * explicit `mapping` OpenAPI tools need (they would otherwise map a tag
 * value to the component of that name: `literal` to `literal`, not to
 * `literalExpr`), read from each branch's `const`.
 */

import pkg from "../../package.json" with { type: "json" };
import { commandBodySchema, databaseNameSchema, definitions, envelopeSchema } from "../commands/schema.js";
import { resultDefinitions } from "../commands/result-schema.js";
import { ERROR_CODES, statusOf, titleOf, type ErrorCode } from "../errors.js";
import { PATHS } from "./paths.js";
import { RETRY_AFTER_SECONDS } from "./problems.js";

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SCHEMAS = "#/components/schemas/";

/** Copies `value`, pointing `#/definitions/x` references at `components/schemas/x` and completing discriminators. */
function convert(value: unknown, schemas: Readonly<Record<string, unknown>>): Json {
  if (Array.isArray(value)) return value.map((item) => convert(item, schemas));
  if (typeof value !== "object" || value === null) return value as Json;
  const out: JsonObject = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === "$id" || key === "definitions") continue;
    if (key === "$ref" && typeof member === "string") out[key] = member.replace("#/definitions/", SCHEMAS);
    else out[key] = convert(member, schemas);
  }
  const discriminator = (value as { discriminator?: { propertyName: string } }).discriminator;
  const branches = (value as { oneOf?: { $ref?: string }[] }).oneOf;
  if (discriminator !== undefined && branches !== undefined) {
    const mapping: JsonObject = {};
    for (const branch of branches) {
      const name = branch.$ref?.replace("#/definitions/", "") ?? "";
      const tag = (schemas[name] as { properties?: Record<string, { const?: unknown }> } | undefined)?.properties?.[discriminator.propertyName]?.const;
      if (typeof tag !== "string") throw new Error(`openapi: ${name} has no const ${discriminator.propertyName} for its discriminator`);
      mapping[tag] = `${SCHEMAS}${name}`;
    }
    out["discriminator"] = { propertyName: discriminator.propertyName, mapping };
  }
  return out;
}

const ref = (name: string): JsonObject => ({ $ref: `${SCHEMAS}${name}` });
const json = (schema: Json): JsonObject => ({ "application/json": { schema } });

/** Codes no operation answers: the request matched no route, or not with its method. */
const ROUTE_CODES: readonly ErrorCode[] = ["not_found", "method_not_allowed"];
/** Every operation can answer these: the drain gate and unexpected failures (auth is added per operation). */
const ANY_OPERATION: readonly ErrorCode[] = ["internal_error", "shutting_down"];
/** A command can fail with any code that is not about routing. */
const COMMAND_CODES = ERROR_CODES.filter((code) => !ROUTE_CODES.includes(code));

/** Headers some problems carry beside `X-Request-Id`. */
const PROBLEM_HEADERS: Partial<Record<ErrorCode, [string, string]>> = {
  unauthorized: ["WWW-Authenticate", "wwwAuthenticate"],
  shutting_down: ["Retry-After", "retryAfter"],
  method_not_allowed: ["Allow", "allow"],
};

/** One response per status, its `code` narrowed to the `codes` of that status. */
function problemResponses(codes: readonly ErrorCode[]): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: JsonObject = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) responses[String(status)] = problemResponse(status, group);
  return responses;
}

function problemResponse(status: number, codes: readonly ErrorCode[]): JsonObject {
  const headers: JsonObject = { "X-Request-Id": { $ref: "#/components/headers/requestId" } };
  for (const code of codes) {
    const header = PROBLEM_HEADERS[code];
    if (header !== undefined) headers[header[0]] = { $ref: `#/components/headers/${header[1]}` };
  }
  const schema: JsonObject = {
    allOf: [ref("problem"), { type: "object", properties: { status: { const: status }, code: { enum: [...codes] } } }],
  };
  return {
    description: codes.map((code) => `\`${code}\` (${titleOf(code)})`).join(", "),
    headers,
    content: { "application/problem+json": { schema } },
  };
}

function ok(description: string, content: JsonObject): JsonObject {
  return { description, headers: { "X-Request-Id": { $ref: "#/components/headers/requestId" } }, content };
}

/** An operation behind the key: 401 joins its codes. */
function operation(spec: { id: string; summary: string; description: string; success: JsonObject; codes: readonly ErrorCode[]; extra?: JsonObject }): JsonObject {
  const codes = ERROR_CODES.filter((code) => code === "unauthorized" || ANY_OPERATION.includes(code) || spec.codes.includes(code));
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: spec.description,
    ...spec.extra,
    responses: { "200": spec.success, ...problemResponses(codes) },
  };
}

/** A file of the web console: public, revalidated by its ETag (`console.ts`). */
function consoleFile(spec: { id: string; summary: string; description: string; types: readonly string[]; codes: readonly ErrorCode[]; extra?: JsonObject }): JsonObject {
  const text = (description: string): JsonObject => ({ description, schema: { type: "string" } });
  const requestId = { $ref: "#/components/headers/requestId" };
  const etag = text("A digest of the file's bytes; send it back as `If-None-Match`.");
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: spec.description,
    security: [],
    ...spec.extra,
    responses: {
      "200": {
        description: "The file, as shipped in the package.",
        headers: {
          "X-Request-Id": requestId,
          ETag: etag,
          "Cache-Control": text("`no-cache`: revalidate on every use."),
          "Content-Security-Policy": text("Scripts, styles, images and requests from this origin only; no inline script or style; no framing."),
        },
        content: Object.fromEntries(spec.types.map((type) => [type, { schema: { type: "string" } }])),
      },
      "304": { description: "Unchanged since the ETag in `If-None-Match`.", headers: { "X-Request-Id": requestId, ETag: etag } },
      ...problemResponses(ERROR_CODES.filter((code) => ANY_OPERATION.includes(code) || spec.codes.includes(code))),
    },
  };
}

/** `/v1/databases/:name/commands` → `/v1/databases/{name}/commands`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

function components(): JsonObject {
  const sources: Record<string, unknown> = { ...definitions, ...resultDefinitions };
  const schemas: JsonObject = {};
  for (const [name, schema] of Object.entries(sources)) schemas[name] = convert(schema, sources);
  const own: JsonObject = {
    databaseName: convert(databaseNameSchema, sources),
    envelope: convert(envelopeSchema, sources),
    commandBody: convert(commandBodySchema, sources),
    problem: {
      type: "object",
      description: "RFC 9457 problem details.",
      required: ["status", "code", "title", "detail"],
      properties: {
        status: { type: "integer", description: "The HTTP status." },
        code: { enum: [...ERROR_CODES], description: "Stable; the title is fixed per code." },
        title: { type: "string" },
        detail: { type: "string", description: "This occurrence, for people; never a file path or stack trace." },
        position: {
          type: "object",
          description: "Where a SQL error starts: 1-based line and column, 0-based offset, in UTF-16 code units.",
          required: ["line", "column", "offset"],
          properties: { line: { type: "integer", minimum: 1 }, column: { type: "integer", minimum: 1 }, offset: { type: "integer", minimum: 0 } },
        },
        expected: { type: "array", items: { type: "string" }, description: "Token names a SQL syntax error expected." },
        errors: { type: "array", items: ref("problemEntry"), description: "Row-level problems of a validation or constraint error." },
        step: { type: "integer", minimum: 0, description: "A transaction's failing step: the 0-based index of its command (nothing of the transaction was kept)." },
      },
    },
    databaseList: {
      type: "object",
      required: ["databases"],
      properties: {
        databases: {
          type: "array",
          description: "Sorted by name.",
          items: {
            type: "object",
            required: ["name", "bytes", "tables"],
            properties: {
              name: ref("databaseName"),
              bytes: { type: "integer", minimum: 0, description: "Bytes on disk: the document, plus its journal when there is one." },
              tables: {
                type: ["array", "null"],
                items: { type: "string" },
                description: "Table names, sorted; null when the document does not parse.",
              },
            },
          },
        },
      },
    },
    health: { type: "object", required: ["status"], properties: { status: { const: "ok" } } },
  };
  for (const [name, schema] of Object.entries(own)) {
    if (name in schemas) throw new Error(`openapi: two schemas named ${name}`);
    schemas[name] = schema;
  }
  return {
    schemas,
    headers: {
      requestId: { description: "The request's id: the caller's own `X-Request-Id` when acceptable (1-128 of `A-Za-z0-9-_.:/+=@`), else one the server made.", schema: { type: "string" } },
      wwwAuthenticate: { description: "`Bearer`.", schema: { type: "string" } },
      retryAfter: { description: `Seconds to wait before retrying (${RETRY_AFTER_SECONDS}).`, schema: { type: "integer" } },
      allow: { description: "The methods the path accepts.", schema: { type: "string" } },
    },
    responses: {
      notFound: problemResponse(404, ["not_found"]),
      methodNotAllowed: problemResponse(405, ["method_not_allowed"]),
    },
    securitySchemes: {
      apiKey: { type: "http", scheme: "bearer", description: "The server's `STORE_API_KEY`; needed on every route but `/health` when the server has a key." },
    },
  };
}

function paths(): JsonObject {
  const command = (id: string, summary: string, body: string, extra: JsonObject) =>
    operation({
      id,
      summary,
      description: "Runs one command. Mutations are durable before the answer.",
      success: ok("The command's result.", json(ref("result"))),
      codes: COMMAND_CODES,
      extra: { ...extra, requestBody: { required: true, content: json(ref(body)) } },
    });
  return {
    [openApiPath(PATHS.databaseCommands)]: {
      post: command("runCommand", "Run a command on the database named in the path", "commandBody", {
        parameters: [{ name: "name", in: "path", required: true, description: "The database: 1-64 lower-case letters, digits, _ or -, starting with a letter or digit, not a device name.", schema: ref("databaseName") }],
      }),
    },
    [PATHS.commands]: {
      post: command("runEnvelopeCommand", "Run a command on the database named in the body", "envelope", {}),
    },
    [PATHS.databases]: {
      get: operation({
        id: "listDatabases",
        summary: "List the databases",
        description: "Every database in the data directory with its bytes on disk and table names, without loading any.",
        success: ok("The databases, sorted by name.", json(ref("databaseList"))),
        codes: ["storage_error"],
      }),
    },
    [PATHS.openapi]: {
      get: operation({
        id: "openApi",
        summary: "This document",
        description: "The OpenAPI 3.1 document of the service, generated from the schemas the server validates with.",
        success: ok("The document.", json({ type: "object" })),
        codes: [],
      }),
    },
    [PATHS.console]: {
      get: consoleFile({
        id: "console",
        summary: "The web console",
        description: "The console's page: open it in a browser. Its files hold no data and need no key; every data request the page makes carries the key its user typed.",
        types: ["text/html"],
        codes: [],
      }),
    },
    [openApiPath(PATHS.consoleFile)]: {
      get: consoleFile({
        id: "consoleFile",
        summary: "A script, stylesheet or image of the web console",
        description: "The files the console's page loads; any other name is 404.",
        types: ["text/javascript", "text/css", "image/svg+xml"],
        codes: ["not_found"],
        extra: { parameters: [{ name: "file", in: "path", required: true, description: "A file name of the console, such as `main.js`.", schema: { type: "string" } }] },
      }),
    },
    [PATHS.metrics]: {
      get: operation({
        id: "metrics",
        summary: "Metrics for Prometheus",
        description:
          "Requests by route, command kind and status; a latency histogram; open databases; the process's CPU, memory, heap, event-loop lag and GC. Prometheus text format 0.0.4.",
        success: ok("The exposition.", { "text/plain; version=0.0.4; charset=utf-8": { schema: { type: "string" } } }),
        codes: [],
      }),
    },
    [PATHS.health]: {
      get: {
        operationId: "health",
        summary: "Liveness",
        description: "Always open, also when the server has a key.",
        security: [],
        responses: { "200": ok("The service is up.", json(ref("health"))), ...problemResponses(ANY_OPERATION) },
      },
    },
  };
}

/** The document. */
export function openApiDocument(): JsonObject {
  return {
    openapi: "3.1.0",
    info: {
      title: "storedb",
      version: pkg.version,
      description: "Table databases kept as JSON files, served over HTTP: JSON commands, SQL text and query plans on one executor.",
      license: { name: "MIT", identifier: "MIT" },
    },
    security: [{ apiKey: [] }],
    paths: paths(),
    components: components(),
  };
}

let text: string | undefined;

/** The document as JSON text, made once (`GET /v1/openapi.json`). */
export function openApiText(): string {
  text ??= JSON.stringify(openApiDocument());
  return text;
}

/** Where `npm run openapi` writes the document, relative to the repository root. */
export const OPENAPI_FILE = "docs/openapi.json";

/** The document as `npm run openapi` writes it: indented, so a change reads well in a diff. */
export function openApiFileText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
