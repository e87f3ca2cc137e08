/**
 * The dataset the executor and memory benchmarks share: users (id text
 * primary key, name, email, age integer, city of 50 values, created, score
 * real, note ~20% NULL; indexes by_city and by_score) and orders (id,
 * user_id referencing users, amount, status; index by_user), generated
 * from one seed so every run and every benchmark sees the same rows.
 */
import type { Command } from "../src/commands/types.js";

export const USERS = 100_000;
export const ORDERS = 300_000;
export const CITIES = Array.from({ length: 50 }, (_, i) => `city_${String(i).padStart(2, "0")}`);
export const STATUSES = ["new", "paid", "shipped", "cancelled"];

export interface User {
  id: string;
  name: string;
  email: string;
  age: number;
  city: string;
  created: string;
  score: number;
  note: string | null;
}

export interface Order {
  id: number;
  user_id: string;
  amount: number;
  status: string;
}

/** mulberry32: small, fast, and the same sequence on every run (`json-dataset.ts` draws from it too, on its own seed). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `users` users and `orders` orders, each order placed by one of those users. */
export function generateDataset(users = USERS, orders = ORDERS): { users: User[]; orders: Order[] } {
  const random = rng(20261122);
  return {
    users: Array.from({ length: users }, (_, i) => ({
      id: `u${i}`,
      name: `user ${i}`,
      email: `user${i}@example.com`,
      age: 18 + Math.floor(random() * 63),
      city: CITIES[Math.floor(random() * CITIES.length)] as string,
      created: new Date(1_600_000_000_000 + Math.floor(random() * 1e11)).toISOString(),
      score: Math.round(random() * 10000) / 100,
      note: random() < 0.2 ? null : `note ${Math.floor(random() * 1000)}`,
    })),
    orders: Array.from({ length: orders }, (_, i) => ({
      id: i,
      user_id: `u${Math.floor(random() * users)}`,
      amount: Math.round(random() * 100000) / 100,
      status: STATUSES[Math.floor(random() * STATUSES.length)] as string,
    })),
  };
}

/** The two tables as storedb creates them. */
export const DATASET_SCHEMAS: readonly Command[] = [
  {
    kind: "create-table",
    schema: {
      name: "users",
      columns: { id: "text", name: "text", email: "text", age: "integer", city: "text", created: "text", score: "real", note: "text" },
      primary_key: { columns: ["id"] },
      indexes: [
        { name: "by_city", columns: ["city"] },
        { name: "by_score", columns: ["score"] },
      ],
    },
  },
  {
    kind: "create-table",
    schema: {
      name: "orders",
      columns: { id: "integer", user_id: "text", amount: "real", status: "text" },
      primary_key: { columns: ["id"] },
      foreign_keys: [{ columns: ["user_id"], references: { table: "users", columns: ["id"] } }],
      indexes: [{ name: "by_user", columns: ["user_id"] }],
    },
  },
];
