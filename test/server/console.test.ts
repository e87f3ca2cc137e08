/**
 * The web console's files as the server serves them (`src/server/console.ts`),
 * through `app.inject()` on the real app: every file of `console/` at its
 * URL with its content type, caching and security headers; public with an
 * API key set while the data routes stay closed; revalidation by ETag; and
 * the page's own rules — no inline script or style, nothing that turns
 * server data into markup, every file it references served. The browser
 * side is `test/console/console.test.ts`.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { root } from "../../scripts/bundle.mjs";
import { buildApp } from "../../src/server/app.js";
import { consoleFiles, CONTENT_SECURITY_POLICY, packagedConsoleDir } from "../../src/server/console.js";
import { DataDirectory } from "../../src/storage/data-directory.js";

const KEY = "console-test-key-0123456789-abcdefghij";
const consoleDir = path.join(root, "console");
const files = readdirSync(consoleDir);
const urlOf = (name: string): string => (name === "index.html" ? "/" : `/console/${name}`);

let dir = "";
let store: DataDirectory;
let app: FastifyInstance;
let open: FastifyInstance;

test.before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "storedb-console-"));
  store = await DataDirectory.open(dir);
  app = buildApp({ store, apiKey: KEY, maxBodyBytes: 1 << 20 });
  open = buildApp({ store, maxBodyBytes: 1 << 20 });
  await app.ready();
  await open.ready();
});

test.after(async () => {
  await app.close();
  await open.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the packaged console folder is the checkout's console/", () => {
  assert.is(packagedConsoleDir(), consoleDir);
  for (const name of ["index.html", "main.js", "console.css"]) assert.ok(files.includes(name), name);
});

test("every console file is served at its URL, without a key, with its content type and headers", async () => {
  const types: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
  };
  for (const name of files) {
    const response = await app.inject({ method: "GET", url: urlOf(name) });
    assert.is(response.statusCode, 200, name);
    assert.is(response.headers["content-type"], types[path.extname(name)], name);
    assert.equal(response.rawPayload, readFileSync(path.join(consoleDir, name)), name);
    assert.is(response.headers["cache-control"], "no-cache", name);
    assert.match(String(response.headers.etag), /^"[A-Za-z0-9_-]{27}"$/, name);
    assert.is(response.headers["content-security-policy"], CONTENT_SECURITY_POLICY, name);
    assert.is(response.headers["x-content-type-options"], "nosniff", name);
    assert.is(response.headers["referrer-policy"], "no-referrer", name);
    assert.is(response.headers["x-frame-options"], "DENY", name);
  }
});

test("the policy allows this origin only and no inline script or style", () => {
  const directives = new Map(CONTENT_SECURITY_POLICY.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1).join(" ")]));
  assert.is(directives.get("default-src"), "'none'");
  for (const name of ["script-src", "style-src", "connect-src", "img-src"]) assert.is(directives.get(name), "'self'", name);
  assert.is(directives.get("frame-ancestors"), "'none'");
  assert.not.match(CONTENT_SECURITY_POLICY, "unsafe");
});

test("HEAD answers the headers; a matching If-None-Match answers 304 without a body", async () => {
  const head = await app.inject({ method: "HEAD", url: "/" });
  assert.is(head.statusCode, 200);
  assert.is(head.payload, "");
  const etag = String(head.headers.etag);
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const revalidated = await app.inject({ method: "GET", url: "/", headers: { "if-none-match": header } });
    assert.is(revalidated.statusCode, 304, header);
    assert.is(revalidated.payload, "", header);
    assert.is(revalidated.headers.etag, etag, header);
  }
  const changed = await app.inject({ method: "GET", url: "/", headers: { "if-none-match": '"stale"' } });
  assert.is(changed.statusCode, 200);
  assert.ok(changed.payload.length > 0);
});

test("the files are public with a key set; data routes still need the key; other names are 404", async () => {
  const databases = await app.inject({ method: "GET", url: "/v1/databases" });
  assert.is(databases.statusCode, 401);
  for (const server of [app, open]) {
    for (const url of ["/console/nothing.js", "/console/index.html", "/console/"]) {
      const response = await server.inject({ method: "GET", url });
      assert.is(response.statusCode, 404, url);
      assert.is(response.json().code, "not_found", url);
    }
  }
  // The folder's files are a fixed table: a path cannot climb out of it.
  for (const url of ["/console/..%2fpackage.json", "/console/../package.json", "/console/%2e%2e%2fpackage.json", "/console/..%5cpackage.json"]) {
    const response = await open.inject({ method: "GET", url });
    assert.ok(response.statusCode === 404 || response.statusCode === 400, `${url}: ${response.statusCode}`);
    assert.not.match(response.payload, '"name": "storedb"');
  }
  const post = await app.inject({ method: "POST", url: "/", headers: { authorization: `Bearer ${KEY}` } });
  assert.is(post.statusCode, 405);
  assert.is(post.headers.allow, "GET, HEAD");
});

test("the page has no inline script or style, and every file it references is served", async () => {
  const page = readFileSync(path.join(consoleDir, "index.html"), "utf8");
  for (const tag of page.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\bsrc="/, tag);
  assert.not.match(page, /<script\b[^>]*>[^<]+<\/script>/);
  assert.not.match(page, /<style\b/);
  assert.not.match(page, /\sstyle="/);
  assert.not.match(page, /\son[a-z]+="/);
  const references = [...page.matchAll(/\s(?:src|href)="([^"#]+)"/g)].map((match) => match[1]!);
  assert.ok(references.length >= 3, references.join(" "));
  for (const name of files.filter((file) => file.endsWith(".js"))) {
    const source = readFileSync(path.join(consoleDir, name), "utf8");
    for (const match of source.matchAll(/^import [^;]+ from "\.\/([^"]+)";$/gm)) references.push(`console/${match[1]!}`);
  }
  for (const reference of new Set(references)) {
    const response = await app.inject({ method: "GET", url: new URL(reference, "http://console.test/").pathname });
    assert.is(response.statusCode, 200, reference);
  }
});

test("no console script turns text into markup or code", () => {
  for (const name of files.filter((file) => file.endsWith(".js"))) {
    const source = readFileSync(path.join(consoleDir, name), "utf8");
    assert.not.match(source, /\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|\beval\(|new Function/, name);
    // Requests go to the page's own server only: relative URLs, no absolute origin anywhere.
    assert.not.match(source, /https?:\/\//, name);
  }
});

/** Why registering the console from a folder holding `files` fails. */
async function refusal(files: Record<string, string>): Promise<string> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "storedb-console-dir-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(scratch, name), text);
    const app = Fastify();
    app.register(consoleFiles, { dir: scratch });
    const error = await app.ready().then(() => undefined, (reason: Error) => reason);
    assert.ok(error instanceof Error, `registered ${Object.keys(files).join(", ")}`);
    return error.message;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

test("a console folder with a file of unknown type, or without its page, stops startup", async () => {
  assert.match(await refusal({ "index.html": "<!doctype html>", "notes.txt": "not servable" }), "notes.txt has no known content type");
  assert.match(await refusal({ "main.js": "" }), "index.html is missing");
});

test.run();
