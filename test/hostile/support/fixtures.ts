/**
 * Kept failing cases: each fuzz failure is written to `test/hostile/fixtures/`
 * as the exact input that broke a property, and every later run replays all
 * of them. A fixture whose fix belongs to another module and has not landed
 * yet is named in `KNOWN_FAILURES` (known-failures.ts, with the reason), so
 * the default run stays green without the case being forgotten or deleted.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Fixture } from "./fuzz.js";
import { ROOT } from "./server.js";

export const FIXTURE_DIR = path.join(ROOT, "test/hostile/fixtures");

export function loadFixtures(): { file: string; fixture: Fixture }[] {
  let files: string[] = [];
  try {
    files = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".json")).sort();
  } catch {
    return [];
  }
  return files.map((file) => ({ file, fixture: JSON.parse(readFileSync(path.join(FIXTURE_DIR, file), "utf8")) as Fixture }));
}

/** Writes a new fixture and returns its file name. */
export function saveFixture(fixture: Fixture, seed: number): string {
  mkdirSync(FIXTURE_DIR, { recursive: true });
  const file = `${fixture.property}-${(seed >>> 0).toString(16)}.json`;
  writeFileSync(path.join(FIXTURE_DIR, file), `${JSON.stringify(fixture, null, 2)}\n`);
  return file;
}
