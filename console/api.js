/**
 * Every request the console makes, in one place: the §12 routes of the
 * server the page was loaded from, with the API key the user typed.
 *
 * URLs are relative to the page (`v1/databases`, not an absolute origin), so
 * the console talks only to its own server — also when a proxy serves it
 * under a path prefix — and the page's Content-Security-Policy
 * (`connect-src 'self'`) refuses anything else. The key lives in this tab's
 * sessionStorage only (never localStorage, never a cookie): it is gone when
 * the tab closes and is never sent anywhere but the Authorization header.
 * A 401 is its own error type, so the caller can ask for a key and retry.
 */

/**
 * @typedef {{line: number, column: number, offset: number}} Position
 * @typedef {{table?: string, row?: number, column?: string, code: string, message: string}} ProblemEntry
 * @typedef {{status: number, code: string, title: string, detail?: string, position?: Position,
 *   expected?: string[], errors?: ProblemEntry[], step?: number}} Problem
 * @typedef {{name: string, bytes: number, tables: string[] | null}} DatabaseInfo  tables: null when the file does not parse
 * @typedef {string | number | boolean | null} Value
 * @typedef {{kind: string, [member: string]: unknown}} Result
 */

const KEY_ITEM = "storedb.apiKey";

/** The API key of this tab, or null. */
export function storedKey() {
  return sessionStorage.getItem(KEY_ITEM);
}

/** @param {string | null} key */
export function storeKey(key) {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

/** A key the server could accept as a bearer token: visible ASCII, no spaces (what an HTTP header can carry). */
export function isPlausibleKey(/** @type {string} */ key) {
  return /^[!-~]+$/.test(key);
}

/** The server answered 401: no key, or the wrong one. */
export class Unauthorized extends Error {
  constructor() {
    super("The server needs a valid API key.");
    this.name = "Unauthorized";
  }
}

/** The server answered with problem details (CONTRACT §7), or could not be reached at all. */
export class ProblemError extends Error {
  /** @param {Problem} problem */
  constructor(problem) {
    super(problem.detail ?? problem.title);
    this.name = "ProblemError";
    this.problem = problem;
  }
}

/**
 * @param {unknown} payload
 * @param {number} status
 * @returns {Problem}
 */
function asProblem(payload, status) {
  if (payload !== null && typeof payload === "object" && typeof (/** @type {Problem} */ (payload).code) === "string") {
    return /** @type {Problem} */ (payload);
  }
  return { status, code: "http_error", title: `HTTP ${status}`, detail: typeof payload === "string" ? payload.slice(0, 500) : undefined };
}

/**
 * @param {string} path relative to the page
 * @param {{method?: string, body?: unknown, signal?: AbortSignal}} [options]
 * @returns {Promise<unknown>}
 */
async function request(path, { method = "GET", body, signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: "application/json, application/problem+json" };
  const key = storedKey();
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  /** @type {Response} */
  let response;
  try {
    response = await fetch(new URL(path, document.baseURI), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: "omit",
      cache: "no-store",
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ProblemError({ status: 0, code: "unreachable", title: "Server unreachable", detail: "The server did not answer; is it still running?" });
  }
  if (response.status === 401) throw new Unauthorized();
  const json = /json/.test(response.headers.get("content-type") ?? "");
  const payload = json ? await response.json() : await response.text();
  if (!response.ok) throw new ProblemError(asProblem(payload, response.status));
  return payload;
}

/** `GET /v1/databases`, sorted by name. */
/** @param {AbortSignal} [signal] */
export async function listDatabases(signal) {
  const answer = /** @type {{databases: DatabaseInfo[]}} */ (await request("v1/databases", { signal }));
  return answer.databases;
}

/**
 * `POST /v1/databases/{name}/commands`: one command of CONTRACT §4.
 * @param {string} database
 * @param {Record<string, unknown>} command
 * @param {AbortSignal} [signal]
 * @returns {Promise<Result>}
 */
export async function runCommand(database, command, signal) {
  const path = `v1/databases/${encodeURIComponent(database)}/commands`;
  return /** @type {Result} */ (await request(path, { method: "POST", body: { command }, signal }));
}
