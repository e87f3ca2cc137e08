/**
 * Strict validation of what clients send: the envelope, commands, names.
 *
 * The schemas of `schema.ts` are compiled by Ajv (first error only,
 * discriminated unions) at build time into `validators.generated.js`
 * (`npm run validators`): compiling them at start-up cost every command-line
 * run ~230 ms and every server start ~370 ms. The common case — a valid
 * command — costs one generated function call. Only a failure pays for
 * building a message, which names the offending field the way a client
 * wrote it (`command.where.operands[2].op: must be one of =, !=, ...`).
 *
 * Ajv's generated code recurses once per expression level, so an iterative
 * depth check runs first: no input, however deep, can overflow the stack.
 * Returned values are the input objects themselves (no copy): validation is
 * on the hot path of every request.
 */

import type { ErrorObject, ValidateFunction } from "ajv";
import { StoreError, ValidationError } from "../errors.js";
import { DATABASE_RULE, IDENTIFIER_RULE, quote } from "./names.js";
import { databaseNameSchema, definitions } from "./schema.js";
import type { Command, CommandBody, Envelope } from "./types.js";
import * as generated from "./validators.generated.js";

/** Expressions may nest this deep (CONTRACT §5); one more level is `invalid_request`. */
export const MAX_EXPRESSION_DEPTH = 256;

/** Validates a request body `{database, command}` (CONTRACT §4). Throws `invalid_request` / `invalid_name`. */
export function parseEnvelope(body: unknown): Envelope {
  return parseBody<Envelope>(generated.envelope, body);
}

/** Validates a request body `{command, database?}` of the path route (CONTRACT §12). Throws `invalid_request` / `invalid_name`. */
export function parseCommandBody(body: unknown): CommandBody {
  return parseBody<CommandBody>(generated.commandBody, body);
}

/** A request body holding a `command`, checked by one of the compiled body schemas. */
function parseBody<Body extends { readonly command: Command }>(validate: ValidateFunction, body: unknown): Body {
  if (isObject(body)) checkDepth(body["command"], "command");
  if (!validate(body)) throw toStoreError(validate.errors, "");
  checkWrittenValues((body as Body).command, "command");
  return body as Body;
}

/** Validates one command of CONTRACT §4. Throws `invalid_request` / `invalid_name` (422 for a non-scalar row value). */
export function parseCommand(value: unknown): Command {
  checkDepth(value, "command");
  if (!generated.command(value)) throw toStoreError(generated.command.errors, "command");
  checkWrittenValues(value as Command, "command");
  return value as Command;
}

/**
 * What is wrong with an expression read from somewhere other than a
 * request (a check or computed field in a file), by the same schema
 * requests are held to, so every expression type a command may hold loads
 * back; undefined when nothing is. `path` names where it stands.
 */
export function expressionProblem(value: unknown, path: string): string | undefined {
  if (tooDeep(value)) return `${path}: expression nested deeper than ${MAX_EXPRESSION_DEPTH} levels`;
  if (generated.expression(value)) return undefined;
  return toStoreError(generated.expression.errors, path).message;
}

// ---------------------------------------------------------------- depth

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks every expression position of a (not yet validated) command
 * without recursion; a transaction's steps each once (a step that is
 * itself a transaction is refused by the schema, so no deeper).
 */
function checkDepth(command: unknown, path: string): void {
  if (isObject(command) && command["kind"] === "transaction") {
    eachItem(command["commands"], (step, i) => {
      checkCommandDepth(step, `${path}.commands[${i}]`);
      return false;
    });
    return;
  }
  checkCommandDepth(command, path);
}

