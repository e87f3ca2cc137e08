/**
 * The OpenAPI document: docs/openapi.json is what `npm run openapi` writes
 * now; it is a valid OpenAPI 3.1 document (@readme/openapi-parser: the
 * official schema, references, path parameters, operation ids) whose every
 * schema compiles in strict JSON Schema 2020-12 (Ajv); it names every route
 * the app registers and nothing else, every command kind and every error
 * code; the server serves it; and real answers of the real app — every
 * result kind, many error codes — match the responses it documents, status,
 * content type, headers and body.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { definitions } from "../../src/commands/schema.js";
import { ERROR_CODES } from "../../src/errors.js";
import { buildApp } from "../../src/server/app.js";
import { DrainGate } from "../../src/server/drain.js";
import { OPENAPI_FILE, openApiDocument, openApiFileText } from "../../src/server/openapi.js";
import { DataDirectory } from "../../src/storage/data-directory.js";

type Json = Record<string, any>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "openapi-test-key-0123456789-abcdefghij";
const auth = { authorization: `Bearer ${KEY}` };
const json = { "content-type": "application/json" };
const doc = openApiDocument() as Json;

let dir = "";
let store: DataDirectory;
let app: FastifyInstance;
const gate = new DrainGate();
/** method + fastify path of every route the app registered. */
const registered = new Set<string>();

test.before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-openapi-"));
  store = await DataDirectory.open(dir);
  app = buildApp({ store, apiKey: KEY, maxBodyBytes: 4096, gate });
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) if (method !== "HEAD") registered.add(`${method} ${route.url}`);
  });
  await app.ready();
});

test.after(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test(`${OPENAPI_FILE} is up to date (run \`npm run openapi\` if not)`, () => {
  const onDisk = readFileSync(path.join(root, OPENAPI_FILE), "utf8");
  assert.ok(onDisk === openApiFileText(), `${OPENAPI_FILE} is stale: run \`npm run openapi\` and commit the result`);
});

test("a valid OpenAPI 3.1 document: no errors, no warnings", async () => {
  assert.is(doc.openapi, "3.1.0");
  const result = await validate(structuredClone(doc) as never);
  assert.ok(result.valid, JSON.stringify(result));
  assert.equal(result.warnings, []);
});

test("every schema compiles in strict JSON Schema 2020-12", () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  ajv.addKeyword({ keyword: "discriminator" });
  ajv.addKeyword({ keyword: "components" });
  ajv.addSchema({ $id: "doc", components: doc.components });
  for (const name of Object.keys(doc.components.schemas)) ajv.compile({ $ref: `doc#/components/schemas/${name}` });
});

test("every registered route is documented, and nothing else", () => {
  const documented = new Set<string>();
  for (const [route, item] of Object.entries(doc.paths as Json)) {
    for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ":$1")}`);
  }
  assert.ok(registered.size >= 5, [...registered].join(", "));
  assert.equal([...documented].sort(), [...registered].sort());
});

test("every command kind and every error code is in it", () => {
  const kinds = (definitions.command.oneOf as readonly { $ref: string }[]).map(({ $ref }) => {
    const name = $ref.split("/").pop()! as keyof typeof definitions;
    return (definitions[name] as { properties: { kind: { const: string } } }).properties.kind.const;
  });
  assert.ok(kinds.length >= 10);
  const mapping = doc.components.schemas.command.discriminator.mapping as Record<string, string>;
  assert.equal(Object.keys(mapping).sort(), [...kinds].sort());
  for (const target of Object.values(mapping)) assert.ok(doc.components.schemas[target.split("/").pop()!], target);
  const text = JSON.stringify(doc);
  for (const code of ERROR_CODES) {
    const codes = /"code":\{"enum":\[([^\]]*)\]/g;
    let found = false;
    for (let match = codes.exec(text); match !== null && !found; match = codes.exec(text)) found = match[1]!.split(",").includes(`"${code}"`);
    assert.ok(found, `no response documents ${code}`);
  }
});

test("GET /v1/openapi.json serves the document, behind the key", async () => {
  const response = await app.inject({ method: "GET", url: "/v1/openapi.json", headers: auth });
  assert.is(response.statusCode, 200);
  assert.match(String(response.headers["content-type"]), /^application\/json/);
  assert.equal(response.json(), doc);
  assert.is((await app.inject({ method: "GET", url: "/v1/openapi.json" })).statusCode, 401);
});

// ---------------------------------------------------------------- real answers against the document

const answers = new Ajv2020({ strict: false, allErrors: true });
answers.addSchema(doc, "doc");
const pointer = (...parts: string[]) => `doc#/${parts.map((part) => encodeURIComponent(part.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")}`;

/** The documented response for a request's answer: the operation's, or a route-level one (404 not_found, 405). */
function documented(method: string, url: string, status: number, code: string | undefined): { response: Json; at: string[] } {
  const routePath = url.split("?")[0]!;
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const operation = (item as Json)[method.toLowerCase()];
    if (pattern.test(routePath) && operation !== undefined && code !== "not_found" && code !== "method_not_allowed") {
      const response = operation.responses[String(status)];
      assert.ok(response, `${method} ${template} documents no ${status} (${code})`);
      return { response, at: ["paths", template, method.toLowerCase(), "responses", String(status)] };
    }
  }
  const name = code === "method_not_allowed" ? "methodNotAllowed" : "notFound";
  return { response: doc.components.responses[name], at: ["components", "responses", name] };
}

