/**
 * The SQL editor: a plain textarea (native editing, undo, selection and
 * accessibility for free) over a backdrop that mirrors its text and can mark
 * one span — the token an error's `position` points at.
 *
 * The backdrop has the textarea's font, padding and `white-space: pre`
 * (the textarea does not wrap), its text is transparent, and it scrolls with
 * the textarea, so the mark's background sits exactly under the offending
 * characters. A position's `offset` counts UTF-16 code units (CONTRACT §4),
 * which is what JavaScript string indices are, so it indexes the textarea's
 * value directly. Editing the text clears the mark: it described the text
 * that was sent.
 */

import { h } from "./dom.js";

/** Where the token at `offset` ends: a word, a quoted string or identifier, else one character. */
function tokenEnd(/** @type {string} */ text, /** @type {number} */ offset) {
  const first = text[offset];
  if (first === undefined) return offset;
  if (first === "'" || first === '"') {
    const close = text.indexOf(first, offset + 1);
    return close === -1 ? text.length : close + 1;
  }
  const word = /[A-Za-z0-9_$.]/y;
  let end = offset;
  word.lastIndex = end;
  while (end < text.length && word.test(text)) end = word.lastIndex;
  return Math.max(end, offset + 1);
}

export class SqlEditor {
  /**
   * @param {HTMLTextAreaElement} textarea
   * @param {HTMLElement} backdrop the element inside the backdrop that holds the mirrored text
   */
  constructor(textarea, backdrop) {
    this.textarea = textarea;
    this.backdrop = backdrop;
    /** @type {{start: number, end: number} | null} */
    this.marked = null;
    textarea.addEventListener("input", () => this.clearMark());
    textarea.addEventListener("scroll", () => this.syncScroll());
  }

  get text() {
    return this.textarea.value;
  }

  set text(value) {
    this.textarea.value = value;
    this.clearMark();
  }

  /**
   * Marks the token starting at `offset` and puts the caret there (without
   * taking focus: `reveal` does that).
   * @param {number} offset
   * @param {string} description what is wrong there, for the mark's tooltip
   */
  mark(offset, description) {
    const text = this.textarea.value;
    const start = Math.min(Math.max(offset, 0), text.length);
    const end = tokenEnd(text, start);
    this.marked = { start, end };
    // At the very end of the text the mark is one blank cell, so "missing something here" is visible.
    const marked = h("mark", { class: "error-mark", title: description }, start < text.length ? text.slice(start, end) : " ");
    this.backdrop.replaceChildren(text.slice(0, start), marked, text.slice(end), "\n");
    this.textarea.setAttribute("aria-invalid", "true");
    this.textarea.setSelectionRange(start, end);
    this.syncScroll();
  }

  clearMark() {
    if (this.marked === null) return;
    this.marked = null;
    this.backdrop.replaceChildren();
    this.textarea.removeAttribute("aria-invalid");
  }

  /** Focuses the editor with the marked token selected and scrolled into view. */
  reveal() {
    this.textarea.focus();
    if (this.marked === null) return;
    this.textarea.setSelectionRange(this.marked.start, this.marked.end);
    const mark = this.backdrop.querySelector("mark");
    if (mark instanceof HTMLElement) {
      // Scroll the textarea so the mark's box (laid out in the backdrop) is inside it.
      const { offsetTop, offsetLeft, offsetHeight, offsetWidth } = mark;
      const area = this.textarea;
      if (offsetTop < area.scrollTop || offsetTop + offsetHeight > area.scrollTop + area.clientHeight) area.scrollTop = Math.max(0, offsetTop - area.clientHeight / 2);
      if (offsetLeft < area.scrollLeft || offsetLeft + offsetWidth > area.scrollLeft + area.clientWidth) area.scrollLeft = Math.max(0, offsetLeft - area.clientWidth / 2);
      this.syncScroll();
    }
  }

  syncScroll() {
    const parent = this.backdrop.parentElement;
    if (parent === null) return;
    parent.scrollTop = this.textarea.scrollTop;
    parent.scrollLeft = this.textarea.scrollLeft;
  }
}
