import { DATABASE_NUMBER_FIELDS, DATABASE_OPTIONAL_KEY_FIELDS } from "@cloudcost/contracts";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, countRows, databaseEntry, databaseLine, type Client } from "./helpers/pricing";

let ctx: TestContext;
let a: Client;
let b: Client;
beforeAll(async () => {
  ctx = await createTestContext();
  a = client(ctx, await createApiKey(ctx, "acct_a"));
  b = client(ctx, await createApiKey(ctx, "acct_b"));
});
afterAll(async () => {
  await ctx.close();
});

const PATH = "/marketplace/providers/databases";
const register = async (c: Client, entry: Record<string, unknown>) => (await c.post(PATH, { entries: [entry] }).expect(201)).body.entries[0];

describe("POST /marketplace/providers/databases", () => {
  it("returns every field: nulls for absent ones, 730 billing hours and USD by default", async () => {
    const stored = await register(a, databaseEntry({ service: "fields" }));
    expect(stored).toEqual({
      id: expect.stringMatching(/^dpr_/),
      provider: "aws",
      service: "fields",
      region: "eu-west-1",
      ...Object.fromEntries(DATABASE_OPTIONAL_KEY_FIELDS.map((field) => [field, null])),
      engine: "PostgreSQL",
      instance_type: "db.r6g.large",
      period_billing_hours: 730,
      currency: "USD",
      capacity_unit: null,
      ...Object.fromEntries(DATABASE_NUMBER_FIELDS.map((field) => [field, null])),
      cost_per_hour: 0.258,
      cost_per_storage_gb_hour: 0.000158,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      raw_pricing_data: {},
      tags: {},
    });
    const listed = (await a.get(`${PATH}?service=fields`).expect(200)).body;
    expect(listed).toEqual({ entries: [stored], status: "OK" });
  });

  it("keeps the id when the same key gets a new cost", async () => {
    const first = await register(a, databaseEntry({ service: "upsert" }));
    const second = await register(a, databaseEntry({ service: "upsert", cost_per_hour: 0.3, tags: { v: 2 } }));
    expect(second).toMatchObject({ id: first.id, cost_per_hour: 0.3, tags: { v: 2 }, created_at: first.created_at });
    // An explicit empty string is the same key as an absent field.
    const third = await register(a, databaseEntry({ service: "upsert", edition: "", cost_per_hour: 0.4 }));
    expect(third.id).toBe(first.id);
    expect(third.edition).toBeNull();
    expect((await a.get(`${PATH}?service=upsert`).expect(200)).body.entries).toHaveLength(1);
  });

  const KEY_CHANGES: [string, unknown][] = [
    ["provider", "gcp"],
    ["service", "aurora"],
    ["region", "us-east-1"],
    ...DATABASE_OPTIONAL_KEY_FIELDS.map((field): [string, unknown] => [field, `changed-${field}`]),
    ["period_billing_hours", 744],
  ];
  it("has 13 natural-key fields", () => {
    expect(KEY_CHANGES).toHaveLength(13);
  });
  it.each(KEY_CHANGES)("gives a new id when only %s changes", async (field, value) => {
    const base = databaseEntry({ service: `key-${field}` });
    const original = await register(a, base);
    const changed = await register(a, { ...base, [field]: value });
    expect(changed.id).not.toBe(original.id);
    expect(changed[field]).toBe(value);
    if (field !== "service") {
      expect((await a.get(`${PATH}?service=key-${field}`).expect(200)).body.entries).toHaveLength(2);
    }
  });

  it("leaves one row after 20 concurrent identical upserts", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => a.post(PATH, { entries: [databaseEntry({ service: "raced" })] })));
    expect(results.map((res) => res.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((res) => res.body.entries[0].id)).size).toBe(1);
    const [row] = await ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM database_prices WHERE service = 'raced'`);
    expect(row.n).toBe(1);
  });

  it.each([
    ["empty entries", { entries: [] }],
    ["1001 entries", { entries: Array.from({ length: 1001 }, (_, i) => databaseEntry({ service: `many-${i}` })) }],
    ["a negative rate", { entries: [databaseEntry({ cost_per_hour: -0.1 })] }],
    ["a missing region", { entries: [databaseEntry({ region: undefined })] }],
    ["a rate as a string", { entries: [databaseEntry({ cost_per_hour: "0.1" })] }],
    ["zero billing hours", { entries: [databaseEntry({ period_billing_hours: 0 })] }],
    ["min above max", { entries: [databaseEntry({ min_iops: 10, max_iops: 5 })] }],
    ["one bad entry in a batch", { entries: [databaseEntry({ service: "batch-ok" }), databaseEntry({ service: 7 })] }],
  ])("rejects %s with 400 {error} and writes nothing", async (_name, body) => {
    const rows = await countRows(ctx, "database_prices");
    const res = await a.post(PATH, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await countRows(ctx, "database_prices")).toBe(rows);
  });
});

describe("DELETE /marketplace/providers/databases", () => {
  it("refuses (409) while a pin or a report references the entry, then removes it", async () => {
    const entry = await register(a, databaseEntry({ service: "referenced" }));
    const other = await register(a, databaseEntry({ service: "referenced-2" }));
    await a.put("/v1/pricing/pins/database/db-1", { pricing_id: entry.id }).expect(200);

    const pinned = await a.delete(`${PATH}?id=${entry.id}`);
    expect(pinned.status).toBe(409);
    expect(pinned.body).toEqual({ error: expect.stringContaining("pin database/db-1") });

    await a.put("/v1/pricing/pins/database/db-1", { pricing_id: other.id }).expect(200); // re-pin elsewhere
    const report = (await a.post("/v1/pricing/reports", { name: "March", usage: [databaseLine(entry.id, { hours: 10 })] }).expect(201)).body;
    const reported = await a.delete(`${PATH}?id=${entry.id}`);
    expect(reported.status).toBe(409);
    expect(reported.body.error).toContain(`report ${report.id}`);
    expect(reported.body.error).not.toContain("pin database");

    await a.delete(`/v1/pricing/reports/${report.id}`).expect(204);
    const deleted = await a.delete(`${PATH}?id=${entry.id}`).expect(200);
    expect(deleted.body).toEqual({ entries: [entry], status: "Deleted" });
    expect((await a.get(`${PATH}?service=referenced`).expect(200)).body.entries).toEqual([]);
    await a.delete(`${PATH}?id=${entry.id}`).expect(404);

    // The other entry: unpin, then delete.
    expect((await a.delete(`${PATH}?id=${other.id}`)).status).toBe(409);
    await a.delete("/v1/pricing/pins/database/db-1").expect(204);
    await a.delete(`${PATH}?id=${other.id}`).expect(200);
  });

  it("answers 400 without an id or with a malformed one, and 404 for another account's id", async () => {
    const entry = await register(a, databaseEntry({ service: "mine" }));
    expect((await a.delete(PATH)).body).toEqual({ error: expect.stringContaining("id") });
    expect((await a.delete(PATH)).status).toBe(400);
    expect((await a.delete(`${PATH}?id=a%20b`)).status).toBe(400);
    expect((await b.delete(`${PATH}?id=${entry.id}`)).status).toBe(404);
    expect((await b.get(PATH).expect(200)).body.entries).toEqual([]);
    expect((await a.get(`${PATH}?service=mine`).expect(200)).body.entries).toEqual([entry]);
  });

  it("never leaves a pin pointing at nothing when pinning and deleting race", async () => {
    for (let round = 0; round < 5; round++) {
      const entry = await register(a, databaseEntry({ service: `race-${round}` }));
      const [pin, del] = await Promise.all([a.put(`/v1/pricing/pins/database/race-${round}`, { pricing_id: entry.id }), a.delete(`${PATH}?id=${entry.id}`)]);
      // Either the pin won (delete 409) or the delete won (pin 404).
      expect([pin.status, del.status].sort()).toEqual(pin.status === 200 ? [200, 409] : [200, 404]);
    }
    const [dangling] = await ctx.db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pricing_pins p
        WHERE p.database_price_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM database_prices d WHERE d.account_id = p.account_id AND d.id = p.database_price_id)`,
    );
    expect(dangling.n).toBe(0);
  });
});