const checked = new Set<string>();

/** Sends a request and checks its answer against the document. */
async function check(options: InjectOptions, expect: number): Promise<LightMyRequestResponse> {
  const response = await app.inject(options);
  assert.is(response.statusCode, expect, response.body);
  const body = response.json() as Json;
  const code = response.statusCode >= 400 ? (body.code as string) : undefined;
  const { response: spec, at } = documented(String(options.method), String(options.url), response.statusCode, code);
  const type = String(response.headers["content-type"]).split(";")[0]!;
  assert.ok(spec.content[type], `${at.join(" ")}: content type ${type} not documented`);
  for (const header of Object.keys(spec.headers ?? {})) assert.ok(response.headers[header.toLowerCase()] !== undefined, `${at.join(" ")}: header ${header} missing`);
  const schema = answers.getSchema(pointer(...at, "content", type, "schema"))!;
  assert.ok(schema(body), `${at.join(" ")}: ${response.body} does not match: ${JSON.stringify(schema.errors?.slice(0, 3))}`);
  checked.add(code ?? `${options.method} ${String(options.url).split("/")[2] ?? ""} ${body.kind ?? ""}`);
  return response;
}

const post = (url: string, payload: unknown, headers: Record<string, string> = { ...auth, ...json }): InjectOptions => ({
  method: "POST",
  url,
  headers,
  payload: typeof payload === "string" ? payload : JSON.stringify(payload),
});
const onShop = (command: unknown) => post("/v1/databases/shop/commands", { command });
const byId = (id: string) => ({ type: "comparison", op: "=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } });
const users = { name: "users", columns: { id: "text", name: "text", age: "integer" }, primary_key: { columns: ["id"] }, required: ["name"], indexes: [{ name: "by_name", columns: ["name"] }] };
const orders = {
  name: "orders",
  columns: { id: "text", user_id: "text", total: "real" },
  primary_key: { columns: ["id"] },
  foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }],
  checks: [{ name: "positive", expr: { type: "comparison", op: ">", left: { type: "identifier", name: "total" }, right: { type: "literal", value: 0 } } }],
  computed: { doubled: { type: "comparison", op: ">", left: { type: "identifier", name: "total" }, right: { type: "literal", value: 100 } } },
  defaults: { total: 1 },
};

