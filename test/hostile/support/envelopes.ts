/**
 * Generators for whole requests: valid command envelopes, near-valid ones
 * (one to three mutations: a field dropped, an unknown field added, a value
 * swapped for the wrong type, a huge number, deep nesting, `__proto__` /
 * `constructor` / `prototype` keys, a duplicate key), and plain garbage
 * (random bytes, truncated JSON, a BOM, invalid UTF-8, odd content types,
 * methods and paths).
 *
 * A request is kept as the exact bytes sent, so a failing one can be stored
 * as a fixture and replayed byte for byte.
 */
import fc from "fast-check";
import { COLUMN_NAMES, TABLE } from "./dataset.js";
import { condition, select, selectCommand, toSql } from "./queries.js";

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | null;
  /** Body as text, or as base64 when it is not valid UTF-8. */
  readonly body: string;
  readonly base64?: true;
}

/** Marks a spot in a value to be replaced by raw JSON text (a number JSON cannot round-trip). */
const RAW = "\u0000raw:";

function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so `__proto__` becomes an own key that JSON.stringify writes out.
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

function toText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000raw:([^"]*)"/g, (_, raw: string) => raw);
}

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "wehre", "Kind", "", "kind ", "k\u0131nd", "\u{1F600}", "valueOf"];

const hugeNumber = fc.constantFrom(
  `${RAW}1e400`,
  `${RAW}-1e400`,
  `${RAW}9007199254740993`,
  `${RAW}-9007199254740993`,
  `${RAW}1e-400`,
  `${RAW}123456789012345678901234567890`,
  `${RAW}-0`,
  `${RAW}0.1e1`,
  1.7976931348623157e308,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  -(2 ** 31),
  0.1,
  1.5,
);

function nested(depth: number, leafValue: unknown, asArray: boolean): unknown {
  let v = leafValue;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { type: "not", expr: v };
  return v;
}

const garbageValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: hugeNumber },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "*", "SELECT", "select", "t", "__proto__", "\ud800", "\udfff\ud800", "a".repeat(5000), null, true, [], {}) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 10, max: 3000 }), fc.boolean()).map(([d, a]) => nested(d, { type: "literal", value: true }, a)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_KEYS), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => {
      const o: Record<string, unknown> = {};
      setKey(o, k, v);
      return o;
    }),
  },
);

const tableName = fc.oneof(
  { weight: 4, arbitrary: fc.constant(TABLE) },
  { weight: 1, arbitrary: fc.constantFrom("u", "T", "missing", "__proto__", "constructor", "a".repeat(64), "a".repeat(65), "1t", "t-1", "t.x", "") },
);

const row = fc.record(
  {
    id: fc.oneof(fc.integer({ min: 1000, max: 1_000_000 }), hugeNumber, fc.constant(null)),
    n: fc.oneof(fc.integer(), hugeNumber, fc.constant(null), fc.string({ maxLength: 3 })),
    r: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), hugeNumber, fc.constant(null)),
    s: fc.oneof(fc.string({ unit: "grapheme", maxLength: 8 }), fc.constant(null), fc.integer()),
    b: fc.oneof(fc.boolean(), fc.constant(null), fc.constant("true")),
    big: fc.boolean(),
  },
  { requiredKeys: ["id"] },
);

// A small pool, so the tables a run creates stay few and cheap to fingerprint.
const newTableName = fc.constantFrom("u", "v", "w", "x_1", "Mixed", "__proto__", "constructor", "a".repeat(64), "a".repeat(65), "1bad", "T", "t");

/** Commands a client could send, well formed or nearly so, for database `db`. */
export const command: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 3, arbitrary: select.map(selectCommand) },
  { weight: 3, arbitrary: fc.tuple(tableName, fc.array(row, { minLength: 1, maxLength: 4 })).map(([table, rows]) => ({ kind: "insert", table, rows })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(tableName, fc.dictionary(fc.constantFrom(...COLUMN_NAMES, "big", "zz", "__proto__"), fc.oneof(fc.integer(), fc.constant(null), hugeNumber, fc.string({ maxLength: 3 })), { maxKeys: 3 }), condition(2))
      .map(([table, set, where]) => ({ kind: "update", table, set, where })),
  },
  // Deletes aim at generated ids only, so the base rows stay for the selects.
  { weight: 2, arbitrary: fc.tuple(tableName, fc.integer({ min: 1000, max: 1_000_000 })).map(([table, id]) => ({ kind: "delete", table, where: { type: "comparison", op: ">=", left: { type: "identifier", name: "id" }, right: { type: "literal", value: id } } })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(newTableName, fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__", "constructor", "Id"), fc.constantFrom("text", "integer", "real", "boolean", "blob", "TEXT", ""), { minKeys: 0, maxKeys: 3 }), fc.boolean())
      .map(([name, columns, ifNotExists]) => ({ kind: "create-table", schema: { name, columns }, ifNotExists })),
  },
  { weight: 1, arbitrary: fc.constantFrom("missing", "v", "w", "__proto__", TABLE).map((table) => ({ kind: "drop-table", table: table === TABLE ? "never_dropped" : table, ifExists: true })) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: "validate" }, { kind: "describe" }, { kind: "describe", table: TABLE }, { kind: "describe", table: "missing" }) },
  { weight: 2, arbitrary: fc.tuple(select, fc.boolean()).map(([s, inline]) => { const q = toSql(s, inline); return { kind: "sql", sql: q.sql, params: q.params }; }) },
  { weight: 1, arbitrary: select.map((s) => ({ kind: "explain", command: selectCommand(s) })) },
);

