/**
 * The JSON documents the executor benchmark reads with json_each and
 * json_tree, generated from one seed: `arrays`, two large JSON arrays
 * (200,000 elements each, ~5 MB: every fourth an object, then an integer,
 * a string, a real); `nested`, two documents of nested objects (2,000
 * users, each with an address, a tag array and orders: ~1 MB); and `docs`,
 * 100,000 rows of a table (id, tags: an array of 5 strings of 50 values,
 * doc: an object whose `items` is an array of 4 integers).
 */
import type { Command } from "../src/commands/types.js";
import { rng } from "./dataset.js";

export const DOC_ROWS = 100_000;
const ARRAY_LENGTH = 200_000;
const NESTED_USERS = 2_000;

export interface DocRow {
  id: number;
  tags: string;
  doc: string;
}

export function generateJsonDataset(): { arrays: string[]; nested: string[]; docs: DocRow[] } {
  const random = rng(20261129);
  const int = (n: number): number => Math.floor(random() * n);
  const element = (i: number): unknown => {
    switch (i % 4) {
      case 0:
        return { id: i, name: `item ${i}`, ok: i % 8 === 0, price: int(100000) / 100 };
      case 1:
        return int(1_000_000);
      case 2:
        return `text ${int(1000)}`;
      default:
        return int(100000) / 100 + 0.5;
    }
  };
  const user = (i: number): unknown => ({
    id: i,
    name: `user ${i}`,
    address: { city: `city ${int(50)}`, zip: String(10000 + int(89999)), geo: [int(180) - 90 + 0.25, int(360) - 180 + 0.5] },
    tags: Array.from({ length: 1 + int(4) }, () => `tag${int(20)}`),
    orders: Array.from({ length: int(4) }, (_, k) => ({ n: k, amount: int(100000) / 100 + 0.01, paid: random() < 0.5 })),
  });
  return {
    arrays: [0, 1].map(() => JSON.stringify(Array.from({ length: ARRAY_LENGTH }, (_, i) => element(i)))),
    nested: [0, 1].map(() => JSON.stringify({ users: Array.from({ length: NESTED_USERS }, (_, i) => user(i)) })),
    docs: Array.from({ length: DOC_ROWS }, (_, id) => ({
      id,
      tags: JSON.stringify(Array.from({ length: 5 }, () => `t${int(50)}`)),
      doc: JSON.stringify({ id, items: Array.from({ length: 4 }, () => int(1000)), meta: { k: `v${int(10)}` } }),
    })),
  };
}

/** The docs table as storedb creates it. */
export const DOCS_SCHEMA: Command = { kind: "create-table", schema: { name: "docs", columns: { id: "integer", tags: "text", doc: "text" }, primary_key: { columns: ["id"] } } };