function checkCommandDepth(command: unknown, path: string): void {
  // An explain wraps one command; anything nested further is rejected by the schema anyway.
  for (let level = 0; level < 2 && isObject(command); level++) {
    if (tooDeep(command["where"])) throw deepError(`${path}.where`);
    if (tooDeep(command["having"])) throw deepError(`${path}.having`);
    eachItem(command["groupBy"], (item, i) => tooDeep(item) && deepError(`${path}.groupBy[${i}]`));
    if (tooDeep(command["from"])) throw deepError(`${path}.from`);
    if (tooDeep(command["select"])) throw deepError(`${path}.select`);
    eachItem(command["joins"], (join, i) => {
      if (!isObject(join)) return false;
      if (tooDeep(join["from"])) return deepError(`${path}.joins[${i}].from`);
      return tooDeep(join["on"]) && deepError(`${path}.joins[${i}].on`);
    });
    eachItem(command["columns"], (column, i) => isObject(column) && tooDeep(column["expr"]) && deepError(`${path}.columns[${i}].expr`));
    eachItem(command["returning"], (column, i) => isObject(column) && tooDeep(column["expr"]) && deepError(`${path}.returning[${i}].expr`));
    eachValue(command["set"], (value, key) => tooDeep(value) && deepError(`${path}.set${segment(key)}`));
    const onConflict = command["onConflict"];
    if (isObject(onConflict)) eachValue(onConflict["set"], (value, key) => tooDeep(value) && deepError(`${path}.onConflict.set${segment(key)}`));
    eachItem(command["orderBy"], (item, i) => isObject(item) && tooDeep(item["expr"]) && deepError(`${path}.orderBy[${i}].expr`));
    eachItem(command["compound"], (arm, i) => tooDeep(arm) && deepError(`${path}.compound[${i}]`));
    const schema = command["schema"];
    if (isObject(schema)) {
      eachItem(schema["checks"], (check, i) => isObject(check) && tooDeep(check["expr"]) && deepError(`${path}.schema.checks[${i}].expr`));
      const computed = schema["computed"];
      if (isObject(computed)) {
        for (const key of Object.keys(computed)) {
          if (tooDeep(computed[key])) throw deepError(`${path}.schema.computed${segment(key)}`);
        }
      }
    }
    command = command["command"];
    path = `${path}.command`;
  }
}

/** Runs `check` on each member of `record` if it is an object; a check returns the error to throw, or false. */
function eachValue(record: unknown, check: (value: unknown, key: string) => StoreError | false): void {
  if (!isObject(record)) return;
  for (const key of Object.keys(record)) {
    const error = check(record[key], key);
    if (error) throw error;
  }
}

/** Runs `check` on each item of `list` if it is an array; a check returns the error to throw, or false. */
function eachItem(list: unknown, check: (item: unknown, index: number) => StoreError | false): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const error = check(list[i], i);
    if (error) throw error;
  }
}

