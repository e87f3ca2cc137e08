/** The transaction statements a script may hold, and the syntax errors of ones that go wrong. */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { SqlError } from "../../../src/errors.js";
import { transactionControl } from "../../../src/cli/script/control.js";

const forms: [string, ReturnType<typeof transactionControl>][] = [
  ["BEGIN", "begin"],
  ["begin transaction", "begin"],
  ["BEGIN IMMEDIATE", "begin"],
  ["BEGIN EXCLUSIVE TRANSACTION", "begin"],
  ["BEGIN /* note */ DEFERRED\nTRANSACTION -- end", "begin"],
  ["COMMIT", "commit"],
  ["COMMIT TRANSACTION", "commit"],
  ["END", "commit"],
  ["end transaction", "commit"],
  ["ROLLBACK", "rollback"],
  ["Rollback Transaction", "rollback"],
  ["BEGIN TRANSACTION t", "begin"],
  ["BEGIN IMMEDIATE TRANSACTION 'x'", "begin"],
  ["COMMIT TRANSACTION t", "commit"],
  ['END TRANSACTION "my tx"', "commit"],
  ["ROLLBACK TRANSACTION left", "rollback"],
  ["SELECT 1", undefined],
  ["beginning", undefined],
  ['"BEGIN"', undefined],
  ["INSERT INTO begin VALUES (1)", undefined],
  ["SELECT 1 @ 2", undefined],
  ["SELECT 'open", undefined],
];

for (const [text, control] of forms) {
  test(`${text} → ${control ?? "not a transaction statement"}`, () => {
    assert.is(transactionControl(text), control);
  });
}

const errors: [string, string, number, readonly string[]][] = [
  ["BEGIN WORK", "Expected DEFERRED, IMMEDIATE, EXCLUSIVE, TRANSACTION or end of input but found 'WORK' at line 1, column 7", 7, ["DEFERRED", "IMMEDIATE", "EXCLUSIVE", "TRANSACTION", "EOF"]],
  ["BEGIN IMMEDIATE x", "Expected TRANSACTION or end of input but found 'x' at line 1, column 17", 17, ["TRANSACTION", "EOF"]],
  ["COMMIT TRANSACTION t u", "Expected end of input but found 'u' at line 1, column 22", 22, ["EOF"]],
  ["COMMIT TRANSACTION 1", "Expected a name, a string or end of input but found '1' at line 1, column 20", 20, ["Identifier", "String", "EOF"]],
  ["BEGIN t", "Expected DEFERRED, IMMEDIATE, EXCLUSIVE, TRANSACTION or end of input but found 't' at line 1, column 7", 7, ["DEFERRED", "IMMEDIATE", "EXCLUSIVE", "TRANSACTION", "EOF"]],
  ["ROLLBACK TRANSACTION TO sp", "Expected a name, a string or end of input but found 'TO' at line 1, column 22 (savepoints are not supported)", 22, ["Identifier", "String", "EOF"]],
  ["ROLLBACK TO sp", "Expected TRANSACTION or end of input but found 'TO' at line 1, column 10 (savepoints are not supported)", 10, ["TRANSACTION", "EOF"]],
  ["BEGIN @", "Expected DEFERRED, IMMEDIATE, EXCLUSIVE, TRANSACTION or end of input but found '@' at line 1, column 7", 7, ["DEFERRED", "IMMEDIATE", "EXCLUSIVE", "TRANSACTION", "EOF"]],
  ["END;", "Expected TRANSACTION or end of input but found ';' at line 1, column 4", 4, ["TRANSACTION", "EOF"]],
];

for (const [text, message, column, expected] of errors) {
  test(`${text}: a syntax error at the token that goes wrong`, () => {
    try {
      transactionControl(text);
      assert.unreachable("accepted");
    } catch (error) {
      assert.instance(error, SqlError);
      const e = error as SqlError;
      assert.is(e.code, "sql_syntax_error");
      assert.is(e.message, message);
      assert.is(e.position?.column, column);
      assert.equal(e.expected, expected);
    }
  });
}

test.run();
