import { Ajv } from "ajv";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  envelopeSchema,
  parseCommand,
  parseCommandBody,
  parseEnvelope,
} from "../../src/commands/index.js";
import { StoreError } from "../../src/errors.js";
import { storeErrorOf } from "../support/store-error.js";

const id = (name: string) => ({ type: "identifier", name });
const lit = (value: unknown) => ({ type: "literal", value });
const eq = (left: unknown, right: unknown) => ({ type: "comparison", op: "=", left, right });
const select = (extra: Record<string, unknown> = {}) => ({ kind: "select", table: "users", columns: "*", ...extra });

const failure = (run: () => unknown): StoreError => storeErrorOf(run);

const rejects = (value: unknown, code: string, message: string) => {
  const error = failure(() => parseCommand(value));
  assert.is(error.code, code, `code for: ${message}`);
  assert.is(error.message, message);
};

// ---------------------------------------------------------------- accepted

const VALID: unknown[] = [
  select(),
  select({ columns: ["id", "users.name"], joins: [{ type: "left", table: "orders", as: "o", on: eq(id("o.user_id"), id("users.id")) }] }),
  select({ where: { type: "and", operands: [{ type: "is-null", expr: id("a"), not: true }, { type: "not", expr: eq(id("b"), lit(1.5)) }] } }),
  select({ where: { type: "or", operands: [eq(id("a"), lit(null)), eq(id("b"), lit(false)), eq(id("c"), lit("x"))] } }),
  select({ orderBy: [{ column: "a" }, { column: "u.b", direction: "desc" }], limit: 0, offset: 10, output: "arrays" }),
  { kind: "insert", table: "users", rows: [{ id: "1", "any key": "x", n: null, "9": 1.5, b: false }] },
  { kind: "update", table: "users", set: { name: "x" }, where: lit(true) },
  { kind: "delete", table: "users", where: eq(id("id"), lit("1")) },
  {
    kind: "create-table",
    ifNotExists: true,
    schema: {
      name: "orders",
      columns: { id: "integer", user_id: "text", amount: "real", paid: "boolean" },
      required: ["id"],
      primary_key: { columns: ["id"] },
      unique: [{ columns: ["user_id", "amount"] }],
      foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] }, on_delete: "cascade" }],
      checks: [{ name: "positive", expr: { type: "comparison", op: ">", left: id("amount"), right: lit(0) } }, { expr: lit(true) }],
      indexes: [{ name: "by_user", columns: ["user_id"] }],
      defaults: { paid: false },
      computed: { big: { type: "comparison", op: ">=", left: id("amount"), right: lit(100) } },
      comment: "One row per order",
      comments: { amount: "In euros" },
    },
  },
  { kind: "drop-table", table: "users", ifExists: true },
  { kind: "validate" },
  { kind: "sql", sql: "SELECT 1", params: ["a", 1, true, null] },
  { kind: "sql", sql: "SELECT 1" },
  { kind: "describe" },
  { kind: "describe", table: "users" },
  { kind: "explain", command: select() },
  { kind: "explain", command: { kind: "sql", sql: "SELECT * FROM t" } },
];

test("every command kind validates, returning the same object", () => {
  for (const value of VALID) assert.is(parseCommand(value), value);
});

test("an envelope validates and keeps its command", () => {
  const body = { database: "shop-1_a", command: select() };
  assert.is(parseEnvelope(body), body);
});

test("a path-route body: the command, and optionally a database by the same rules", () => {
  for (const body of [{ command: select() }, { database: "shop", command: select() }]) assert.is(parseCommandBody(body), body);
  assert.ok(failure(() => parseCommandBody({ database: "COM1", command: select() })).message.startsWith('database: invalid name "COM1"'));
  assert.is(failure(() => parseCommandBody({ command: select(), extra: 1 })).message, "extra: unknown field");
  assert.is(failure(() => parseCommandBody({})).message, 'body: missing required field "command"');
  assert.is(failure(() => parseCommandBody({ command: { kind: "delete", table: "t", wehre: lit(true) } })).message, "command.wehre: unknown field");
});

// ---------------------------------------------------------------- messages name the field

