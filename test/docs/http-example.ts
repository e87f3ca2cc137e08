/**
 * The `http example` blocks of the documentation: a request written as a
 * reader would send it, and the `http output` block holding the response it
 * must get. Kept apart from the runner so the format has one definition.
 *
 * A request is a request line (`POST /v1/databases/shop/commands`), header
 * lines (`Name: value`), then — after a blank line, or straight away — the
 * body, sent byte for byte (so a broken body can be shown too). A body gets
 * `Content-Type: application/json` and every request the document server's
 * key unless the example names those headers itself.
 *
 * A response is a status line (`HTTP/1.1 200 OK`), header lines, a blank
 * line and the body. The status and reason must match; each header listed
 * must be there with that value (its parameters, such as `; charset=utf-8`,
 * may follow); a JSON body must equal the answer as a value, so the
 * documentation may lay it out for reading. Headers not listed are not
 * checked.
 */

import { STATUS_CODES } from "node:http";
import * as assert from "uvu/assert";

export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const HEADER = /^([A-Za-z0-9-]+):\s*(.*)$/;

function headersAndBody(lines: readonly string[], from: number): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = {};
  let i = from;
  for (; i < lines.length; i++) {
    const header = HEADER.exec(lines[i] ?? "");
    if (!header) break;
    headers[(header[1] ?? "").toLowerCase()] = header[2] ?? "";
  }
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  return { headers, body: lines.slice(i).join("\n").trimEnd() };
}

export function parseRequest(text: string): HttpRequest {
  const lines = text.split("\n");
  const start = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)$/.exec(lines[0] ?? "");
  if (!start) throw new Error(`an http example starts with a request line such as "POST /v1/commands", not ${JSON.stringify(lines[0])}`);
  return { method: start[1] ?? "", path: start[2] ?? "", ...headersAndBody(lines, 1) };
}

export function parseResponse(text: string): HttpResponse {
  const lines = text.split("\n");
  const start = /^HTTP\/1\.1 (\d{3}) (.+)$/.exec(lines[0] ?? "");
  if (!start) throw new Error(`an http output starts with a status line such as "HTTP/1.1 200 OK", not ${JSON.stringify(lines[0])}`);
  const status = Number(start[1]);
  if (STATUS_CODES[status] !== start[2]) throw new Error(`status ${status} is "${STATUS_CODES[status]}", not "${start[2]}"`);
  return { status, ...headersAndBody(lines, 1) };
}

/** Sends `request` to the server at `base`, adding the key and content type it leaves out. */
export async function send(request: HttpRequest, base: string, key: string): Promise<HttpResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...request.headers };
  if (request.body !== "" && headers["content-type"] === undefined) headers["content-type"] = "application/json";
  const response = await fetch(new URL(request.path, base), {
    method: request.method,
    headers,
    ...(request.body === "" ? {} : { body: request.body }),
  });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Asserts `actual` is the response `expected` documents; `where` names the example. */
export function assertResponse(actual: HttpResponse, expected: HttpResponse, where: string): void {
  assert.is(actual.status, expected.status, `${where}: status ${actual.status}, body ${actual.body}`);
  for (const [name, value] of Object.entries(expected.headers)) {
    const got = actual.headers[name];
    const matches = got !== undefined && (got === value || got.startsWith(`${value};`));
    assert.ok(matches, `${where}: header ${name} is ${JSON.stringify(got)}, not ${JSON.stringify(value)}`);
  }
  const want = parsed(expected.body);
  if (want === undefined) assert.fixture(actual.body, expected.body, `${where}: body`);
  else assert.equal(parsed(actual.body), want, `${where}: body ${actual.body}`);
}
