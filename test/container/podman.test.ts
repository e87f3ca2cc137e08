/**
 * The container image, built and run for real with podman (no Docker engine
 * runs on these machines; see /work/shared/CONTAINERS.md and
 * scripts/ci-podman.sh, which CI runs as root first).
 *
 * No image registry is reachable, so the base image is made here from this
 * machine's own `node` binary and its shared libraries, and the Dockerfile's
 * `prebuilt` stage is used: the host runs `npm run build` and the test stages
 * a build context holding `package.json`, `dist/` and exactly the production
 * packages of `package-lock.json` (no dev dependencies). That base has no
 * npm and no shell, so the runtime stage is proven to need neither. The
 * container then runs read-only as 10001:10001 with a host data directory
 * at /data and the port published on 127.0.0.1 only.
 *
 * Without podman on PATH the suite is one passing test that checks podman is
 * indeed absent and says the container was not tested.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import { accessSync, constants, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, chownSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const UID = 10001;
const GID = 10001;
const IMAGE = `localhost/storedb:container-test-${process.pid}`;
const BASE = `localhost/storedb-node-base:${process.version}`;
const NAME = `storedb-container-test-${process.pid}`;

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

async function podman(...args: string[]): Promise<string> {
  const { stdout } = await run("podman", args, { maxBuffer: 64 << 20 });
  return stdout.trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A base image holding only this machine's node and the libraries it links (cached by node version). */
/**
 * podman's image store is one per machine: two suites building at once (CI beside a
 * developer's run, or two worktrees) would see and remove each other's intermediate
 * images. A directory made atomically serializes them; a lock whose owner died is taken over.
 */
