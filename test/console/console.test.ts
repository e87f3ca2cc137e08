/**
 * The web console end to end: a real server process started as the
 * README's console example says (`storedb serve`, the bundle `npm run build`
 * makes, on a real data directory, with the key its command generates), and
 * headless Chromium driving the page the way a person would — by labels, roles and
 * the keyboard. Enter the key (a wrong one first), pick a database, read a
 * table's schema, run a query with a typed parameter, see an error marked
 * in the editor, see a plan, page through 10,000 rows, and get the key
 * prompt back when the key stops working. Along the way: no console errors
 * or CSP violations, every request to the page's own origin with the key,
 * the key in sessionStorage only, every control labelled, text contrast at
 * least 4.5:1 in both colour schemes, and a visible focus ring.
 *
 * Screenshots go to `.tmp/screenshots/console/` (ignored by git; the path
 * is printed); `docs/console.png` in the README is a copy of `rows.png`.
 */

import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Page, Request } from "playwright-core";
import { root } from "../../scripts/bundle.mjs";
import { command, serverEnv, startServer, tempDir } from "../server/support/server-process.js";
import { launchBrowser, type Browser } from "./support/browser.js";
import { serveReadmeExample, type ReadmeServer } from "./support/readme-example.js";

const BIG = 10_000;
const SCREENSHOTS = path.join(root, ".tmp", "screenshots", "console");

let KEY = "";
let cwd = "";
let server: ReadmeServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const requests: Request[] = [];

async function seed(database: string, sql: string, params: unknown[] = []): Promise<void> {
  const answer = await command(server.url, database, { kind: "sql", sql, params }, { authorization: `Bearer ${KEY}` });
  assert.is(answer.status, 200, JSON.stringify(answer.body));
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The text of the status line once it has settled on something other than a "…ing" message. */
async function settledStatus(): Promise<string> {
  const status = page.locator("#result-status");
  await page.waitForFunction(() => {
    const text = document.getElementById("result-status")?.textContent ?? "";
    return text !== "" && !text.endsWith("…");
  });
  return (await status.textContent()) ?? "";
}

/** Replaces the editor's text as typing would (so the editor sees input events). */
async function typeSql(sql: string): Promise<void> {
  const editor = page.getByLabel("SQL", { exact: true });
  await editor.fill(sql);
}

async function enterKey(key: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "API key" });
  await dialog.waitFor();
  await dialog.getByLabel("API key").fill(key);
  await dialog.getByRole("button", { name: "Use key" }).click();
}

test.before(async () => {
  rmSync(SCREENSHOTS, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The server is the README's example, run line by line: its key command, then its `storedb serve`.
  cwd = tempDir("console");
  server = await serveReadmeExample(cwd);
  KEY = server.key;

  await seed("shop", "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE, active BOOLEAN DEFAULT TRUE)");
  await seed("shop", "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), amount REAL, CHECK (amount > 0))");
  await seed(
    "shop",
    "INSERT INTO users (id, name, email, active) VALUES (1, 'Ada', 'ada@example.com', TRUE), (2, 'Alan', NULL, FALSE), (3, 'Grace', 'grace@example.com', TRUE), (4, '<b>Edsger</b>', 'ew@example.com', TRUE)",
  );
  await seed("shop", "INSERT INTO orders (id, user_id, amount) VALUES (1, 1, 12.5), (2, 3, 99)");
  await seed("big", "CREATE TABLE events (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, size INTEGER)");
  const kinds = ["click", "view", "buy", "leave"];
  for (let start = 0; start < BIG; start += 2_500) {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({ id: start + i + 1, kind: kinds[(start + i) % 4], size: (start + i) % 97 }));
    const answer = await command(server.url, "big", { kind: "insert", table: "events", rows }, { authorization: `Bearer ${KEY}` });
    assert.is(answer.status, 200, JSON.stringify(answer.body));
  }

  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => requests.push(request));
  console.log(`  screenshots: ${SCREENSHOTS}`);
});

test.after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

