/**
 * The console's wiring: which database is open, what runs when, and where
 * answers go. Views are built by their own modules (`schema.js`,
 * `results.js`, `plan.js`, `problem.js`); requests go through `api.js`.
 *
 * Flow: the page lists the databases at once, without a key; if the server
 * answers 401 the key prompt opens, and any request that meets a 401 later
 * (a wrong or changed key) brings it back and is retried with the new key.
 * Running a statement aborts the one still running, so the result shown is
 * always the last one asked for. Results and errors are announced through
 * the status line (`role="status"`) and the error region (`role="alert"`).
 */

import { listDatabases, ProblemError, runCommand, storedKey, storeKey, Unauthorized } from "./api.js";
import { byId, bytes, h, milliseconds, plural } from "./dom.js";
import { SqlEditor } from "./editor.js";
import { KeyPrompt } from "./key-prompt.js";
import { ParamError, ParamList } from "./params.js";
import { problemView } from "./problem.js";
import { resultView } from "./results.js";
import { tablesView } from "./schema.js";

/** @typedef {import("./api.js").Problem} Problem */

const DATABASE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const DATABASE_ITEM = "storedb.database";

const editor = new SqlEditor(/** @type {HTMLTextAreaElement} */ (byId("sql")), byId("sql-backdrop"));
const params = new ParamList(/** @type {HTMLOListElement} */ (byId("param-list")), byId("params-empty"));
const keyPrompt = new KeyPrompt(/** @type {HTMLDialogElement} */ (byId("key-dialog")));

const ui = {
  keyState: byId("key-state"),
  forgetKey: /** @type {HTMLButtonElement} */ (byId("forget-key")),
  databasesStatus: byId("databases-status"),
  databaseList: byId("database-list"),
  databaseName: /** @type {HTMLInputElement} */ (byId("database-name")),
  databaseNameError: byId("database-name-error"),
  tablesStatus: byId("tables-status"),
  tableList: byId("table-list"),
  currentDatabase: byId("current-database"),
  resultStatus: byId("result-status"),
  problem: byId("problem"),
  result: byId("result"),
};

/** @type {{database: string | null, running: AbortController | null}} */
const state = { database: null, running: null };

function showKeyState() {
  const key = storedKey();
  ui.keyState.textContent = key === null ? "No API key in this tab." : "Using the API key entered in this tab.";
  ui.forgetKey.disabled = key === null;
}

/**
 * Runs `action`; on a 401, asks for a key and runs it again, until it
 * passes or the user cancels (then the Unauthorized propagates).
 * @template T
 * @param {() => Promise<T>} action
 * @returns {Promise<T>}
 */
async function withKey(action) {
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof Unauthorized)) throw error;
      const refused = storedKey() !== null;
      storeKey(null);
      showKeyState();
      const key = await keyPrompt.ask(refused ? "The server refused the key this tab had. Enter its API key." : "This server needs its API key.");
      if (key === null) throw error;
      storeKey(key);
      showKeyState();
    }
  }
}

/** A problem for a request that never reached the server, or met a 401 the user did not answer. */
function describeFailure(/** @type {unknown} */ error) {
  if (error instanceof ProblemError) return error.problem;
  if (error instanceof Unauthorized) return { status: 401, code: "unauthorized", title: "API key needed", detail: "This server needs its API key; use “Enter API key…” above." };
  return { status: 0, code: "console_error", title: "Console error", detail: String(error) };
}

async function loadDatabases() {
  ui.databasesStatus.textContent = "Loading databases…";
  try {
    const databases = await withKey(() => listDatabases());
    ui.databaseList.replaceChildren(
      ...databases.map((db) => {
        const button = h(
          "button",
          { type: "button", class: "database", "data-name": db.name, "aria-current": db.name === state.database ? "true" : undefined },
          h("span", { class: "database-name" }, db.name),
          h("span", { class: "muted" }, `${db.tables === null ? "unreadable" : plural(db.tables.length, "table")} · ${bytes(db.bytes)}`),
        );
        button.addEventListener("click", () => void openDatabase(db.name));
        return h("li", {}, button);
      }),
    );
    ui.databasesStatus.textContent = databases.length === 0 ? "No databases yet: open one by name below and create a table." : plural(databases.length, "database");
    if (state.database === null) {
      const remembered = sessionStorage.getItem(DATABASE_ITEM);
      const pick = databases.find((db) => db.name === remembered) ?? (databases.length === 1 ? databases[0] : undefined);
      if (pick !== undefined) await openDatabase(pick.name);
    }
  } catch (error) {
    ui.databasesStatus.textContent = `Databases not listed: ${describeFailure(error).detail ?? describeFailure(error).title}`;
  }
}