test("unknown fields are named, and a typo never widens a delete", () => {
  rejects({ kind: "delete", table: "t", wehre: lit(true) }, "invalid_request", "command.wehre: unknown field");
  rejects(select({ limt: 1 }), "invalid_request", "command.limt: unknown field");
  rejects(select({ where: { type: "is-null", expr: id("a"), nott: true } }), "invalid_request", "command.where.nott: unknown field");
  rejects(select({ joins: [{ type: "inner", table: "o", on: lit(true), alias: "x" }] }), "invalid_request", "command.joins[0].alias: unknown field");
  rejects({ kind: "create-table", schema: { name: "t", columns: { a: "text" }, primary: ["a"] } }, "invalid_request", "command.schema.primary: unknown field");
  rejects({ kind: "validate", extra: 1 }, "invalid_request", "command.extra: unknown field");
  rejects(select({ "é x": 1 }), "invalid_request", 'command["é x"]: unknown field');
});

test("a create-table is a schema, or a table and a select: the field at fault is named", () => {
  const select = { kind: "select", table: "t", columns: ["id"] };
  rejects({ kind: "create-table", table: "x" }, "invalid_request", 'command: missing required field "select"');
  rejects({ kind: "create-table", select }, "invalid_request", 'command: missing required field "table"');
  rejects({ kind: "create-table", table: "x", select, schema: { name: "x", columns: { id: "integer" } } }, "invalid_request", "command.schema: not allowed here");
  rejects({ kind: "create-table", schema: { name: "x", columns: { id: "integer" } }, select }, "invalid_request", 'command: missing required field "table"');
  rejects({ kind: "create-table" }, "invalid_request", 'command: missing required field "schema"');
});

test("missing required fields are named", () => {
  rejects({ kind: "delete", table: "t" }, "invalid_request", 'command: missing required field "where"');
  rejects({ kind: "update", table: "t", set: { a: 1 } }, "invalid_request", 'command: missing required field "where"');
  rejects({ kind: "select", table: "t" }, "invalid_request", 'command: missing required field "columns"');
  rejects({}, "invalid_request", 'command: missing required field "kind"');
  rejects(select({ where: { type: "literal" } }), "invalid_request", 'command.where: missing required field "value"');
  rejects(select({ where: { op: "=" } }), "invalid_request", 'command.where: missing required field "type"');
});

test("enums, tags and types are named with what is allowed", () => {
  rejects(
    select({ where: { type: "and", operands: [lit(true), lit(true), { type: "comparison", op: "==", left: lit(1), right: lit(1) }] } }),
    "invalid_request",
    "command.where.operands[2].op: must be one of =, !=, <>, <, <=, >, >=, is, is not",
  );
  const frame = (start: unknown) => select({ columns: [{ as: "w", expr: { type: "window", name: "rank", over: { frame: { units: "rows", start } } } }] });
  rejects(frame({ preceding: -1 }), "invalid_request", "command.columns[0].expr.over.frame.start.preceding: must be >= 0");
  rejects(frame({ precedin: 1 }), "invalid_request", "command.columns[0].expr.over.frame.start.precedin: unknown field");
  rejects(frame({ preceding: 1, following: 1 }), "invalid_request", "command.columns[0].expr.over.frame.start: must have at most 1 field(s)");
  rejects(frame("current"), "invalid_request", "command.columns[0].expr.over.frame.start: must be one of unbounded preceding, current row, unbounded following");
  const filtered = (filter: unknown) => select({ columns: [{ as: "n", expr: { type: "aggregate", name: "count", filter } }] });
  rejects(filtered(true), "invalid_request", "command.columns[0].expr.filter: must be an object");
  rejects(filtered({ type: "identifier" }), "invalid_request", 'command.columns[0].expr.filter: missing required field "name"');
  const inner = { kind: "select", table: "t", columns: "*" };
  rejects(select({ from: { kind: "witth", name: "c", select: inner } }), "invalid_request", "command.from.kind: must be one of select, with, function");
  rejects(select({ from: { name: "c", select: inner } }), "invalid_request", 'command.from: missing required field "kind"');
  rejects(select({ from: { kind: "with", nam: "c", select: inner } }), "invalid_request", "command.from.nam: unknown field");
  rejects(select({ joins: [{ type: "inner", from: { kind: "selects", columns: "*" }, as: "d", on: { type: "literal", value: true } }] }), "invalid_request", "command.joins[0].from.kind: must be one of select, with, function");
  rejects({ kind: "nope" }, "invalid_request", "command.kind: must be one of select, insert, update, delete, create-table, drop-table, create-index, drop-index, alter-table, validate, sql, describe, explain, checkpoint, transaction");
  rejects({ kind: 7 }, "invalid_request", "command.kind: must be a string");
  rejects(select({ where: { type: "param", index: 0 } }), "invalid_request", "command.where.type: must be one of literal, identifier, comparison, is-null, and, or, not, binary, negate, in, between, like, glob, collate, case, cast, function, aggregate, window, subquery, exists, row");
  rejects({ kind: "explain", command: { kind: "create-table", schema: { name: "t", columns: { a: "text" } } } }, "invalid_request",
    "command.command.kind: must be one of select, insert, update, delete, sql");
  rejects({ kind: "explain", command: { kind: "explain", command: select() } }, "invalid_request",
    "command.command.kind: must be one of select, insert, update, delete, sql");
  rejects(select({ orderBy: [{ column: "a", direction: "up" }] }), "invalid_request", "command.orderBy[0].direction: must be one of asc, desc");
  rejects(select({ output: "rows" }), "invalid_request", "command.output: must be one of objects, arrays");
  rejects(select({ joins: [{ type: "outer", table: "o", on: lit(true) }] }), "invalid_request", "command.joins[0].type: must be one of inner, left, right, full, cross");
  rejects({ kind: "create-table", schema: { name: "t", columns: { a: "varchar" } } }, "invalid_request", "command.schema.columns.a: must be one of text, integer, real, boolean");
  rejects({ kind: "create-table", schema: { name: "t", columns: { a: "text" }, foreign_keys: [{ columns: ["a"], references: { table: "u", columns: ["id"] }, on_delete: "set null" }] } },
    "invalid_request", "command.schema.foreign_keys[0].on_delete: must be one of restrict, cascade");
  rejects(null, "invalid_request", "command: must be an object");
  rejects([select()], "invalid_request", "command: must be an object");
  rejects("select", "invalid_request", "command: must be an object");
  rejects({ kind: "sql", sql: 1 }, "invalid_request", "command.sql: must be a string");
  rejects({ kind: "drop-table", table: "t", ifExists: "yes" }, "invalid_request", "command.ifExists: must be a boolean");
});