test("the page asks for the key on the server's 401; a wrong key brings the prompt back; the right one lists the databases", async () => {
  await page.goto(server.consoleUrl);
  const dialog = page.getByRole("dialog", { name: "API key" });
  await dialog.waitFor();
  assert.match((await dialog.textContent()) ?? "", "This server needs its API key.");
  assert.ok(await dialog.getByLabel("API key").evaluate((input) => input === document.activeElement), "the key field has focus");
  await shot("key-prompt");

  await enterKey("not-the-key");
  await page.waitForFunction(() => /refused/.test(document.getElementById("key-reason")?.textContent ?? ""));
  assert.ok(await dialog.isVisible(), "the prompt came back");
  await enterKey(KEY);

  const databases = page.getByRole("navigation", { name: "Databases" });
  await databases.getByRole("button", { name: /^big/ }).waitFor();
  assert.equal(await databases.locator("button.database .database-name").allTextContents(), ["big", "shop"]);
  assert.match((await databases.getByRole("button", { name: /^shop/ }).textContent()) ?? "", "2 tables");
  assert.match((await page.locator("#key-state").textContent()) ?? "", "Using the API key");
});

test("picking a database lists its tables and their schemas", async () => {
  const databases = page.getByRole("navigation", { name: "Databases" });
  await databases.getByRole("button", { name: /^shop/ }).click();
  assert.is(await databases.getByRole("button", { name: /^shop/ }).getAttribute("aria-current"), "true");
  await page.locator("#tables-status", { hasText: "shop: 2 tables" }).waitFor();
  assert.equal(await page.locator(".table-schema .table-name").allTextContents(), ["orders", "users"]);
  await page.locator(".table-schema summary", { hasText: "users" }).click();
  const columns = page.getByRole("table", { name: "Columns of users" });
  await columns.waitFor();
  const rows = await columns.locator("tbody tr").allInnerTexts();
  assert.equal(rows.map((row) => row.split("\t").slice(0, 2).join(" ")), ["id integer", "name text", "email text", "active boolean"]);
  assert.match(rows[0]!, "primary key");
  assert.match(rows[1]!, "required");
  assert.match(rows[2]!, "unique");
  assert.match(rows[3]!, "default true");
  await page.locator(".table-schema summary", { hasText: "orders" }).click();
  assert.match((await page.getByRole("table", { name: "Columns of orders" }).innerText()) ?? "", "references users(id)");
});

test("a query with a typed parameter runs on Ctrl+Enter and shows its rows, row count and time", async () => {
  await typeSql("SELECT id, name, email, active FROM users WHERE id >= ? ORDER BY id");
  await page.getByRole("button", { name: "Add parameter" }).click();
  await page.getByLabel("Type of parameter 1").selectOption("number");
  await page.getByLabel("Value of parameter 1").fill("2");
  await page.getByLabel("SQL", { exact: true }).press("Control+Enter");
  const status = await settledStatus();
  assert.match(status, /^3 rows in [\d.,]+ ms\.$/);
  const table = page.getByRole("table", { name: "Result: 3 rows" });
  assert.equal(await table.locator("thead th").allTextContents(), ["#", "id", "name", "email", "active"]);
  const cells = await table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
  assert.equal(cells, [
    ["1", "2", "Alan", "NULL", "false"],
    ["2", "3", "Grace", "grace@example.com", "true"],
    ["3", "4", "<b>Edsger</b>", "ew@example.com", "true"],
  ]);
  // A value that looks like markup is shown as text.
  assert.is(await table.locator("b").count(), 0);
  assert.is(await table.locator("td.null").count(), 1);
  // One answer, one page: no pager for three rows.
  assert.not.ok(await page.getByRole("navigation", { name: "Result pages" }).isVisible());
  await shot("rows");
});

test("a text parameter against an integer column is the server's type_mismatch, shown in the alert region", async () => {
  await page.getByLabel("Type of parameter 1").selectOption("text");
  await page.getByLabel("Value of parameter 1").fill("2");
  await page.getByRole("button", { name: "Run" }).click();
  assert.match(await settledStatus(), /^Failed in [\d.,]+ ms: /);
  assert.match((await page.getByRole("alert").textContent()) ?? "", "type_mismatch");
  await page.getByRole("button", { name: "Remove parameter 1" }).click();
  assert.is(await page.locator("#param-list li").count(), 0);
});

