/** Assertions on problem-details answers of `app.inject()`, shared by the route tests. */

import * as assert from "uvu/assert";
import type { LightMyRequestResponse } from "fastify";

/**
 * Asserts an RFC 9457 answer with the code's status — only the §7 members, a
 * detail with no stack trace and no `secret` (a data directory's path) —
 * and returns its body.
 */
export function problem(response: LightMyRequestResponse, status: number, code: string, secret?: string): Record<string, unknown> {
  assert.is(response.statusCode, status, response.body);
  assert.match(String(response.headers["content-type"]), /^application\/problem\+json/);
  const body = response.json() as Record<string, unknown>;
  assert.is(body.status, status);
  assert.is(body.code, code);
  assert.type(body.title, "string");
  assert.type(body.detail, "string");
  for (const key of Object.keys(body)) assert.ok(["status", "code", "title", "detail", "position", "expected", "errors"].includes(key), key);
  if (secret !== undefined) assert.not.match(String(body.detail), secret);
  assert.not.match(String(body.detail), /\n\s+at /);
  return body;
}