test("columns, limit, offset, rows, operands and set have their bounds", () => {
  rejects(select({ columns: "id" }), "invalid_request", 'command.columns: must be "*" or a non-empty array of names');
  rejects(select({ columns: [] }), "invalid_request", "command.columns: must have at least 1 item(s)");
  rejects(select({ columns: 3 }), "invalid_request", "command.columns: must be a string or array");
  rejects(select({ limit: -1 }), "invalid_request", "command.limit: must be >= 0");
  rejects(select({ limit: 1.5 }), "invalid_request", "command.limit: must be an integer");
  rejects(select({ offset: "2" }), "invalid_request", "command.offset: must be an integer");
  rejects({ kind: "insert", table: "t", rows: [] }, "invalid_request", "command.rows: must have at least 1 item(s)");
  rejects({ kind: "insert", table: "t", rows: [["a"]] }, "invalid_request", "command.rows[0]: must be an object");
  rejects({ kind: "insert", table: "t", rows: {} }, "invalid_request", "command.rows: must be an array");
  rejects(select({ where: { type: "and", operands: [] } }), "invalid_request", "command.where.operands: must have at least 1 item(s)");
  rejects(select({ where: { type: "or", operands: [] } }), "invalid_request", "command.where.operands: must have at least 1 item(s)");
  rejects({ kind: "update", table: "t", set: {}, where: lit(true) }, "invalid_request", "command.set: must have at least 1 field(s)");
  rejects({ kind: "create-table", schema: { name: "t", columns: {} } }, "invalid_request", "command.schema.columns: must have at least 1 field(s)");
});

test("literal values and SQL parameters are JSON scalars, numbers finite", () => {
  const bad = "command.where.value: must be a string, finite number, boolean or null";
  rejects(select({ where: lit({}) }), "invalid_request", bad);
  rejects(select({ where: lit([1]) }), "invalid_request", bad);
  rejects(select({ where: lit(Number.POSITIVE_INFINITY) }), "invalid_request", bad);
  rejects(select({ where: lit(Number.NaN) }), "invalid_request", bad);
  rejects({ kind: "sql", sql: "x", params: [[1]] }, "invalid_request", "command.params[0]: must be a string, finite number, boolean or null");
  rejects({ kind: "sql", sql: "x", params: [1, { a: 1 }] }, "invalid_request", "command.params[1]: must be a string, finite number, boolean or null");
  rejects({ kind: "sql", sql: "x", params: "a" }, "invalid_request", "command.params: must be an array");
  rejects({ kind: "create-table", schema: { name: "t", columns: { a: "text" }, defaults: { a: {} } } }, "invalid_request",
    "command.schema.defaults.a: must be a string, finite number, boolean or null");
});