function deepError(path: string): StoreError {
  return new StoreError("invalid_request", `${path}: expression nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
}

// One pair of work stacks, reused: the check is synchronous and runs on every request.
const nodes: unknown[] = [];
const depths: number[] = [];

function push(node: unknown, depth: number): void {
  if (isObject(node)) {
    nodes.push(node);
    depths.push(depth);
  }
}

/** Expression members that hold one expression, and those that hold a list of them. */
const CHILD_KEYS = ["left", "right", "expr", "low", "high", "pattern", "operand", "else", "arg"] as const;
const LIST_KEYS = ["operands", "values", "args", "items"] as const;

/** The expressions of a select at `depth`, its derived tables' selects and the arms of its compound (whose own selects nest one below them). */
function pushSelect(select: Record<string, unknown>, depth: number): void {
  push(select["where"], depth);
  push(select["having"], depth);
  push(select["from"], depth);
  for (const key of ["columns", "joins", "orderBy"] as const) {
    const list = select[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) if (isObject(item)) push(item["expr"] ?? item["on"], depth);
  }
  const joins = select["joins"];
  if (Array.isArray(joins)) for (const join of joins) if (isObject(join)) push(join["from"], depth);
  for (const key of ["groupBy", "compound"] as const) {
    const list = select[key];
    if (Array.isArray(list)) for (const item of list) push(item, depth);
  }
}

/** True when an expression nests deeper than the limit (children: see `CHILD_KEYS`, `LIST_KEYS`, and CASE's `when` pairs). */
function tooDeep(root: unknown): boolean {
  if (!isObject(root)) return false;
  // Empty unless a getter threw mid-walk; setting `length` is a runtime call, so only when needed.
  if (nodes.length !== 0) {
    nodes.length = 0;
    depths.length = 0;
  }
  push(root, 1);
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop() as number;
    if (depth > MAX_EXPRESSION_DEPTH) {
      nodes.length = 0;
      depths.length = 0;
      return true;
    }
    for (const key of CHILD_KEYS) push(node[key], depth + 1);
    for (const key of LIST_KEYS) {
      const list = node[key];
      if (Array.isArray(list)) for (const item of list) push(item, depth + 1);
    }
    // A subquery's expressions nest one level below it (a compound's arm's, one below the arm; a derived table's, one below it).
    const select = node["select"];
    if (isObject(select)) pushSelect(select, depth + 1);
    if (node["kind"] === "select") pushSelect(node, depth + 1);
    const whens = node["when"];
    if (Array.isArray(whens)) {
      for (const pair of whens) {
        if (!isObject(pair)) continue;
        push(pair["when"], depth + 1);
        push(pair["then"], depth + 1);
      }
    }
  }
  return false;
}

// ---------------------------------------------------------------- written values

/**
 * Insert rows and update `set`s map column names to values the engine checks
 * against the schema (so an unknown column is a 422 there, not a 400 here).
 * One check belongs here, though: in a JSON body an insert value is a JSON
 * scalar. An object there is outside every column type — and one shaped
 * like the internal `{type:"param"}` slot must never be taken for a
 * parameter — so it is a 422 `type` problem, as the engine reports any
 * other wrong value. In a `set` an object is an expression (the schema has
 * checked it); an array is still a wrong value.
 */
function checkWrittenValues(command: Command, path: string): void {
  if (command.kind === "transaction") {
    command.commands.forEach((step, i) => checkWrittenValues(step, `${path}.commands[${i}]`));
    return;
  }
  const target = command.kind === "explain" ? command.command : command;
  const at = command.kind === "explain" ? `${path}.command` : path;
  if (target.kind === "insert") {
    target.rows?.forEach((row, index) => checkScalars(row, target.table, index, `${at}.rows[${index}]`, false));
    if (target.onConflict?.set !== undefined) checkScalars(target.onConflict.set, target.table, undefined, `${at}.onConflict.set`, true);
  } else if (target.kind === "update") {
    checkScalars(target.set, target.table, undefined, `${at}.set`, true);
  }
}

function checkScalars(values: Readonly<Record<string, unknown>>, table: string, row: number | undefined, path: string, expressions: boolean): void {
  for (const column of Object.keys(values)) {
    const value = values[column];
    if (typeof value !== "object" || value === null || (expressions && !Array.isArray(value))) continue;
    const message = `${path}${segment(column)}: must be a string, finite number, boolean or null`;
    const entry = row === undefined ? { table, column, code: "type" as const, message } : { table, row, column, code: "type" as const, message };
    throw new ValidationError(message, [entry]);
  }
}

// ---------------------------------------------------------------- messages

/** Builds the one error a client sees from Ajv's first error. */
function toStoreError(errors: readonly ErrorObject[] | null | undefined, root: string): StoreError {
  const error = errors?.[0];
  if (!error) return new StoreError("invalid_request", `${root || "body"}: invalid`);
  const at = pathOf(root, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "pattern": {
      const propertyName = (error as { propertyName?: string }).propertyName;
      const rule = error.schema === databaseNameSchema.pattern ? DATABASE_RULE : IDENTIFIER_RULE;
      return new StoreError("invalid_name", `${at}: invalid name ${quote(propertyName ?? error.data)}: ${rule}`);
    }
    case "additionalProperties":
      return unknownField(at, String(params["additionalProperty"]));
    case "required": {
      const stray = strayField(error.data, error.parentSchema);
      if (stray !== undefined) return unknownField(at, stray);
      return new StoreError("invalid_request", `${at}: missing required field "${String(params["missingProperty"])}"`);
    }
    case "discriminator": {
      const tag = String(params["tag"]);
      if (params["error"] === "tag") {
        const message = params["tagValue"] === undefined ? `${at}: missing required field "${tag}"` : `${at}.${tag}: must be a string`;
        return new StoreError("invalid_request", message);
      }
      const allowed = tagValues(error.parentSchema, tag);
      return new StoreError("invalid_request", `${at}.${tag}: must be one of ${allowed.join(", ")}`);
    }
    case "enum":
      return new StoreError("invalid_request", `${at}: must be one of ${(params["allowedValues"] as unknown[]).join(", ")}`);
    case "const":
      return new StoreError("invalid_request", `${at}: must be ${JSON.stringify(params["allowedValue"])} or a non-empty array of names`);
    case "type":
      return new StoreError("invalid_request", `${at}: must be ${typeName(params["type"])}`);
    case "minimum":
      return new StoreError("invalid_request", `${at}: must be >= ${String(params["limit"])}`);
    case "minItems":
      return new StoreError("invalid_request", `${at}: must have at least ${String(params["limit"])} item(s)`);
    case "maxItems":
      return new StoreError("invalid_request", `${at}: must have at most ${String(params["limit"])} item(s)`);
    case "minLength":
      return new StoreError("invalid_request", `${at}: must not be empty`);
    case "oneOf":
      return new StoreError("invalid_request", `${at}: needs exactly one of ${alternatives(error.parentSchema).join(", ")}`);
    case "minProperties":
      return new StoreError("invalid_request", `${at}: must have at least ${String(params["limit"])} field(s)`);
    case "maxProperties":
      return new StoreError("invalid_request", `${at}: must have at most ${String(params["limit"])} field(s)`);
    case "false schema":
      return new StoreError("invalid_request", `${at}: not allowed here`);
    default:
      return new StoreError("invalid_request", `${at}: invalid (${error.keyword})`);
  }
}

/** The fields a `oneOf` of `required` branches asks one of (an orderBy item's `column` or `expr`). */
function alternatives(parentSchema: unknown): string[] {
  if (!isObject(parentSchema) || !Array.isArray(parentSchema["oneOf"])) return [];
  return (parentSchema["oneOf"] as { required?: string[] }[]).flatMap((branch) => branch.required ?? []);
}

function unknownField(at: string, key: string): StoreError {
  const field = at === "body" ? segment(key).replace(/^\./, "") : `${at}${segment(key)}`;
  return new StoreError("invalid_request", `${field}: unknown field`);
}

/**
 * A missing required field next to an unknown one is most likely a typo
 * (`wehre`): name the unknown field, which is what the client must fix.
 */
function strayField(data: unknown, parentSchema: unknown): string | undefined {
  if (!isObject(data) || !isObject(parentSchema) || parentSchema["additionalProperties"] !== false) return undefined;
  const properties = parentSchema["properties"];
  if (!isObject(properties)) return undefined;
  return Object.keys(data).find((key) => !Object.hasOwn(properties, key));
}

/** The values a discriminated union accepts for its tag, read from the branches' `const`. */
function tagValues(parentSchema: unknown, tag: string): string[] {
  if (!isObject(parentSchema) || !Array.isArray(parentSchema["oneOf"])) return [];
  const defs = definitions as unknown as Record<string, { properties?: Record<string, { const?: string }> }>;
  return (parentSchema["oneOf"] as { $ref: string }[]).map((branch) => {
    const name = branch.$ref.slice("#/definitions/".length);
    return String(defs[name]?.properties?.[tag]?.const);
  });
}

function typeName(type: unknown): string {
  if (Array.isArray(type)) return type.includes("null") ? "a string, finite number, boolean or null" : `a ${type.join(" or ")}`;
  switch (type) {
    case "integer":
    case "array":
    case "object":
      return `an ${type}`;
    case "number":
      return "a finite number";
    default:
      return `a ${String(type)}`;
  }
}

/** JSON Pointer (`/where/operands/2/op`) → `command.where.operands[2].op`. */
function pathOf(root: string, pointer: string): string {
  let path = root;
  if (pointer !== "") {
    for (const raw of pointer.slice(1).split("/")) {
      path += segment(raw.replace(/~1/g, "/").replace(/~0/g, "~"));
    }
  }
  return path === "" ? "body" : path.startsWith(".") ? path.slice(1) : path;
}

function segment(key: string): string {
  if (/^(?:0|[1-9][0-9]*)$/.test(key)) return `[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)) return `.${key}`;
  return `[${JSON.stringify(key)}]`;
}
