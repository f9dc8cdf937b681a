import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, countRows, modelEntry, modelLine, type Client } from "./helpers/pricing";

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

const PATH = "/marketplace/providers/models";
const usage = (c: Client, lines: unknown[]) => c.post("/v1/pricing/usage", { usage: lines });
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

describe("POST /marketplace/providers/models", () => {
  it("stores every field of the entry and returns it with nulls, [] and {} for absent ones", async () => {
    const full = modelEntry({
      model: "Full fields",
      host: "azure",
      region: "eastus",
      unit_price_per_mtok: 1.234567890123,
      currency: "EUR",
      fetched_at: "2026-11-21T23:00:00.123+01:00",
      sku_price_id: "sku-1",
      source: "vendor",
      source_url: "https://example.com/prices",
      context_limit: 128000,
      output_limit: 16384,
      modalities_input: ["text", "image"],
      modalities_output: ["text"],
      open_weights: false,
      reasoning: true,
      structured_output: true,
      tool_call: false,
      raw_pricing_data: { input: 1.23, nested: { a: [1, 2] } },
      tags: { team: "ml" },
    });
    const res = await a.post(PATH, { entries: [full, modelEntry({ model: "Minimal", publisher: undefined, model_id: undefined })] });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("Registered");
    const [stored, minimal] = res.body.entries;
    expect(stored).toEqual({
      ...full,
      id: expect.stringMatching(/^mpr_[0-9A-Z]{26}$/),
      fetched_at: "2026-11-21T22:00:00.123Z",
      effective_from: expect.any(String),
      effective_to: null,
    });
    expect(minimal).toMatchObject({
      publisher: null,
      host: null,
      model_id: null,
      region: null,
      currency: "USD",
      fetched_at: null,
      context_limit: null,
      modalities_input: [],
      modalities_output: [],
      open_weights: null,
      raw_pricing_data: {},
      tags: {},
    });
    // Read back from the database, not just echoed.
    const list = await a.get(`${PATH}?model=Full%20fields`).expect(200);
    expect(list.body).toEqual({ entries: [stored], status: "OK" });
    const [column] = await ctx.db.sql.query<{ price: string }>(`SELECT unit_price_per_mtok::text AS price FROM model_prices WHERE id = $1`, [stored.id]);
    expect(column.price).toBe("1.234567890123");
  });

  it("keeps 12 decimal places: float noise is rounded away and the rounded price is the same price", async () => {
    const noisy = (await a.post(PATH, { entries: [modelEntry({ model: "Noisy", unit_price_per_mtok: 0.1 + 0.2 })] }).expect(201)).body.entries[0];
    expect(noisy.unit_price_per_mtok).toBe(0.3);
    const again = (await a.post(PATH, { entries: [modelEntry({ model: "Noisy", unit_price_per_mtok: 0.3 })] }).expect(201)).body.entries[0];
    expect(again).toEqual(noisy);
    const tiny = (await a.post(PATH, { entries: [modelEntry({ model: "Tiny", unit_price_per_mtok: 1e-7 })] }).expect(201)).body.entries[0];
    expect(tiny.unit_price_per_mtok).toBe(1e-7);
  });

  it("versions prices: same price keeps the id, other fields update in place, a new price closes and opens", async () => {
    const first = (await a.post(PATH, { entries: [modelEntry({ model: "Versioned" })] }).expect(201)).body.entries[0];
    const same = (await a.post(PATH, { entries: [modelEntry({ model: "Versioned" })] }).expect(201)).body.entries[0];
    expect(same).toEqual(first);

    const tagged = (await a.post(PATH, { entries: [modelEntry({ model: "Versioned", tags: { v: 2 } })] }).expect(201)).body.entries[0];
    expect(tagged).toEqual({ ...first, tags: { v: 2 } });

    const changed = (await a.post(PATH, { entries: [modelEntry({ model: "Versioned", unit_price_per_mtok: 0.2 })] }).expect(201)).body.entries[0];
    expect(changed.id).not.toBe(first.id);
    expect(changed.effective_to).toBeNull();
    expect(new Date(changed.effective_from).getTime()).toBeGreaterThan(new Date(first.effective_from).getTime());

    const open = (await a.get(`${PATH}?model=Versioned`).expect(200)).body.entries;
    expect(open).toEqual([changed]);
    const history = (await a.get(`${PATH}?model=Versioned&include_closed=true`).expect(200)).body.entries;
    expect(history.map((e: { id: string }) => e.id)).toEqual([changed.id, first.id]);
    expect(history[1].effective_to).toBe(changed.effective_from);

    // A currency change is a price change too.
    const euro = (await a.post(PATH, { entries: [modelEntry({ model: "Versioned", unit_price_per_mtok: 0.2, currency: "EUR" })] }).expect(201)).body.entries[0];
    expect(euro.id).not.toBe(changed.id);
  });

  it("prices usage before and after each change at the right rate, and not after delete", async () => {
    const t0 = "2026-01-01T00:00:00.000Z";
    const t1 = "2026-02-01T00:00:00.000Z";
    const v1 = (await a.post(PATH, { entries: [modelEntry({ model: "Timeline", effective_from: t0 })] }).expect(201)).body.entries[0];
    const v2 = (await a.post(PATH, { entries: [modelEntry({ model: "Timeline", unit_price_per_mtok: 0.3, effective_from: t1 })] }).expect(201)).body.entries[0];
    const output = (
      await a.post(PATH, { entries: [modelEntry({ model: "Timeline", token_bucket: "output", unit_price_per_mtok: 0.6, effective_from: t0 })] }).expect(201)
    ).body.entries[0];

    const lines = [
      modelLine(v1.id, { input: 1_000_000 }, "2026-01-15T00:00:00Z"),
      modelLine(v1.id, { input: 1_000_000 }, "2026-02-15T00:00:00Z"),
      modelLine(v2.id, { input: 1_000_000, output: 2_000_000 }, "2026-02-15T00:00:00Z"),
      modelLine(v2.id, { input: 1 }, "2026-01-15T00:00:00Z"),
      modelLine(output.id, { input: 1_000_000, output: 1_000_000 }, "2026-01-15T00:00:00Z"),
    ];
    const before = (await usage(a, lines).expect(200)).body.lines;
    expect(before[0]).toMatchObject({ resolved: true, cost: 0.15, unit_prices: { input: 0.15 } });
    expect(before[1]).toMatchObject({ resolved: false, reason: "closed", cost: null });
    expect(before[2]).toMatchObject({ resolved: true, cost: 1.5, unit_prices: { input: 0.3, output: 0.6 } });
    expect(before[3]).toMatchObject({ resolved: false, reason: "not_yet_effective" });
    expect(before[4]).toMatchObject({ resolved: true, cost: 0.75, unit_prices: { input: 0.15, output: 0.6 } });

    const deleted = await a.delete(`${PATH}?id=${v2.id}`).expect(200);
    expect(deleted.body.status).toBe("Deleted");
    expect(deleted.body.entries).toEqual([{ ...v2, effective_to: expect.any(String) }]);
    const now = new Date().toISOString();
    const after = (await usage(a, [modelLine(v2.id, { input: 1 }, now), modelLine(v2.id, { input: 1_000_000 }, "2026-02-15T00:00:00Z")]).expect(200)).body
      .lines;
    expect(after[0]).toMatchObject({ resolved: false, reason: "closed" });
    expect(after[1]).toMatchObject({ resolved: true, cost: 0.3 }); // spend before the delete keeps its rate
    expect((await a.get(`${PATH}?model=Timeline&token_bucket=input`).expect(200)).body.entries).toEqual([]);
    const history = (await a.get(`${PATH}?model=Timeline&token_bucket=input&include_closed=true`).expect(200)).body.entries;
    expect(history.map((e: { id: string }) => e.id)).toEqual([v2.id, v1.id]);

    await a.delete(`${PATH}?id=${v2.id}`).expect(404); // already closed
  });

  it("schedules a future change: the current row stays live until then", async () => {
    const current = (await a.post(PATH, { entries: [modelEntry({ model: "Scheduled" })] }).expect(201)).body.entries[0];
    const from = later(3_600_000);
    const scheduled = (await a.post(PATH, { entries: [modelEntry({ model: "Scheduled", unit_price_per_mtok: 0.5, effective_from: from })] }).expect(201)).body
      .entries[0];
    expect(scheduled).toMatchObject({ effective_from: from, effective_to: null });
    const live = (await a.get(`${PATH}?model=Scheduled`).expect(200)).body.entries;
    expect(live).toEqual([scheduled, { ...current, effective_to: from }]);

    const priced = (
      await usage(a, [
        modelLine(current.id, { input: 1_000_000 }, new Date().toISOString()),
        modelLine(scheduled.id, { input: 1_000_000 }, new Date().toISOString()),
        modelLine(current.id, { input: 1_000_000 }, later(7_200_000)),
        modelLine(scheduled.id, { input: 1_000_000 }, later(7_200_000)),
      ]).expect(200)
    ).body.lines;
    expect(priced.map((l: { reason: string | null; cost: number | null }) => [l.reason, l.cost])).toEqual([
      [null, 0.15],
      ["not_yet_effective", null],
      ["closed", null],
      [null, 0.5],
    ]);

    // Without effective_from, a change cannot slip in before the scheduled one.
    const res = await a.post(PATH, { entries: [modelEntry({ model: "Scheduled", unit_price_per_mtok: 0.7 })] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/effective_from/);
  });

  it("answers 400 when effective_from is not later than the open row's, writing nothing", async () => {
    const open = (await a.post(PATH, { entries: [modelEntry({ model: "Ordered", effective_from: "2026-03-01T00:00:00Z" })] }).expect(201)).body.entries[0];
    const rows = await countRows(ctx, "model_prices");
    for (const from of ["2026-03-01T00:00:00Z", "2026-02-01T00:00:00Z"]) {
      const res = await a.post(PATH, {
        entries: [modelEntry({ model: "Other in batch" }), modelEntry({ model: "Ordered", unit_price_per_mtok: 9, effective_from: from })],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining("entries.1.effective_from") });
    }
    expect(await countRows(ctx, "model_prices")).toBe(rows);
    expect((await a.get(`${PATH}?model=Ordered`).expect(200)).body.entries).toEqual([open]);
  });

  it("leaves exactly one open row after 20 concurrent registrations of one identity", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a.post(PATH, { entries: [modelEntry({ model: "Raced", unit_price_per_mtok: i + 1 })] })),
    );
    for (const res of results) expect([201, 400, 409]).toContain(res.status);
    expect(results.filter((res) => res.status === 201).length).toBeGreaterThan(0);
    const [open] = await ctx.db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM model_prices WHERE account_id = 'acct_a' AND model = 'Raced' AND effective_to IS NULL`,
    );
    expect(open.n).toBe(1);
    const history = (await a.get(`${PATH}?model=Raced&include_closed=true`).expect(200)).body.entries;
    // Versions chain without gaps or overlaps.
    for (let i = 1; i < history.length; i++) expect(history[i].effective_to).toBe(history[i - 1].effective_from);
  });
});

describe("GET and DELETE /marketplace/providers/models", () => {
  it("filters by identity fields; an empty value matches an absent part", async () => {
    await a.post(PATH, { entries: [modelEntry({ model: "Filtered", region: "eu" }), modelEntry({ model: "Filtered" })] }).expect(201);
    const eu = (await a.get(`${PATH}?model=Filtered&region=eu`).expect(200)).body.entries;
    expect(eu).toHaveLength(1);
    expect(eu[0].region).toBe("eu");
    const none = (await a.get(`${PATH}?model=Filtered&region=`).expect(200)).body.entries;
    expect(none).toHaveLength(1);
    expect(none[0].region).toBeNull();
    const bad = await a.get(`${PATH}?token_bucket=prompt`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/token_bucket/);
  });

  it("DELETE needs a well-formed id of the caller's open row", async () => {
    expect((await a.delete(PATH)).status).toBe(400);
    expect((await a.delete(`${PATH}?id=not%20an%20id`)).status).toBe(400);
    expect((await a.delete(`${PATH}?id=${"x".repeat(65)}`)).status).toBe(400);
    const missing = await a.delete(`${PATH}?id=mpr_00000000000000000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.any(String) });
  });
});