test("a row or set value that is not a JSON scalar is a 422 type problem, never a parameter", () => {
  const cases: [unknown, string, Record<string, unknown>][] = [
    [{ kind: "insert", table: "t", rows: [{ a: 1 }, { a: 1, b: { type: "param", index: 0 } }] }, "command.rows[1].b", { table: "t", row: 1, column: "b" }],
    [{ kind: "insert", table: "t", rows: [{ "x y": [1] }] }, 'command.rows[0]["x y"]', { table: "t", row: 0, column: "x y" }],
    [{ kind: "update", table: "t", set: { a: [1] }, where: lit(true) }, "command.set.a", { table: "t", column: "a" }],
    [{ kind: "explain", command: { kind: "insert", table: "t", rows: [{ a: { x: 1 } }] } }, "command.command.rows[0].a", { table: "t", row: 0, column: "a" }],
  ];
  for (const [value, path, entry] of cases) {
    const error = failure(() => parseCommand(value));
    assert.is(error.code, "validation_failed", path);
    assert.is(error.status, 422);
    assert.is(error.message, `${path}: must be a string, finite number, boolean or null`);
    assert.equal(error.errors, [{ ...entry, code: "type", message: error.message }]);
  }
  const error = failure(() => parseEnvelope({ database: "shop", command: { kind: "insert", table: "t", rows: [{ a: { type: "param", index: 0 } }] } }));
  assert.is(error.code, "validation_failed");
});

test("an object in a set is an expression over the old row, checked as one (a parameter slot is none)", () => {
  const set = (value: unknown) => ({ kind: "update", table: "t", set: { a: value }, where: lit(true) });
  assert.ok(parseCommand(set({ type: "binary", op: "+", left: { type: "identifier", name: "a" }, right: lit(1) })));
  rejects(set({}), "invalid_request", 'command.set.a: missing required field "type"');
  const slot = failure(() => parseCommand(set({ type: "param", index: 0 })));
  assert.is(slot.code, "invalid_request");
  assert.ok(slot.message.startsWith("command.set.a.type: must be one of literal, identifier,"), slot.message);
  rejects(set({ type: "binary", op: "^", left: lit(1), right: lit(2) }), "invalid_request", "command.set.a.op: must be one of +, -, *, /, %, ||, ->, ->>");
});

// ---------------------------------------------------------------- names

test("invalid names are invalid_name wherever a name stands", () => {
  const schema = (extra: Record<string, unknown>) => ({ kind: "create-table", schema: { name: "t", columns: { a: "text" }, ...extra } });
  const cases: [unknown, string][] = [
    [{ kind: "select", table: "bad name", columns: "*" }, "command.table"],
    [{ kind: "insert", table: "1t", rows: [{}] }, "command.table"],
    [{ kind: "drop-table", table: "__proto__" }, "command.table"],
    [{ kind: "describe", table: "a".repeat(65) }, "command.table"],
    [select({ joins: [{ type: "inner", table: "o-x", on: lit(true) }] }), "command.joins[0].table"],
    [select({ joins: [{ type: "inner", table: "o", as: "o.x", on: lit(true) }] }), "command.joins[0].as"],
    [select({ columns: ["a b"] }), "command.columns[0]"],
    [select({ columns: ["ok", "t.__proto__"] }), "command.columns[1]"],
    [select({ columns: ["a.b.c"] }), "command.columns[0]"],
    [select({ as: "x y" }), "command.as"],
    [select({ where: eq(id("é"), lit(1)) }), "command.where.left.name"],
    [select({ where: eq(id("__proto__.a"), lit(1)) }), "command.where.left.name"],
    [schema({ name: "bad name" }), "command.schema.name"],
    [schema({ required: ["a", "b-c"] }), "command.schema.required[1]"],
    [schema({ primary_key: { columns: [""] } }), "command.schema.primary_key.columns[0]"],
    [schema({ unique: [{ columns: ["x.y"] }] }), "command.schema.unique[0].columns[0]"],
    [schema({ foreign_keys: [{ columns: ["a"], references: { table: "u s", columns: ["id"] } }] }), "command.schema.foreign_keys[0].references.table"],
    [schema({ indexes: [{ name: "by a", columns: ["a"] }] }), "command.schema.indexes[0].name"],
    [schema({ checks: [{ name: "no-dash", expr: lit(true) }] }), "command.schema.checks[0].name"],
    [schema({ defaults: { "a b": 1 } }), "command.schema.defaults"],
    [schema({ computed: { "9": lit(true) } }), "command.schema.computed"],
    [schema({ comments: { "a-b": "x" } }), "command.schema.comments"],
  ];
  for (const [value, path] of cases) {
    const error = failure(() => parseCommand(value));
    assert.is(error.code, "invalid_name", `code for ${path}`);
    assert.ok(error.message.startsWith(`${path}: invalid name `), error.message);
  }
  const error = failure(() => parseCommand({ kind: "create-table", schema: { name: "t", columns: { a: "text", "b c": "text" } } }));
  assert.is(error.code, "invalid_name");
  assert.ok(error.message.startsWith('command.schema.columns: invalid name "b c"'), error.message);
});

