/**
 * Random schema changes for the journal/undo tests (`alter.test.ts`): index
 * commands and `alter-table` over the `people` and `pets` tables of that
 * test, with small pools of names so that creating an existing index,
 * dropping a missing one, unique indexes the data breaks, dropping a column
 * something depends on and renaming onto a taken name all happen; renames
 * go both ways, so the data commands find their tables again.
 */
import type { Command } from "../../../src/commands/types.js";

const INDEX_NAMES = ["ix_a", "ix_b", "ix_c", "ix_d"] as const;
const COLUMNS: Readonly<Record<string, readonly string[]>> = { people: ["name", "city", "age", "id"], pets: ["owner", "kind"] };

const EXTRA = ["extra", "city"] as const;

function alterCommand(rnd: (n: number) => number): Command {
  switch (rnd(4)) {
    case 0:
      return { kind: "alter-table", table: "people", action: { type: "add-column", column: EXTRA[rnd(2)]!, columnType: "integer", ...(rnd(2) === 0 ? { default: rnd(9) } : {}) } };
    case 1:
      return { kind: "alter-table", table: "people", action: { type: "drop-column", column: EXTRA[rnd(2)]! } };
    case 2:
      return { kind: "alter-table", table: "people", action: rnd(2) === 0 ? { type: "rename-column", from: "city", to: "town" } : { type: "rename-column", from: "town", to: "city" } };
    default:
      return rnd(2) === 0 ? { kind: "alter-table", table: "pets", action: { type: "rename-table", to: "animals" } } : { kind: "alter-table", table: "animals", action: { type: "rename-table", to: "pets" } };
  }
}

export function schemaCommand(rnd: (n: number) => number): Command {
  if (rnd(2) === 0) return alterCommand(rnd);
  const name = INDEX_NAMES[rnd(INDEX_NAMES.length)]!;
  if (rnd(3) === 0) return { kind: "drop-index", name, ...(rnd(2) === 0 ? { ifExists: true } : {}) };
  const table = rnd(3) === 0 ? "pets" : "people";
  const pool = COLUMNS[table]!;
  const first = pool[rnd(pool.length)]!;
  const second = pool[rnd(pool.length)]!;
  const columns = second === first || rnd(2) === 0 ? [first] : [first, second];
  return { kind: "create-index", table, index: { name, columns, ...(rnd(3) === 0 ? { unique: true } : {}) }, ...(rnd(4) === 0 ? { ifNotExists: true } : {}) };
}
