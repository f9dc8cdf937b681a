// The main API's client of the pricing API's internal operations: on behalf of an organization's
// pricing account, authenticated by a service token per attempt, failing with
// PricingUnavailableError (never a half answer) when the pricing API is down or refuses it.
import pino from "pino";
import { createInternalPricingApi, PricingUnavailableError } from "../src/pricing/internal-client";
import { TEST_SERVICE_TOKEN_SECRET } from "./helpers/context";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";

let pricing: RunningPricingApi;
beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET, { computeCatalog: true });
});
afterAll(async () => {
  await pricing.close();
});

const client = (secret = TEST_SERVICE_TOKEN_SECRET) =>
  createInternalPricingApi({
    baseUrl: pricing.url,
    serviceSecret: new TextEncoder().encode(secret),
    logger: pino({ level: "silent" }),
    // Generous: the pricing API runs in this process, on a machine that may be loaded.
    timeoutMs: 15_000,
    attempts: 2,
  });

describe("internal pricing client", () => {
  it("prices a compute batch for an account at the catalog's list price when it has no entries", async () => {
    const body = await client().priceComputeBatch("org_without_entries", [
      { provider: "aws", region: "us-east-1", instance_type: "m5.large", operating_system: "linux", usage_type: "on_demand" },
      { provider: "aws", region: "us-east-1", instance_type: "no.such-type" },
    ]);
    expect(body.results[0]).toMatchObject({ index: 0, price: { price_per_hour: 0.096, source: "catalog" } });
    expect(body.results[1]).toMatchObject({ index: 1, problem: { status: 404 } });
  });

  it("lists instance types with the query as parameters", async () => {
    const body = await client().instanceTypes("org_without_entries", { provider: "aws", region: "us-east-1", architecture: "arm64" });
    expect(body.instance_types.length).toBeGreaterThan(0);
    expect(body.instance_types.every((row) => row.architecture === "arm64")).toBe(true);
  });

  it("prices usage with the account's prices; a line without a price entry is unresolved with its reason", async () => {
    const body = await client().priceUsage("org_without_entries", [
      { resource_id: "r1", kind: "model", timestamp: "2026-11-01T00:00:00Z", quantities: { input: 1000 } },
    ]);
    expect(body.lines).toEqual([expect.objectContaining({ index: 0, resolved: false, reason: "no_pricing_label", cost: null })]);
  });

  it("fails with PricingUnavailableError when the pricing API refuses the service token", async () => {
    await expect(client("another-secret-of-enough-length-000000").priceUsage("a", [])).rejects.toThrow(PricingUnavailableError);
  });

  it("fails with PricingUnavailableError after its attempts while the pricing API is down", async () => {
    pricing.down = true;
    try {
      await expect(client().priceComputeBatch("a", [{ provider: "aws", region: "us-east-1", instance_type: "m5.large" }])).rejects.toThrow(
        /answered 503 \(2 attempts\)/,
      );
    } finally {
      pricing.down = false;
    }
  });
});
