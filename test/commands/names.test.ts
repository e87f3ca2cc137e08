import { test } from "uvu";
import * as assert from "uvu/assert";
import { DATABASE_NAME_PATTERN, IDENTIFIER_PATTERN, QUALIFIED_NAME_PATTERN, assertDatabaseName, isValidIdentifier, quote } from "../../src/commands/names.js";
import { StoreError } from "../../src/errors.js";
import { storeErrorOf } from "../support/store-error.js";

const failure = (run: () => unknown): StoreError => storeErrorOf(run);

test("isValidIdentifier follows CONTRACT §1", () => {
  for (const name of ["a", "_", "A_b9", "x".repeat(64), "constructor", "prototype", "__proto"]) assert.ok(isValidIdentifier(name), name);
  for (const name of ["", "9a", "a b", "a-b", "a.b", "x".repeat(65), "__proto__", "é", "a\u0000", "ａ"]) assert.not.ok(isValidIdentifier(name), name);
});

test("database names: lower case, no device names", () => {
  for (const name of ["shop", "a", "0", "shop-2_x", "x".repeat(64), "com10", "console", "nul1"]) assert.is(assertDatabaseName(name), name);
  for (const name of ["", "Shop", "-shop", "_shop", "sh op", "shop.store", "../x", "x".repeat(65), "con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9", 3, null]) {
    const error = failure(() => assertDatabaseName(name));
    assert.is(error.code, "invalid_name", String(name));
    assert.is(error.status, 400);
  }
});

test("the schema patterns say what the functions say", () => {
  const identifier = new RegExp(IDENTIFIER_PATTERN);
  const qualified = new RegExp(QUALIFIED_NAME_PATTERN);
  const database = new RegExp(DATABASE_NAME_PATTERN);
  for (const name of ["a", "__proto", "__proto__", "x".repeat(64), "x".repeat(65), "a.b", "9"]) {
    assert.is(identifier.test(name), isValidIdentifier(name), name);
  }
  for (const name of ["a.b", "a", "_.__proto", "a.__proto__", "__proto__.a", "a.b.c", ".a", "a.", "a..b"]) {
    const parts = name.split(".");
    assert.is(qualified.test(name), parts.length <= 2 && parts.every(isValidIdentifier), name);
  }
  for (const name of ["shop", "con", "com0", "lpt10", "Shop", "-x"]) {
    let ok = true;
    try {
      assertDatabaseName(name);
    } catch {
      ok = false;
    }
    assert.is(database.test(name), ok, name);
  }
});

test("quote keeps messages short and never throws", () => {
  assert.is(quote("ab"), '"ab"');
  assert.is(quote("x".repeat(1000)).length, 80);
  assert.is(quote(undefined), "undefined");
  assert.is(quote(10n), "bigint");
  const cyclic: Record<string, unknown> = {};
  cyclic["self"] = cyclic;
  assert.is(quote(cyclic), "object");
});

test.run();