test("answers of every result kind match the documented 200s", async () => {
  await check(onShop({ kind: "create-table", schema: users }), 200);
  await check(onShop({ kind: "create-table", schema: orders }), 200);
  await check(onShop({ kind: "insert", table: "users", rows: [{ id: "1", name: "Ada", age: 36 }, { id: "2", name: "Alan" }] }), 200);
  await check(onShop({ kind: "insert", table: "orders", rows: [{ id: "o1", user_id: "1", total: 120.5 }] }), 200);
  await check(onShop({ kind: "select", table: "users", columns: "*", where: byId("1") }), 200);
  await check(onShop({ kind: "select", table: "users", columns: ["id", "age"], output: "arrays" }), 200);
  await check(onShop({ kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["2"] }), 200);
  await check(onShop({ kind: "update", table: "users", set: { age: 37 }, where: byId("1") }), 200);
  await check(
    onShop({
      kind: "transaction",
      commands: [
        { kind: "insert", table: "users", rows: [{ id: "3", name: "Cy" }], onConflict: { action: "nothing" }, returning: "*" },
        { kind: "sql", sql: "UPDATE users SET age = age + 1 WHERE id = ? RETURNING id, age", params: ["1"] },
      ],
    }),
    200,
  );
  await check(onShop({ kind: "validate" }), 200);
  await check(onShop({ kind: "describe" }), 200);
  await check(onShop({ kind: "explain", command: { kind: "select", table: "users", columns: "*", where: byId("1") } }), 200);
  await check(onShop({ kind: "checkpoint" }), 200);
  await check(post("/v1/commands", { database: "shop", command: { kind: "delete", table: "orders", where: byId("o1") } }), 200);
  await check({ method: "GET", url: "/v1/databases", headers: auth }, 200);
  await check({ method: "GET", url: "/health" }, 200);
  for (const kind of ["rows", "mutation", "validation", "schema", "plan", "checkpoint", "transaction"]) assert.ok([...checked].some((entry) => entry.endsWith(` ${kind}`)), kind);
});

test("problem answers match the documented statuses, codes and headers", async () => {
  await check(post("/v1/databases/shop/commands", "{"), 400);
  await check(onShop({ kind: "select", table: "users", columns: "*", wehre: byId("1") }), 400);
  await check(post("/v1/databases/Shop/commands", { command: { kind: "describe" } }), 400);
  await check(onShop({ kind: "sql", sql: "SELEC 1" }), 400);
  await check(onShop({ kind: "sql", sql: "SELECT name FROM users WHERE id = ?" }), 400);
  await check(onShop({ kind: "select", table: "users", columns: ["nope"] }), 400);
  await check(onShop({ kind: "select", table: "users", columns: ["id"], joins: [{ type: "inner", table: "orders", on: { type: "literal", value: true } }] }), 400);
  await check(onShop({ kind: "sql", sql: "SELECT name FROM users WHERE age = 'old'" }), 400);
  await check(post("/v1/commands", { database: "shop", command: { kind: "describe" } }, json), 401);
  await check(post("/v1/databases/nowhere/commands", { command: { kind: "describe" } }), 404);
  await check(onShop({ kind: "select", table: "ghosts", columns: "*" }), 404);
  await check({ method: "GET", url: "/v2/nothing", headers: auth }, 404);
  await check({ method: "GET", url: "/v1/databases/shop/commands", headers: auth }, 405);
  await check(onShop({ kind: "create-table", schema: users }), 409);
  await check(onShop({ kind: "insert", table: "users", rows: [{ id: "1", name: "again" }] }), 409);
  await check(onShop({ kind: "transaction", commands: [{ kind: "insert", table: "users", rows: [{ id: "8", name: "new" }] }, { kind: "insert", table: "users", rows: [{ id: "1", name: "again" }] }] }), 409);
  await check(onShop({ kind: "sql", sql: `SELECT '${"x".repeat(5000)}'` }), 413);
  await check(post("/v1/databases/shop/commands", "{}", { ...auth, "content-type": "text/plain" }), 415);
  await check(onShop({ kind: "insert", table: "users", rows: [{ id: "9" }] }), 422);
  gate.begin();
  await check({ method: "GET", url: "/v1/databases", headers: auth }, 503);
  await check({ method: "GET", url: "/health" }, 503);
  for (const code of ["invalid_json", "invalid_request", "invalid_name", "sql_syntax_error", "sql_error", "unknown_column", "ambiguous_column", "type_mismatch", "unauthorized", "database_not_found", "table_not_found", "not_found", "method_not_allowed", "table_exists", "constraint_violation", "payload_too_large", "unsupported_media_type", "validation_failed", "shutting_down"]) {
    assert.ok(checked.has(code), `${code} was not exercised`);
  }
});

test.run();
