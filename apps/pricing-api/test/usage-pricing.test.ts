import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, databaseEntry, databaseLine, LABEL, modelEntry, modelLine, type Client } from "./helpers/pricing";

let ctx: TestContext;
let a: Client;
let input: { id: string };
let eur: { id: string };
let db: { id: string };
let sparseDb: { id: string };
const T = "2026-06-01T12:00:00.000Z";
beforeAll(async () => {
  ctx = await createTestContext();
  a = client(ctx, await createApiKey(ctx, "acct_a"));
  const from = "2026-01-01T00:00:00Z";
  const models = (
    await a
      .post("/marketplace/providers/models", {
        entries: [
          modelEntry({ effective_from: from }),
          modelEntry({ token_bucket: "output", unit_price_per_mtok: 0.6, effective_from: from }),
          modelEntry({ model: "Euro model", currency: "EUR", unit_price_per_mtok: 2.5, effective_from: from }),
        ],
      })
      .expect(201)
  ).body.entries;
  [input, , eur] = models;
  const dbs = (
    await a
      .post("/marketplace/providers/databases", {
        entries: [databaseEntry({ cost_per_io_request: 0.0000002 }), databaseEntry({ service: "sparse", cost_per_storage_gb_hour: null })],
      })
      .expect(201)
  ).body.entries;
  [db, sparseDb] = dbs;
});
afterAll(async () => {
  await ctx.close();
});

const price = (usage: unknown[]) => a.post("/v1/pricing/usage", { usage });