/** Makes `name` the database statements run on, and lists its tables. */
async function openDatabase(/** @type {string} */ name) {
  state.database = name;
  sessionStorage.setItem(DATABASE_ITEM, name);
  ui.currentDatabase.textContent = `on ${name}`;
  for (const button of ui.databaseList.querySelectorAll("button.database")) {
    if (button instanceof HTMLElement && button.dataset.name === name) button.setAttribute("aria-current", "true");
    else button.removeAttribute("aria-current");
  }
  await loadTables();
}

async function loadTables() {
  const database = state.database;
  if (database === null) return;
  ui.tablesStatus.textContent = `Loading the tables of ${database}…`;
  try {
    const result = await withKey(() => runCommand(database, { kind: "describe" }));
    if (database !== state.database) return;
    const tables = /** @type {import("./schema.js").TableSchema[]} */ (result.tables);
    ui.tableList.replaceChildren(tablesView(tables, useQuery));
    ui.tablesStatus.textContent = `${database}: ${plural(tables.length, "table")}`;
  } catch (error) {
    if (database !== state.database) return;
    ui.tableList.replaceChildren();
    const problem = describeFailure(error);
    ui.tablesStatus.textContent = problem.code === "database_not_found"
      ? `${database} does not exist yet; a CREATE TABLE creates it.`
      : `Tables not listed: ${problem.detail ?? problem.title}`;
  }
}

function useQuery(/** @type {string} */ sql) {
  editor.text = sql;
  editor.textarea.focus();
}

/** Shows an error in the alert region; marks its position in the editor when it has one. */
function showProblem(/** @type {Problem} */ problem) {
  let reveal;
  if (problem.position !== undefined) {
    editor.mark(problem.position.offset, problem.detail ?? problem.title);
    reveal = () => editor.reveal();
  }
  ui.problem.replaceChildren(problemView(problem, reveal));
}

/** Runs the editor's statement (or explains it) on the open database. */
async function run(/** @type {boolean} */ explain) {
  ui.problem.replaceChildren();
  editor.clearMark();
  if (state.database === null) {
    ui.resultStatus.textContent = "Not run: pick a database first.";
    return;
  }
  if (editor.text.trim() === "") {
    ui.resultStatus.textContent = "Not run: write a statement first.";
    return;
  }
  /** @type {import("./api.js").Value[]} */
  let values;
  try {
    values = params.values();
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    ui.resultStatus.textContent = `Not run: ${error.message}`;
    error.field.focus();
    return;
  }

  const database = state.database;
  const statement = { kind: "sql", sql: editor.text, params: values };
  const command = explain ? { kind: "explain", command: statement } : statement;
  state.running?.abort();
  const running = new AbortController();
  state.running = running;
  ui.resultStatus.textContent = explain ? "Explaining…" : "Running…";
  let started = 0;
  try {
    const result = await withKey(() => {
      started = performance.now();
      return runCommand(database, command, running.signal);
    });
    const elapsed = milliseconds(performance.now() - started);
    const { element, summary } = resultView(result);
    ui.result.replaceChildren(element);
    ui.resultStatus.textContent = `${summary} in ${elapsed}.`;
    // A write may have created or dropped a table, or the database itself.
    if (result.kind === "mutation") void Promise.all([loadTables(), loadDatabases()]);
  } catch (error) {
    if (running.signal.aborted) return;
    const problem = describeFailure(error);
    ui.result.replaceChildren();
    ui.resultStatus.textContent = started === 0 ? `Not run: ${problem.title}.` : `Failed in ${milliseconds(performance.now() - started)}: ${problem.title}.`;
    showProblem(problem);
  } finally {
    if (state.running === running) state.running = null;
  }
}

function wire() {
  const form = /** @type {HTMLFormElement} */ (byId("query-form"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(false);
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run(false);
    }
  });
  byId("explain").addEventListener("click", () => void run(true));
  byId("add-param").addEventListener("click", () => params.add());
  byId("refresh-databases").addEventListener("click", () => void loadDatabases().then(loadTables));

  byId("open-database").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = ui.databaseName.value.trim();
    if (!DATABASE_NAME.test(name)) {
      ui.databaseNameError.textContent = "A name is 1–64 of a–z, 0–9, _ and -, starting with a letter or digit.";
      ui.databaseName.setAttribute("aria-invalid", "true");
      ui.databaseName.focus();
      return;
    }
    ui.databaseNameError.textContent = "";
    ui.databaseName.removeAttribute("aria-invalid");
    ui.databaseName.value = "";
    void openDatabase(name);
  });

  byId("change-key").addEventListener("click", async () => {
    const key = await keyPrompt.ask("Enter the API key this server was started with.");
    if (key === null) return;
    storeKey(key);
    showKeyState();
    await loadDatabases();
    await loadTables();
  });
  ui.forgetKey.addEventListener("click", () => {
    storeKey(null);
    showKeyState();
    ui.databaseList.replaceChildren();
    ui.tableList.replaceChildren();
    ui.databasesStatus.textContent = "Key forgotten.";
    ui.tablesStatus.textContent = "";
  });
}

wire();
showKeyState();
void loadDatabases();