test("a syntax error marks its position in the editor, and a button takes the keyboard there", async () => {
  const sql = "SELECT id, name\nFROM users\nWHERE id = = 1";
  await typeSql(sql);
  await page.keyboard.press("Control+Enter");
  assert.match(await settledStatus(), /^Failed in [\d.,]+ ms: SQL syntax error\.$/);
  const alert = page.getByRole("alert");
  assert.match((await alert.textContent()) ?? "", "sql_syntax_error");
  assert.match((await alert.textContent()) ?? "", "line 3, column 12");

  const editor = page.getByLabel("SQL", { exact: true });
  assert.is(await editor.getAttribute("aria-invalid"), "true");
  const mark = page.locator(".editor mark.error-mark");
  assert.is(await mark.textContent(), "=");
  assert.is(await editor.evaluate((area: HTMLTextAreaElement) => area.selectionStart), sql.indexOf("= 1"));

  // The mark sits on the 12th character of the 3rd line of the textarea's text.
  const offBy = await page.evaluate(() => {
    const area = document.getElementById("sql") as HTMLTextAreaElement;
    const markBox = document.querySelector(".error-mark")!.getBoundingClientRect();
    const style = getComputedStyle(area);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontSize} ${style.fontFamily}`;
    const charWidth = context.measureText("x".repeat(100)).width / 100;
    const box = area.getBoundingClientRect();
    const left = box.left + area.clientLeft + parseFloat(style.paddingLeft) + 11 * charWidth;
    const top = box.top + area.clientTop + parseFloat(style.paddingTop) + 2 * parseFloat(style.lineHeight);
    return { x: Math.abs(markBox.left - left), y: Math.abs(markBox.top - top) };
  });
  assert.ok(offBy.x < 2 && offBy.y < 4, `the mark is off its character by ${JSON.stringify(offBy)}`);
  await shot("error");

  await page.getByRole("button", { name: "Show line 3, column 12 in the editor" }).click();
  assert.ok(await editor.evaluate((area) => area === document.activeElement), "the editor has focus");
  await page.keyboard.type("2 ");
  assert.is(await editor.getAttribute("aria-invalid"), null, "editing clears the mark");
  assert.is(await mark.count(), 0);
});

test("Explain shows the plan as a tree, with the access path the planner chose", async () => {
  await typeSql("SELECT name FROM users WHERE id = 3");
  await page.getByRole("button", { name: "Explain" }).click();
  assert.match(await settledStatus(), /^Query plan in [\d.,]+ ms\.$/);
  const tree = page.getByRole("list", { name: "Query plan" });
  await tree.waitFor();
  const text = await tree.innerText();
  assert.match(text, "statement: select");
  assert.match(text, "access: primary-key-lookup");
  assert.match(text, 'table="users"');
  // The access node is nested under the statement node.
  const nested = await tree.evaluate((list) => {
    const statement = [...list.querySelectorAll("summary")].find((summary) => summary.textContent?.startsWith("statement: select"));
    return [...(statement?.parentElement?.querySelectorAll("li") ?? [])].some((item) => item.textContent?.startsWith("access: primary-key-lookup"));
  });
  assert.ok(nested, "access is a child of the statement");
  await shot("plan");
});

test("the plan view renders any node kinds with children, not a fixed list", async () => {
  const made = {
    statement: {
      kind: "hash-aggregate",
      groups: 2,
      input: { kind: "sort", keys: ["a"], input: { kind: "index-range-scan", index: "by_a", low: { kind: "const", value: 1 } } },
      children: [{ kind: "window" }, { kind: "subquery", select: { kind: "scan", table: "t" } }],
      empty: [],
    },
  };
  const lines = await page.evaluate(async (plan) => {
    const module = "/console/plan.js"; // a URL in the page, not a module of this checkout
    const { planView } = (await import(module)) as { planView: (plan: unknown) => HTMLElement };
    const view = planView(plan);
    document.body.append(view);
    const out = [...view.querySelectorAll(".plan-tree summary, .plan-tree li.plan-leaf")].map((node) => {
      let depth = 0;
      for (let parent = node.parentElement; parent !== null && !parent.classList.contains("plan-tree"); parent = parent.parentElement) {
        if (parent.tagName === "UL" || parent.tagName === "OL") depth += 1;
      }
      return `${depth} ${node.textContent?.trim()}`;
    });
    view.remove();
    return out;
  }, made);
  assert.equal(lines, [
    "0 plan:",
    "1 statement: hash-aggregate groups=2",
    "2 input: sort keys=[\"a\"]",
    "3 input: index-range-scan index=\"by_a\"",
    "4 low: const value=1",
    "2 children: items=2",
    "3 window",
    "3 subquery",
    "4 select: scan table=\"t\"",
  ]);
});

test("a large result is paged on the client: one page in the DOM at a time", async () => {
  const databases = page.getByRole("navigation", { name: "Databases" });
  await databases.getByRole("button", { name: /^big/ }).click();
  await page.locator("#tables-status", { hasText: "big: 1 table" }).waitFor();
  await typeSql("SELECT id, kind, size FROM events ORDER BY id");
  await page.getByRole("button", { name: "Run" }).click();
  assert.match(await settledStatus(), /^10,000 rows in [\d.,]+ ms\.$/);

  const pager = page.getByRole("navigation", { name: "Result pages" });
  const body = page.locator("table.rows tbody tr");
  const firstId = () => page.locator("table.rows tbody tr:first-child td").first().textContent();
  assert.is(await body.count(), 100);
  assert.match((await page.locator(".page-range").textContent()) ?? "", "Rows 1–100 of 10,000");
  assert.ok(await pager.getByRole("button", { name: "Previous" }).isDisabled());

  await pager.getByRole("button", { name: "Next" }).click();
  assert.is(await firstId(), "101");
  assert.match((await page.locator(".page-range").textContent()) ?? "", "Rows 101–200 of 10,000");

  await pager.getByRole("button", { name: "Last" }).click();
  assert.is(await firstId(), "9901");
  assert.is(await body.count(), 100);
  assert.ok(await pager.getByRole("button", { name: "Next" }).isDisabled());

  await pager.getByLabel("Page", { exact: true }).fill("42");
  await pager.getByLabel("Page", { exact: true }).press("Enter");
  assert.is(await firstId(), "4101");

  await pager.getByLabel("Rows per page").selectOption("500");
  assert.is(await body.count(), 500);
  assert.is(await firstId(), "4001", "the page holding the first row shown stays in view");
  assert.match((await page.locator(".page-range").textContent()) ?? "", "Rows 4,001–4,500 of 10,000");
  await shot("paging");
});

test("a key that stops working brings the prompt back, and the statement runs once a key is given", async () => {
  await page.evaluate(() => sessionStorage.setItem("storedb.apiKey", "revoked-key"));
  await typeSql("SELECT id FROM events WHERE id = 7");
  await page.getByRole("button", { name: "Run" }).click();
  const dialog = page.getByRole("dialog", { name: "API key" });
  await dialog.waitFor();
  assert.match((await dialog.textContent()) ?? "", "refused");
  await enterKey(KEY);
  assert.match(await settledStatus(), /^1 row in [\d.,]+ ms\.$/);

  // Cancelling the prompt leaves the statement not run, and says why.
  await page.evaluate(() => sessionStorage.setItem("storedb.apiKey", "revoked-key"));
  await page.getByRole("button", { name: "Run" }).click();
  await dialog.waitFor();
  await page.keyboard.press("Escape");
  assert.match(await settledStatus(), "API key needed");
  await page.getByRole("button", { name: "Enter API key…" }).click();
  await enterKey(KEY);
});

test("the key stays in this tab's sessionStorage, and every request goes to the page's own server with it", async () => {
  const storage = await page.evaluate(() => ({ session: sessionStorage.getItem("storedb.apiKey"), local: localStorage.length, cookie: document.cookie }));
  assert.equal(storage, { session: KEY, local: 0, cookie: "" });
  const origin = new URL(server.url).origin;
  assert.ok(requests.length > 10);
  for (const request of requests) assert.is(new URL(request.url()).origin, origin, request.url());
  const data = requests.filter((request) => new URL(request.url()).pathname.startsWith("/v1/"));
  assert.ok(data.some((request) => request.url().endsWith("/v1/databases")));
  assert.ok(data.some((request) => request.url().endsWith("/v1/databases/shop/commands") && request.method() === "POST"));
  const keyed = data.filter((request) => request.headers().authorization === `Bearer ${KEY}`);
  assert.ok(keyed.length > 5);
  // Only the very first listing (before any key was known) and the deliberately revoked ones went without the key.
  for (const request of data) {
    const authorization = request.headers().authorization;
    assert.ok(authorization === undefined || authorization === `Bearer ${KEY}` || authorization === "Bearer not-the-key" || authorization === "Bearer revoked-key", authorization);
  }
});

test("every control has an accessible name, and text has a contrast of at least 4.5:1 in both colour schemes", async () => {
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea, button")]
      .filter((control) => {
        const labelled = (control as HTMLInputElement).labels?.length ?? 0;
        const named = control.getAttribute("aria-label") ?? control.getAttribute("aria-labelledby") ?? (control.tagName === "BUTTON" ? control.textContent?.trim() : "");
        return labelled === 0 && (named ?? "") === "";
      })
      .map((control) => control.outerHTML),
  );
  assert.equal(unlabelled, []);

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const low = await page.evaluate(() => {
      const parse = (color: string): number[] => (color.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = ([r, g, b]: number[]): number => {
        const channel = (c: number): number => {
          const s = c / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
      };
      const background = (element: Element | null): number[] => {
        for (let node = element; node !== null; node = node.parentElement) {
          const color = parse(getComputedStyle(node).backgroundColor);
          if (color.length === 3 || (color[3] ?? 0) > 0.5) return color;
        }
        return [255, 255, 255];
      };
      const failures: string[] = [];
      for (const element of document.querySelectorAll("body *")) {
        const hasText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== "");
        const isField = element.matches("input, select, textarea");
        if (!hasText && !isField) continue;
        const style = getComputedStyle(element);
        const color = parse(style.color);
        if (color.length === 4 && color[3] === 0) continue; // transparent text: the editor's backdrop mirror
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || element.closest(".visually-hidden, [hidden], dialog:not([open])")) continue;
        const l1 = luminance(color);
        const l2 = luminance(background(element));
        const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
        if (ratio < 4.5) failures.push(`${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? "").trim().slice(0, 30)}": ${ratio.toFixed(2)}`);
      }
      return failures;
    });
    assert.equal(low, [], colorScheme);
  }
  await page.emulateMedia({ colorScheme: "light" });
});