describe("model entries are per account", () => {
  it("B cannot list, delete, pin or price A's entries", async () => {
    const entry = (await a.post(PATH, { entries: [modelEntry({ model: "Private" })] }).expect(201)).body.entries[0];
    expect((await b.get(PATH).expect(200)).body.entries).toEqual([]);
    expect((await b.get(`${PATH}?include_closed=true`).expect(200)).body.entries).toEqual([]);
    expect((await b.delete(`${PATH}?id=${entry.id}`)).status).toBe(404);
    const pin = await b.put(`/v1/pricing/pins/model/dep-1`, { pricing_id: entry.id });
    expect(pin.status).toBe(404);
    expect(pin.body.code).toBe("not_found");
    const priced = (await usage(b, [modelLine(entry.id, { input: 1 }, new Date().toISOString())]).expect(200)).body;
    expect(priced.lines[0]).toMatchObject({ resolved: false, reason: "unknown_pricing_id" });
    // B registering the same identity gets its own row; A's stays as it was.
    const own = (await b.post(PATH, { entries: [modelEntry({ model: "Private", unit_price_per_mtok: 5 })] }).expect(201)).body.entries[0];
    expect(own.id).not.toBe(entry.id);
    expect((await a.get(`${PATH}?model=Private`).expect(200)).body.entries).toEqual([entry]);
  });
});

