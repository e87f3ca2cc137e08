/**
 * Headless Chromium for the browser tests: Debian's `chromium` driven by
 * playwright-core (which never downloads a browser), one launch per suite,
 * with a fresh profile directory removed when the browser closes.
 *
 * `.ci/run` installs chromium when it is missing; without it the suite fails
 * with that hint rather than skipping, because the console is only tested
 * here.
 */

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(path.join(os.tmpdir(), "storedb-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
    colorScheme: "light",
    reducedMotion: "reduce",
  });
  context.setDefaultTimeout(10_000);
  // tsx compiles the tests with esbuild's keepNames, which wraps named functions in `__name(…)`;
  // a function a test hands to page.evaluate carries that call into the page, so give it the helper.
  await context.addInitScript("globalThis.__name = (target) => target;");
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
