import request from "supertest";
import type { TestContext } from "./context";

export const LABEL = "costs.example.com/pricing-id";

/** supertest calls carrying an API key. */
export function client(ctx: TestContext, key: string) {
  const withKey = (req: request.Test) => req.set("X-API-Key", key);
  return {
    get: (path: string) => withKey(request(ctx.app).get(path)),
    post: (path: string, body?: unknown) => withKey(request(ctx.app).post(path)).send(body as object),
    put: (path: string, body?: unknown) => withKey(request(ctx.app).put(path)).send(body as object),
    delete: (path: string) => withKey(request(ctx.app).delete(path)),
  };
}
export type Client = ReturnType<typeof client>;

export const modelEntry = (overrides: Record<string, unknown> = {}) => ({
  provider: "openai",
  publisher: "OpenAI",
  model: "GPT-4o mini",
  model_id: "gpt-4o-mini",
  token_bucket: "input",
  unit_price_per_mtok: 0.15,
  ...overrides,
});

export const databaseEntry = (overrides: Record<string, unknown> = {}) => ({
  provider: "aws",
  service: "rds",
  region: "eu-west-1",
  engine: "PostgreSQL",
  instance_type: "db.r6g.large",
  cost_per_hour: 0.258,
  cost_per_storage_gb_hour: 0.000158,
  ...overrides,
});

export const modelLine = (id: string | undefined, quantities: Record<string, number>, timestamp: string, extra: object = {}) => ({
  resource_id: "deployment-1",
  kind: "model",
  timestamp,
  ...(id ? { labels: { [`${LABEL}.model`]: id } } : {}),
  quantities,
  ...extra,
});

export const databaseLine = (id: string | undefined, quantities: Record<string, number>, extra: object = {}) => ({
  resource_id: "db-1",
  kind: "database",
  timestamp: new Date().toISOString(),
  ...(id ? { labels: { [`${LABEL}.database`]: id } } : {}),
  quantities,
  ...extra,
});

export async function countRows(ctx: TestContext, table: "model_prices" | "database_prices" | "pricing_pins" | "pricing_reports") {
  const [row] = await ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row.n;
}