describe("bad input on POST /marketplace/providers/models", () => {
  it.each([
    ["empty entries", { entries: [] }],
    ["no entries", {}],
    ["1001 entries", { entries: Array.from({ length: 1001 }, () => modelEntry()) }],
    ["a negative price", { entries: [modelEntry({ unit_price_per_mtok: -1 })] }],
    ["an unknown token_bucket", { entries: [modelEntry({ token_bucket: "prompt" })] }],
    ["a price as a string", { entries: [modelEntry({ unit_price_per_mtok: "0.15" })] }],
    ["a price over 1e15", { entries: [modelEntry({ unit_price_per_mtok: 1e16 })] }],
    ["a price with an exponent beyond -20 (1e-300)", { entries: [modelEntry({ unit_price_per_mtok: 1e-300 })] }],
    ["a lower-case currency", { entries: [modelEntry({ currency: "usd" })] }],
    ["a missing model", { entries: [modelEntry({ model: undefined })] }],
    ["one bad entry in a batch", { entries: [modelEntry({ model: "Good" }), modelEntry({ model: "Bad", context_limit: -1 })] }],
  ])("rejects %s with 400 {error} and writes nothing", async (_name, body) => {
    const rows = await countRows(ctx, "model_prices");
    const res = await a.post(PATH, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await countRows(ctx, "model_prices")).toBe(rows);
  });

  it("names where a price past the decimal bounds is", async () => {
    const res = await a.post(PATH, { entries: [modelEntry(), modelEntry({ model: "Tiny", unit_price_per_mtok: 1e-21 })] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/entries\.1\.unit_price_per_mtok: has an exponent beyond ±20/);
  });

  it("answers malformed JSON with 400 and a body over 1 MiB with 413, in {error} shape", async () => {
    const rows = await countRows(ctx, "model_prices");
    const malformed = await a.post(PATH).set("Content-Type", "application/json").send('{"entries": [');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.stringMatching(/JSON/) });
    const big = await a.post(PATH, { entries: [modelEntry({ tags: { blob: "x".repeat(1024 * 1024) } })] });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: expect.any(String) });
    expect(await countRows(ctx, "model_prices")).toBe(rows);
  });
});

describe("authentication on the marketplace", () => {
  it("answers 401 {error} without a key", async () => {
    for (const res of [
      await request(ctx.app)
        .post(PATH)
        .send({ entries: [modelEntry()] }),
      await request(ctx.app).get(PATH),
      await request(ctx.app).delete(`${PATH}?id=mpr_1`),
      await request(ctx.app).get("/marketplace/providers/databases"),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.stringMatching(/API key/) });
    }
  });

  it("unknown marketplace paths still answer 404", async () => {
    const res = await request(ctx.app).get("/marketplace/providers/nothing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