type Json = Record<string, unknown> | unknown[];

/** Every container in a value with the path to it, for picking a mutation site. */
function containers(value: unknown, out: Json[] = [], depth = 0): Json[] {
  if (depth > 12 || typeof value !== "object" || value === null) return out;
  out.push(value as Json);
  for (const child of Object.values(value)) containers(child, out, depth + 1);
  return out;
}

type Mutation = (doc: Json, pick: number, replacement: unknown, key: string) => void;

const MUTATIONS: readonly Mutation[] = [
  // add an unknown (or hostile) key
  (doc, _pick, replacement, key) => {
    if (Array.isArray(doc)) doc.push(replacement);
    else setKey(doc, key, replacement);
  },
  // drop a member
  (doc, pick) => {
    const keys = Object.keys(doc);
    const k = keys[pick % Math.max(keys.length, 1)];
    if (k === undefined) return;
    if (Array.isArray(doc)) doc.splice(Number(k), 1);
    else delete doc[k];
  },
  // swap a member's value for garbage
  (doc, pick, replacement) => {
    const keys = Object.keys(doc);
    const k = keys[pick % Math.max(keys.length, 1)];
    if (k !== undefined) (doc as Record<string, unknown>)[k] = replacement;
  },
  // change a kind or type tag to another real one
  (doc, pick) => {
    const kinds = ["select", "insert", "update", "delete", "create-table", "drop-table", "validate", "sql", "describe", "explain", "literal", "identifier", "and", "or", "not", "param", "is-null", "comparison"];
    if (!Array.isArray(doc)) {
      if ("kind" in doc) doc.kind = kinds[pick % 10];
      else if ("type" in doc) doc.type = kinds[10 + (pick % 8)];
    }
  },
];

const mutated = fc
  .tuple(command, fc.array(fc.tuple(fc.nat(), fc.nat(MUTATIONS.length - 1), fc.nat(), garbageValue, fc.constantFrom(...HOSTILE_KEYS)), { minLength: 1, maxLength: 3 }))
  .map(([cmd, edits]) => {
    const envelope = { database: "fzm", command: structuredClone(cmd) };
    for (const [site, which, pick, replacement, key] of edits) {
      const all = containers(envelope);
      const doc = all[site % all.length] as Json;
      MUTATIONS[which]!(doc, pick, replacement, key);
    }
    return toText(envelope);
  });

const databaseName = fc.oneof({ weight: 6, arbitrary: fc.constant("fzm") }, { weight: 1, arbitrary: fc.constantFrom("fzm2", "FZM", "fzm.store", "../fzm", "", "con", "a".repeat(65)) });

const validBody = fc.tuple(databaseName, command).map(([database, cmd]) => toText({ database, command: cmd }));

const garbageBody = fc.oneof(
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.tuple(validBody, fc.nat()).map(([text, cut]) => text.slice(0, cut % Math.max(text.length, 1))),
  validBody.map((text) => `\ufeff${text}`),
  validBody.map((text) => text.replace('"database"', '"database":"x","database"')),
  validBody.map((text) => text.replace('"kind":', '"kind":"validate","kind":')),
  fc.constantFrom("", " ", "null", "[]", "{}", '{"database":"fzm"}', '{"command":{"kind":"validate"}}', "{\"database\":\"fzm\",\"command\":{\"kind\":\"validate\"}}garbage", "{\"__proto__\":{\"database\":\"fzm\"},\"command\":{\"kind\":\"validate\"}}", '{"database":"fzm","command":{"kind":"validate"},"constructor":{"prototype":{"polluted":true}}}'),
);

const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "application/jsonx", "", "application/problem+json", "multipart/form-data; boundary=x"];

export const request: fc.Arbitrary<RawRequest> = fc.oneof(
  { weight: 5, arbitrary: validBody.map((body): RawRequest => ({ method: "POST", path: "/v1/commands", contentType: "application/json", body })) },
  { weight: 8, arbitrary: mutated.map((body): RawRequest => ({ method: "POST", path: "/v1/commands", contentType: "application/json", body })) },
  { weight: 3, arbitrary: garbageBody.map((body): RawRequest => ({ method: "POST", path: "/v1/commands", contentType: "application/json", body })) },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes): RawRequest => ({
      method: "POST",
      path: "/v1/commands",
      contentType: "application/json",
      body: Buffer.concat([Buffer.from('{"database":"fzm","command":{"kind":"sql","sql":"'), Buffer.from([0xff, 0xc0, ...bytes]), Buffer.from('"}}')]).toString("base64"),
      base64: true,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "POST", "OPTIONS"), fc.constantFrom("/v1/commands", "/v1/commands/", "/v1/%2e%2e/commands", "/v1/commands/../../etc/passwd", "/V1/COMMANDS", "/", "/health/..", "//v1//commands", "/v1/commands?database=..", "/%00"), fc.constantFrom(...CONTENT_TYPES, null), validBody)
      .map(([method, path, contentType, body]): RawRequest => ({ method, path, contentType, body })),
  },
);

export function bodyBytes(r: RawRequest): string | Buffer {
  return r.base64 ? Buffer.from(r.body, "base64") : r.body;
}