test("the keyboard reaches the editor from the skip link, Tab leaves the editor, and focus is visible", async () => {
  // A reload starts the tab order from the top, and keeps the key: it is in this tab's sessionStorage.
  await page.reload();
  await page.getByRole("navigation", { name: "Databases" }).getByRole("button", { name: /^big/ }).waitFor();
  assert.not.ok(await page.getByRole("dialog", { name: "API key" }).isVisible());
  await page.keyboard.press("Tab");
  assert.is(await page.evaluate(() => document.activeElement?.textContent), "Skip to the SQL editor");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  const afterEditor = await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName);
  assert.is(afterEditor, "add-param", "Tab moves on from the editor (no keyboard trap)");
  await page.keyboard.press("Tab");
  const run = await page.evaluate(() => {
    const active = document.activeElement as HTMLElement;
    const style = getComputedStyle(active);
    return { text: active.textContent, outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  assert.equal(run, { text: "Run", outline: "solid", width: 3 });
});

test("on a server without a key the console opens at once; a new database is made by its first CREATE TABLE", async () => {
  const dir = tempDir("console-open");
  const open = await startServer(serverEnv(dir));
  const tab = await browser.context.newPage();
  try {
    tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await tab.goto(open.url);
    await tab.locator("#databases-status", { hasText: "No databases yet" }).waitFor();
    assert.not.ok(await tab.getByRole("dialog", { name: "API key" }).isVisible());

    await tab.getByLabel("Open a database by name").fill("Not A Name");
    await tab.getByRole("button", { name: "Open", exact: true }).click();
    assert.match((await tab.locator("#database-name-error").textContent()) ?? "", "1–64 of a–z");
    await tab.getByLabel("Open a database by name").fill("fresh");
    await tab.getByRole("button", { name: "Open", exact: true }).click();
    await tab.locator("#tables-status", { hasText: "fresh does not exist yet" }).waitFor();

    await tab.getByLabel("SQL", { exact: true }).fill("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    await tab.getByLabel("SQL", { exact: true }).press("Control+Enter");
    await tab.locator("#result-status", { hasText: "create-table on notes: 0 rows affected" }).waitFor();
    await tab.locator("#tables-status", { hasText: "fresh: 1 table" }).waitFor();
    await tab.getByRole("navigation", { name: "Databases" }).getByRole("button", { name: /^fresh/ }).waitFor();
    assert.is(await tab.evaluate(() => sessionStorage.getItem("storedb.apiKey")), null);
  } finally {
    await tab.close();
    await open.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the page produced no console errors and no CSP violations", () => {
  // Chromium logs every 4xx answer as a failed load: the deliberate 401s and 400s above. Anything else is a fault.
  const unexpected = problems.filter((line) => !/Failed to load resource: the server responded with a status of (400|401)/.test(line));
  assert.equal(unexpected, []);
});

test.run();
