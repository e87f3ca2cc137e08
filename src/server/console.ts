/**
 * The web console's static files (CONTRACT §12): `GET /` is the console's
 * page, `GET /console/<file>` its scripts, styles and icon. The files hold
 * no data, so they are public like `/health`; every data request the page
 * makes carries the key its user typed.
 *
 * The files live in the package's `console/` folder, beside `dist/`, and are
 * served as written — no build step at run time. They are read once, when
 * the plugin registers, into a fixed table: a request can only name one of
 * those files, so nothing in a URL reaches the filesystem, and answering one
 * is a map lookup (any other name under `/console/` is 404 `not_found`).
 * Each answer carries:
 * - its content type (an extension outside `CONTENT_TYPES` stops startup, so
 *   a file is never served as something the browser has to guess);
 * - `Cache-Control: no-cache` with a strong `ETag` (a digest of the bytes):
 *   the browser revalidates on every load and gets a 304 while the package
 *   is unchanged, and never runs a stale script against a newer server;
 * - a strict Content-Security-Policy — scripts, styles and requests from
 *   this origin only, no inline script or style, no frames, no forms posting
 *   anywhere — plus `nosniff`, `no-referrer` and framing refused.
 *
 * The folder is found from this module's own location: the nearest ancestor
 * holding a `package.json` is the package root (as Node scopes a package),
 * which holds whether this runs from `src/` under tsx, from `dist/` or one
 * of its chunks, or from a test bundle under the checkout.
 */

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify";
import { StoreError } from "../errors.js";
import { noteRoute } from "./outcome.js";
import { PATHS } from "./paths.js";

export interface ConsoleOptions extends Record<string, unknown> {
  /** The folder of console files; the package's `console/` when omitted. */
  readonly dir?: string;
}

/** The page, served at `PATHS.console`; the other files at `PATHS.consoleFile`. */
const PAGE = "index.html";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

interface ConsoleFile {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

/** The package's `console/` folder: beside the nearest `package.json` above this module. */
export function packagedConsoleDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`storedb: no package.json above ${fileURLToPath(import.meta.url)}; the console's files cannot be found`);
    dir = parent;
  }
  return path.join(dir, "console");
}

function loadFiles(dir: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const contentType = CONTENT_TYPES[path.extname(entry.name)];
    if (contentType === undefined) throw new Error(`storedb: console file ${entry.name} has no known content type`);
    const body = readFileSync(path.join(dir, entry.name));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    files.set(entry.name, { body, contentType, etag });
  }
  if (!files.has(PAGE)) throw new Error(`storedb: the console's ${PAGE} is missing from ${dir}`);
  return files;
}

/** Whether `If-None-Match` names this entity tag (weak comparison, as RFC 9110 asks for GET). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers["if-none-match"];
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

function send(file: ConsoleFile, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  reply.header("cache-control", "no-cache");
  reply.header("etag", file.etag);
  if (notModified(request, file.etag)) {
    reply.code(304).send();
    return;
  }
  reply.header("content-type", file.contentType);
  reply.send(file.body);
}

export const consoleFiles: FastifyPluginCallback<ConsoleOptions> = (app, options, done) => {
  let files: Map<string, ConsoleFile>;
  try {
    files = loadFiles(options.dir ?? packagedConsoleDir());
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  const page = files.get(PAGE)!;
  files.delete(PAGE);
  app.get(PATHS.console, { config: { public: true } }, (request, reply) => {
    noteRoute(request, PATHS.console);
    send(page, request, reply);
  });
  app.get<{ Params: { file: string } }>(PATHS.consoleFile, { config: { public: true } }, (request, reply) => {
    noteRoute(request, PATHS.consoleFile);
    const file = files.get(request.params.file);
    if (file === undefined) throw new StoreError("not_found", `The console has no file ${request.params.file}.`);
    send(file, request, reply);
  });
  done();
};
