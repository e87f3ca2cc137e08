/**
 * The API key prompt: a modal `<dialog>` (the browser traps focus in it,
 * closes it on Escape, and returns focus where it was), asked for when the
 * server answers 401 or when the user wants to change the key. Callers that
 * hit a 401 at the same time share one prompt.
 */

import { isPlausibleKey } from "./api.js";

export class KeyPrompt {
  /** @param {HTMLDialogElement} dialog */
  constructor(dialog) {
    this.dialog = dialog;
    this.form = /** @type {HTMLFormElement} */ (dialog.querySelector("form"));
    this.input = /** @type {HTMLInputElement} */ (dialog.querySelector("input"));
    this.reason = /** @type {HTMLElement} */ (dialog.querySelector("#key-reason"));
    this.error = /** @type {HTMLElement} */ (dialog.querySelector("#api-key-error"));
    /** @type {Promise<string | null> | null} */
    this.pending = null;
    /** @type {(key: string | null) => void} */
    this.settle = () => {};

    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const key = this.input.value.trim();
      if (!isPlausibleKey(key)) {
        this.error.textContent = key === "" ? "Enter the key." : "A key is printable ASCII without spaces.";
        this.input.setAttribute("aria-invalid", "true");
        this.input.focus();
        return;
      }
      this.finish(key);
    });
    /** @type {HTMLButtonElement} */ (dialog.querySelector("#key-cancel")).addEventListener("click", () => this.finish(null));
    // Escape: the browser closes the dialog; treat it as Cancel.
    dialog.addEventListener("close", () => this.finish(null));
  }

  /**
   * Asks for a key; resolves with it, or null when the user cancels.
   * @param {string} reason why a key is asked for, shown in the dialog
   * @returns {Promise<string | null>}
   */
  ask(reason) {
    if (this.pending !== null) return this.pending;
    this.reason.textContent = reason;
    this.error.textContent = "";
    this.input.removeAttribute("aria-invalid");
    this.input.value = "";
    this.pending = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.dialog.showModal();
    this.input.focus();
    return this.pending;
  }

  finish(/** @type {string | null} */ key) {
    if (this.pending === null) return;
    this.pending = null;
    this.input.value = "";
    if (this.dialog.open) this.dialog.close();
    this.settle(key);
  }
}