async function machineLock(name: string, timeoutMs: number): Promise<() => void> {
  const dir = path.join(os.tmpdir(), `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, "pid"), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(readFileSafe(path.join(dir, "pid")));
    if (owner > 0 && !alive(owner)) rmSync(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`another container test (pid ${owner}) held ${dir} for ${timeoutMs} ms`);
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return ""; // the owner has made the directory and not yet written its pid
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function ensureBaseImage(): Promise<void> {
  const exists = await run("podman", ["image", "exists", BASE]).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), "storedb-base-"));
  try {
    const rootfs = path.join(dir, "rootfs");
    mkdirSync(path.join(rootfs, "usr/local/bin"), { recursive: true });
    mkdirSync(path.join(rootfs, "tmp"), { recursive: true });
    cpSync(process.execPath, path.join(rootfs, "usr/local/bin/node"));
    const { stdout } = await run("ldd", [process.execPath]);
    for (const lib of stdout.match(/\/[^ \n]+/g) ?? []) {
      mkdirSync(path.join(rootfs, path.dirname(lib)), { recursive: true });
      cpSync(lib, path.join(rootfs, lib), { dereference: true });
    }
    await run("tar", ["-C", rootfs, "-cf", path.join(dir, "base.tar"), "."]);
    await podman("import", path.join(dir, "base.tar"), BASE);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `prebuilt` build context: package.json, dist/, console/, and the production packages of the lock file. */
function stageContext(dir: string): void {
  cpSync(path.join(root, "Dockerfile"), path.join(dir, "Dockerfile"));
  cpSync(path.join(root, "package.json"), path.join(dir, "package.json"));
  cpSync(path.join(root, "dist"), path.join(dir, "dist"), { recursive: true });
  cpSync(path.join(root, "console"), path.join(dir, "console"), { recursive: true });
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location.startsWith("node_modules/") || entry.dev || entry.devOptional) continue;
    const from = path.join(root, location);
    if (!existsSync(from)) continue; // an optional package for another platform
    // Nested node_modules are lock entries of their own, copied (or not) on their own terms.
    cpSync(from, path.join(dir, location), {
      recursive: true,
      filter: (source) => path.relative(from, source).split(path.sep)[0] !== "node_modules",
    });
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no /health answer within ${timeoutMs} ms: ${await podman("logs", NAME).catch(String)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function post(url: string, command: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/v1/commands`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ database: "shop", command }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

if (onPath("podman") === undefined) {
  test("container test skipped: podman is not on PATH (scripts/ci-podman.sh installs it)", () => {
    assert.is(onPath("podman"), undefined);
    console.log("  container test skipped: podman is not on PATH");
  });
} else {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "storedb-container-"));
  const context = path.join(scratch, "context");
  const data = path.join(scratch, "data");
  let url = "";
  /** Images present before our build: everything else the build made (final and intermediate) is removed after. */
  let imagesBefore = new Set<string>();
  let unlock = () => {};

  test.before(async () => {
    unlock = await machineLock("storedb-container-test", 15 * 60_000);
  });

  test.after(async () => {
    await run("podman", ["rm", "-f", NAME]).catch(() => undefined);
    const made = (await podman("images", "-a", "-q", "--no-trunc")).split("\n").filter((id) => id !== "" && !imagesBefore.has(id));
    await run("podman", ["rmi", "-f", IMAGE]).catch(() => undefined);
    if (made.length > 0) await run("podman", ["rmi", "-f", ...made]).catch(() => undefined);
    if (process.getuid?.() !== 0) await run("podman", ["unshare", "rm", "-rf", data]).catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
    unlock();
  });

  test("the image builds from the Dockerfile on a local node base", async () => {
    await run(process.execPath, [path.join(root, "scripts/build.mjs")], { cwd: root });
    mkdirSync(context);
    stageContext(context);
    await ensureBaseImage();
    imagesBefore = new Set((await podman("images", "-a", "-q", "--no-trunc")).split("\n"));
    await podman(
      "build",
      "--format=docker",
      `--build-arg=NODE_IMAGE=${BASE}`,
      "--build-arg=BUILD_STAGE=prebuilt",
      `--build-arg=STORE_UID=${UID}`,
      `--build-arg=STORE_GID=${GID}`,
      "-t",
      IMAGE,
      context,
    );
    const config = JSON.parse(await podman("image", "inspect", "--format", "{{json .Config}}", IMAGE)) as {
      User: string;
      Env: string[];
      ExposedPorts: Record<string, unknown>;
      Volumes: Record<string, unknown>;
    };
    assert.is(config.User, `${UID}:${GID}`);
    assert.ok(config.Env.includes("STORE_DATA_PATH=/data"));
    assert.ok(config.Env.includes("STORE_BIND_ADDRESS=0.0.0.0"));
    assert.ok("3000/tcp" in config.ExposedPorts);
    assert.ok("/data" in config.Volumes);
    const healthcheck = JSON.parse(await podman("image", "inspect", "--format", "{{json .HealthCheck}}", IMAGE)) as { Test: string[] };
    assert.equal(healthcheck.Test.slice(0, 3), ["CMD", "node", "-e"]);
  });

  test("the image holds no dev dependencies", async () => {
    const listing = await podman("run", "--rm", "--read-only", "--entrypoint", "node", IMAGE, "-e", "console.log(require('fs').readdirSync('/app/node_modules').join(' '))");
    const installed = listing.split(" ");
    for (const runtime of ["fastify", "chevrotain", "ajv", "fast-json-stable-stringify"]) assert.ok(installed.includes(runtime), runtime);
    for (const dev of ["better-sqlite3", "esbuild", "typescript", "tsx", "autocannon", "uvu"]) assert.not.ok(installed.includes(dev), dev);
  });

  test("runs read-only as a non-root user, serves /health and commands, writes the .store as that user", async () => {
    mkdirSync(data);
    // Rootless podman maps container uids into the user's subordinate range: chown through it.
    if (process.getuid?.() === 0) chownSync(data, UID, GID);
    else await podman("unshare", "chown", `${UID}:${GID}`, data);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await podman(
      "run",
      "-d",
      "--read-only",
      "--tmpfs=/tmp",
      `--user=${UID}:${GID}`,
      "--health-interval=disable", // no systemd timers here; the check is run by hand below
      `--volume=${data}:/data`,
      `--publish=127.0.0.1:${port}:3000`,
      `--name=${NAME}`,
      IMAGE,
    );
    await waitForHealth(url, 20_000);
    const health = await fetch(`${url}/health`);
    assert.equal(await health.json(), { status: "ok" });

    const created = await post(url, { kind: "create-table", schema: { name: "users", columns: { id: "text", name: "text" }, primary_key: { columns: ["id"] } } });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const inserted = await post(url, { kind: "insert", table: "users", rows: [{ id: "1", name: "Ada" }] });
    assert.equal(inserted.body, { kind: "mutation", operation: "insert", table: "users", rowsAffected: 1 });
    const selected = await post(url, { kind: "sql", sql: "SELECT name FROM users WHERE id = ?", params: ["1"] });
    assert.equal(selected.body, { kind: "rows", columns: ["name"], rows: [{ name: "Ada" }], rowCount: 1 });

    const owner = process.getuid?.() === 0 ? statSync(path.join(data, "shop.store")) : undefined;
    if (owner !== undefined) {
      assert.is(owner.uid, UID);
      assert.is(owner.gid, GID);
    } else {
      assert.is(await podman("unshare", "stat", "-c", "%u:%g", path.join(data, "shop.store")), `${UID}:${GID}`);
    }
    const user = await podman("exec", NAME, "node", "-e", "console.log(process.getuid() + ':' + process.getgid())");
    assert.is(user, `${UID}:${GID}`);
  });

  test("serves the web console's files", async () => {
    const page = await fetch(`${url}/`);
    assert.is(page.status, 200);
    assert.is(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await page.text(), '<script type="module" src="console/main.js"></script>');
    const script = await fetch(`${url}/console/main.js`);
    assert.is(script.status, 200);
    assert.is(script.headers.get("content-type"), "text/javascript; charset=utf-8");
  });

  test("the HEALTHCHECK command passes inside the running container", async () => {
    const { stdout } = await run("podman", ["healthcheck", "run", NAME]);
    assert.not.match(stdout, "unhealthy");
  });

  test("podman stop: graceful shutdown, exit code 0", async () => {
    await podman("stop", "--time=15", NAME);
    const code = await podman("inspect", "--format", "{{.State.ExitCode}}", NAME);
    assert.is(code, "0");
    const logs = await podman("logs", NAME);
    assert.match(logs, '"msg":"stopped"');
  });
}

test.run();