describe("POST /v1/pricing/usage", () => {
  it("prices exactly: 1234567 tokens at 0.15 per Mtok is 0.18518505", async () => {
    const res = await price([modelLine(input.id, { input: 1_234_567 }, T)]).expect(200);
    expect(res.body).toEqual({
      lines: [
        {
          index: 0,
          resource_id: "deployment-1",
          kind: "model",
          resolved: true,
          pricing_id: input.id,
          reason: null,
          currency: "USD",
          unit_prices: { input: 0.15 },
          cost: 0.18518505,
        },
      ],
      totals: [{ currency: "USD", cost: 0.18518505 }],
    });
  });

  it("rounds to 10 decimal places, half up, without float drift", async () => {
    const res = await price([
      modelLine(input.id, { input: 1 }, T), // 0.00000015
      databaseLine(db.id, { io_requests: 3 }), // 0.0000006
      databaseLine(db.id, { hours: 0.1, storage_gb_hours: 0.2 }), // 0.0258 + 0.0000316
    ]).expect(200);
    expect(res.body.lines.map((l: { cost: number }) => l.cost)).toEqual([0.00000015, 0.0000006, 0.0258316]);
    expect(res.body.totals).toEqual([{ currency: "USD", cost: 0.02583235 }]);
  });

  it("prices every bucket of a model line with its sibling row, and totals per currency", async () => {
    const res = await price([
      modelLine(input.id, { input: 2_000_000, output: 1_000_000 }, T),
      modelLine(eur.id, { input: 1_000_000 }, T),
      databaseLine(db.id, { hours: 10 }),
    ]).expect(200);
    expect(res.body.lines[0]).toMatchObject({ resolved: true, unit_prices: { input: 0.15, output: 0.6 }, cost: 0.9 });
    expect(res.body.lines[1]).toMatchObject({ resolved: true, currency: "EUR", cost: 2.5 });
    expect(res.body.totals).toEqual([
      { currency: "EUR", cost: 2.5 },
      { currency: "USD", cost: 3.48 },
    ]);
  });

  it("prices each line's sibling bucket with the version in effect at that line's time", async () => {
    const versioned = (entry: Parameters<typeof modelEntry>[0]) => modelEntry({ model: "Versioned", ...entry });
    const [named] = (
      await a
        .post("/marketplace/providers/models", {
          entries: [
            versioned({ unit_price_per_mtok: 0.1, effective_from: "2026-01-01T00:00:00Z" }),
            versioned({ token_bucket: "output", unit_price_per_mtok: 1, effective_from: "2026-01-01T00:00:00Z" }),
          ],
        })
        .expect(201)
    ).body.entries;
    for (const [price, from] of [
      [2, "2026-03-01T00:00:00Z"],
      [3, "2026-05-01T00:00:00Z"],
    ] as const) {
      await a
        .post("/marketplace/providers/models", { entries: [versioned({ token_bucket: "output", unit_price_per_mtok: price, effective_from: from })] })
        .expect(201);
    }
    const outputPrices = async (...times: string[]) =>
      (await price(times.map((t) => modelLine(named.id, { input: 1_000_000, output: 1_000_000 }, t))).expect(200)).body.lines.map(
        (l: { unit_prices: { output: number } | null }) => l.unit_prices?.output,
      );
    expect(await outputPrices("2026-02-01T00:00:00Z", "2026-04-01T00:00:00Z", "2026-06-01T00:00:00Z")).toEqual([1, 2, 3]);
    expect(await outputPrices("2026-03-01T00:00:00Z")).toEqual([2]);
    expect(await outputPrices("2026-02-28T23:59:59.999Z", "2026-05-01T00:00:00Z")).toEqual([1, 3]);
  });

  it("gives every reason code, with cost null and no silent zero", async () => {
    const res = await price([
      databaseLine(undefined, { hours: 1 }),
      modelLine("mpr_doesnotexist", { input: 1 }, T),
      modelLine(input.id, { input: 1 }, "2025-12-31T23:59:59.999Z"),
      modelLine(input.id, { input: 1, cache_read: 1 }, T),
      databaseLine(sparseDb.id, { hours: 1, storage_gb_hours: 1 }),
      databaseLine("dpr_doesnotexist", { hours: 1 }),
      modelLine(db.id, { input: 1 }, T), // a database id on a model line
      databaseLine(undefined, { hours: 1 }, { labels: { [`${LABEL}.database`]: "not a valid id!" } }),
    ]).expect(200);
    expect(res.body.lines.map((l: { reason: string }) => l.reason)).toEqual([
      "no_pricing_label",
      "unknown_pricing_id",
      "not_yet_effective",
      "bucket_not_priced",
      "bucket_not_priced",
      "unknown_pricing_id",
      "unknown_pricing_id",
      "unknown_pricing_id",
    ]);
    for (const line of res.body.lines) expect(line).toMatchObject({ resolved: false, cost: null, unit_prices: null, currency: null });
    expect(res.body.totals).toEqual([]);
    // "closed" is covered with real versioning in marketplace-models.test.ts; here via delete.
    const closing = (await a.post("/marketplace/providers/models", { entries: [modelEntry({ model: "closing" })] }).expect(201)).body.entries[0];
    await a.delete(`/marketplace/providers/models?id=${closing.id}`).expect(200);
    const closed = await price([modelLine(closing.id, { input: 1 }, new Date(Date.now() + 1000).toISOString())]).expect(200);
    expect(closed.body.lines[0].reason).toBe("closed");
  });

  it("reads the id from labels or tags, labels winning", async () => {
    const res = await price([
      databaseLine(undefined, { hours: 1 }, { tags: { [`${LABEL}.database`]: db.id } }),
      databaseLine(undefined, { hours: 1 }, { labels: { [`${LABEL}.database`]: db.id }, tags: { [`${LABEL}.database`]: "dpr_nothing" } }),
      databaseLine(undefined, { hours: 1 }, { labels: { [`${LABEL}.model`]: db.id } }), // the other kind's label
    ]).expect(200);
    expect(res.body.lines.map((l: { reason: string | null; pricing_id: string | null }) => [l.reason, l.pricing_id])).toEqual([
      [null, db.id],
      [null, db.id],
      ["no_pricing_label", null],
    ]);
  });

  // Validation comes before any lookup, so the ids need not exist; each bad line follows a good one.
  const good = databaseLine("dpr_x", { hours: 1 });
  it.each([
    ["an unknown quantity key", [good, databaseLine("dpr_x", { cpu_hours: 1 })]],
    ["a model bucket on a database line", [good, databaseLine("dpr_x", { input: 1 })]],
    ["a negative quantity", [good, modelLine("mpr_x", { input: -1 }, T)]],
    ["a quantity as a string", [good, modelLine("mpr_x", { input: "5" as unknown as number }, T)]],
    ["no quantities", [good, modelLine("mpr_x", {}, T)]],
    ["another kind", [good, { ...good, kind: "vm" }]],
    ["a bad timestamp", [good, modelLine("mpr_x", { input: 1 }, "yesterday")]],
    ["a missing resource_id", [good, { ...good, resource_id: undefined }]],
    ["a line that is not an object", [good, "line"]],
    ["no lines", []],
    ["10001 lines", Array.from({ length: 10001 }, () => good)],
  ])("answers 400 invalid_request for %s (the whole request)", async (_name, usage) => {
    const res = await price(usage);
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: "invalid_request", errors: expect.any(Array) });
  });

  it("prices 10000 lines in one request", async () => {
    const usage = Array.from({ length: 10000 }, (_, i) =>
      i % 2 ? modelLine(input.id, { input: 1_000_000, output: 1_000_000 }, T) : databaseLine(db.id, { hours: 1 }),
    );
    const res = await price(usage).expect(200);
    expect(res.body.lines).toHaveLength(10000);
    expect(res.body.lines[9999]).toMatchObject({ index: 9999, resolved: true, cost: 0.75 });
    expect(res.body.totals).toEqual([{ currency: "USD", cost: 5000 * 0.75 + 5000 * 0.258 }]);
  });
});

describe("label prefix", () => {
  it("follows LABEL_PREFIX", async () => {
    const custom = await createTestContext({ LABEL_PREFIX: "billing.acme.io" });
    try {
      const c = client(custom, await createApiKey(custom, "acct_a"));
      const entry = (await c.post("/marketplace/providers/databases", { entries: [databaseEntry()] }).expect(201)).body.entries[0];
      const res = await c
        .post("/v1/pricing/usage", {
          usage: [databaseLine(undefined, { hours: 1 }, { labels: { "billing.acme.io/pricing-id.database": entry.id } }), databaseLine(entry.id, { hours: 1 })],
        })
        .expect(200);
      expect(res.body.lines.map((l: { reason: string | null }) => l.reason)).toEqual([null, "no_pricing_label"]);
    } finally {
      await custom.close();
    }
  });
});

describe("usage body size", () => {
  it("accepts usage bodies over 1 MiB (10000 labelled lines need ~2 MiB) and answers 413 over 8 MiB", async () => {
    const pad = "p".repeat(200);
    const usage = Array.from({ length: 9000 }, () => databaseLine("dpr_x", { hours: 1 }, { resource_id: `db-${pad}` }));
    const ok = await price(usage);
    expect(ok.status).toBe(200);
    const huge = await price([databaseLine("dpr_x", { hours: 1 }, { tags: { blob: "x".repeat(9 * 1024 * 1024) } })]);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ status: 413, code: "payload_too_large" });
  });
});