test("a hostile name is quoted short in the message", () => {
  const error = failure(() => parseCommand({ kind: "select", table: "x".repeat(10_000), columns: "*" }));
  assert.is(error.code, "invalid_name");
  assert.ok(error.message.length < 300, `message length ${error.message.length}`);
});

test("an envelope's database name follows the name rule", () => {
  const error = failure(() => parseEnvelope({ database: "COM1", command: { kind: "validate" } }));
  assert.is(error.code, "invalid_name");
  assert.ok(error.message.startsWith('database: invalid name "COM1"'), error.message);
});

test("envelope errors name the body's fields", () => {
  const cases: [unknown, string][] = [
    [{ database: "shop", command: { kind: "validate" }, extra: 1 }, "extra: unknown field"],
    [{ database: "shop" }, 'body: missing required field "command"'],
    [{ command: { kind: "validate" } }, 'body: missing required field "database"'],
    [{ database: 1, command: { kind: "validate" } }, "database: must be a string"],
    [{ database: "shop", command: { kind: "delete", table: "t", wehre: lit(true) } }, "command.wehre: unknown field"],
    [null, "body: must be an object"],
    [[], "body: must be an object"],
  ];
  for (const [body, message] of cases) {
    const error = failure(() => parseEnvelope(body));
    assert.is(error.code, "invalid_request");
    assert.is(error.message, message);
  }
});

// ---------------------------------------------------------------- depth and hostile input

const notChain = (levels: number) => {
  let expr: unknown = lit(true);
  for (let i = 1; i < levels; i++) expr = { type: "not", expr };
  return expr;
};

test("expressions may nest 256 levels, not 257", () => {
  assert.ok(parseCommand(select({ where: notChain(256) })));
  rejects(select({ where: notChain(257) }), "invalid_request", "command.where: expression nested deeper than 256 levels");
});

test("depth is checked in every expression position, through every kind of node", () => {
  const deepAnd = (levels: number) => {
    let expr: unknown = lit(true);
    for (let i = 1; i < levels; i++) expr = { type: "and", operands: [lit(true), expr] };
    return expr;
  };
  const deepCompare = (levels: number) => {
    let expr: unknown = lit(1);
    for (let i = 1; i < levels; i++) expr = { type: "comparison", op: "=", left: expr, right: lit(1) };
    return expr;
  };
  const deep = notChain(300);
  const cases: [unknown, string][] = [
    [select({ where: deepAnd(300) }), "command.where"],
    [select({ where: deepCompare(300) }), "command.where"],
    [select({ joins: [{ type: "inner", table: "o", on: lit(true) }, { type: "inner", table: "p", on: deep }] }), "command.joins[1].on"],
    [{ kind: "update", table: "t", set: { a: 1 }, where: deep }, "command.where"],
    [{ kind: "create-table", schema: { name: "t", columns: { a: "text" }, checks: [{ expr: deep }] } }, "command.schema.checks[0].expr"],
    [{ kind: "create-table", schema: { name: "t", columns: { a: "text" }, computed: { c: deep } } }, "command.schema.computed.c"],
    [{ kind: "explain", command: { kind: "delete", table: "t", where: deep } }, "command.command.where"],
    [select({ compound: [{ op: "union", select: select({}) }, { op: "except", select: select({ where: deep }) }] }), "command.compound[1]"],
    [select({ where: { type: "exists", select: select({ compound: [{ op: "union", select: select({ having: deep }) }] }) } }), "command.where"],
    [{ kind: "select", from: select({ where: deep }), columns: "*" }, "command.from"],
    [select({ joins: [{ type: "inner", from: select({ columns: [{ expr: deep, as: "x" }] }), on: lit(true) }] }), "command.joins[0].from"],
  ];
  for (const [value, path] of cases) rejects(value, "invalid_request", `${path}: expression nested deeper than 256 levels`);
  const error = failure(() => parseEnvelope({ database: "shop", command: select({ where: deep }) }));
  assert.is(error.message, "command.where: expression nested deeper than 256 levels");
});

test("100,000 levels are rejected without a stack overflow", () => {
  rejects(select({ where: notChain(100_000) }), "invalid_request", "command.where: expression nested deeper than 256 levels");
  let operands: unknown = lit(true);
  for (let i = 0; i < 100_000; i++) operands = { type: "or", operands: [operands] };
  rejects(select({ where: operands }), "invalid_request", "command.where: expression nested deeper than 256 levels");
  const text = `{"kind":"select","table":"t","columns":"*","where":${'{"type":"not","expr":'.repeat(100_000)}{"type":"literal","value":1}${"}".repeat(100_000)}}`;
  rejects(JSON.parse(text), "invalid_request", "command.where: expression nested deeper than 256 levels");
  // Compounds nested in compounds: each joined select is a level.
  let chained: Record<string, unknown> = select({});
  for (let i = 0; i < 100_000; i++) chained = select({ compound: [{ op: "union-all", select: chained }] });
  rejects(chained, "invalid_request", "command.compound[0]: expression nested deeper than 256 levels");
  // Derived tables nested in derived tables, likewise.
  let nested: Record<string, unknown> = select({});
  for (let i = 0; i < 100_000; i++) nested = { kind: "select", from: nested, columns: "*" };
  rejects(nested, "invalid_request", "command.from: expression nested deeper than 256 levels");
});

test("a getter that throws during the depth check leaves nothing behind for the next command", () => {
  // The walk pops the thrower first, so the deep sibling is still on the work stack when it throws.
  const thrower = {
    type: "not",
    get expr(): unknown {
      throw new Error("getter");
    },
  };
  assert.throws(() => parseCommand(select({ where: { type: "and", operands: [notChain(256), thrower] } })), /getter/);
  assert.ok(parseCommand(select({ where: lit(true) })));
});

test("wide input is fine: many rows, many operands", () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i }));
  assert.ok(parseCommand({ kind: "insert", table: "t", rows }));
  const operands = Array.from({ length: 100_000 }, (_, i) => eq(id("a"), lit(i)));
  assert.ok(parseCommand(select({ where: { type: "or", operands } })));
  const error = failure(() => parseCommand({ kind: "insert", table: "t", rows: [...rows, 5] }));
  assert.is(error.message, "command.rows[100000]: must be an object");
});

test("__proto__, constructor and prototype keys are unknown fields and pollute nothing", () => {
  const proto = JSON.parse('{"kind":"select","table":"t","columns":"*","__proto__":{"polluted":true}}') as unknown;
  rejects(proto, "invalid_request", "command.__proto__: unknown field");
  rejects(JSON.parse('{"kind":"delete","table":"t","constructor":{"x":1}}'), "invalid_request", "command.constructor: unknown field");
  rejects(JSON.parse('{"kind":"validate","prototype":1}'), "invalid_request", "command.prototype: unknown field");
  rejects(JSON.parse('{"kind":"select","table":"t","columns":"*","where":{"type":"literal","value":1,"__proto__":{}}}'), "invalid_request",
    "command.where.__proto__: unknown field");
  rejects(JSON.parse('{"kind":"create-table","schema":{"name":"t","columns":{"__proto__":"text"}}}'), "invalid_name",
    'command.schema.columns: invalid name "__proto__": a name starts with a letter or _, has only letters, digits and _, at most 64 characters, and is not __proto__');
  // A row's keys are column names the engine checks; validation passes them through untouched.
  const row = JSON.parse('{"kind":"insert","table":"t","rows":[{"__proto__":"x","id":1}]}') as { rows: object[] };
  assert.is(parseCommand(row), row);
  assert.is(({} as { polluted?: boolean }).polluted, undefined);
  assert.is((Object.prototype as { polluted?: boolean }).polluted, undefined);
});

test("the exported schemas compile in a fresh Ajv for the HTTP route", () => {
  const ajv = new Ajv({ discriminator: true, allowUnionTypes: true, strict: true });
  const validate = ajv.compile(envelopeSchema);
  assert.ok(validate({ database: "shop", command: { kind: "validate" } }));
  assert.not.ok(validate({ database: "shop", command: { kind: "delete", table: "t" } }));
});

test.run();
