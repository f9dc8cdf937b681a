// The client against the real apps, in process on ports of their own (each on a fresh embedded database).
// Their test helpers are imported by path (the apps must be built: turbo.json makes test depend on their build).
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createTestContext as mainContext, type TestContext as MainContext } from "../../../apps/main-api/test/helpers/context";
import { mintToken, uniqueEmail } from "../../../apps/main-api/test/helpers/identity";
import { createTestContext as pricingContext, type TestContext as PricingContext } from "../../../apps/pricing-api/test/helpers/context";
import { provisionKey } from "../../../apps/pricing-api/test/helpers/keys";
import { ApiError, createClient, type CloudCostClient } from "../src/index.js";

async function listen(app: (req: never, res: never) => void): Promise<{ server: Server; url: string }> {
  const { createServer } = await import("node:http");
  const server = createServer(app as never);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
const close = (server: Server | undefined) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

let main: MainContext;
let pricing: PricingContext;
let mainServer: Server;
let pricingServer: Server;
let client: CloudCostClient;
let orgId: string;
let tenantId: string;
let token: string;
let mainUrl: string;

beforeAll(async () => {
  [main, pricing] = await Promise.all([mainContext(), pricingContext()]);
  const [m, p] = await Promise.all([listen(main.app as never), listen(pricing.app as never)]);
  mainServer = m.server;
  pricingServer = p.server;
  token = await mintToken(main, { email: uniqueEmail("owner") });
  mainUrl = m.url;
  const apiKey = await provisionKey(pricing, "acct_client", "admin");
  client = createClient({ mainUrl: m.url, pricingUrl: p.url, token, apiKey });
  const signup = await client.main.completeSignup({
    body: { company_name: "Client Corp", first_name: "Ada", last_name: "Lovelace" },
    idempotencyKey: "signup-1",
  });
  orgId = signup.organization.id;
  tenantId = signup.default_tenant.id;
});

afterAll(async () => {
  await Promise.all([close(mainServer), close(pricingServer)]);
  await Promise.all([main?.close(), pricing?.close()]);
});

const budgetBody = { name: "Monthly", period: "monthly" as const, amount: "1000", currency: "USD", thresholds: [{ percent: 80, kind: "actual" as const }] };

describe("main API", () => {
  it("creates a budget once per Idempotency-Key and reads it back parsed", async () => {
    const first = await client.main.createBudget({ tenant: tenantId, body: budgetBody, idempotencyKey: "budget-1" });
    const again = await client.main.createBudget({ tenant: tenantId, body: budgetBody, idempotencyKey: "budget-1" });
    expect(again.id).toBe(first.id);
    const read = await client.main.getBudget({ params: { id: first.id }, tenant: tenantId });
    expect(read).toMatchObject({ id: first.id, tenant_id: tenantId, amount: "1000", status: { state: "ok" } });
    expect((await client.main.listBudgets({ tenant: tenantId })).items.map((b) => b.id)).toEqual([first.id]);
  });

  it("a reused Idempotency-Key with another body is a typed idempotency_key_reused error", async () => {
    const error = await client.main
      .createBudget({ tenant: tenantId, body: { ...budgetBody, name: "Other" }, idempotencyKey: "budget-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });

  it("an unknown budget is a typed not_found error with the service's message", async () => {
    const error = (await client.main.getBudget({ params: { id: "bud_missing" }, tenant: tenantId }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 404, code: "not_found", operationId: "getBudget" });
    expect(error.message).toMatch(/budget/i);
  });

  it("the tenant header reaches the service: another tenant is a 403", async () => {
    await expect(client.main.listBudgets({ tenant: "ten_not_mine" })).rejects.toMatchObject({ status: 403, code: "forbidden" });
  });

  it("both array forms of a query reach the service", async () => {
    const query = { group_by: ["service_name", "region"], granularity: "none" } as const;
    const repeat = await client.main.getTenantSpend({ tenant: tenantId, query: { ...query, group_by: [...query.group_by] } });
    expect(repeat.group_by).toEqual(["service_name", "region"]);
    const comma = createClient({ mainUrl, token, arrayFormat: "comma" });
    const listed = await comma.main.getTenantSpend({ tenant: tenantId, query: { ...query, group_by: [...query.group_by] } });
    expect(listed.group_by).toEqual(["service_name", "region"]);
  });

  it("a FOCUS import is sent as its raw body, and the export is read as text", async () => {
    const header =
      "BilledCost,BillingAccountId,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargePeriodEnd,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName,SubAccountId";
    const row = "12.5,acct-1,USD,2026-11-01T00:00:00Z,2026-10-01T00:00:00Z,Usage,2026-10-02T00:00:00Z,2026-10-01T00:00:00Z,12.5,12.5,AWS,Amazon EC2,sub-1";
    const imported = await client.main
      .createSpendImport({ params: { org_id: orgId }, query: { file_name: "bill.csv" }, body: new Blob([`${header}\n${row}\n`]), contentType: "text/csv" })
      .catch((e: ApiError) => e);
    // Whether this minimal file passes every FOCUS rule or not, the answer is typed: an import, or a 400 naming the rule.
    if (imported instanceof ApiError) expect(imported).toMatchObject({ status: 400, code: "invalid_request" });
    else expect(imported.import?.rows).toBe(1);
    const csv = await client.main.exportOrganizationSpend({ params: { org_id: orgId }, query: { start: "2026-10-01", end: "2026-11-01" } });
    expect(csv.split("\n")[0]).toMatch(/BilledCost/);
  });
});

describe("pricing API", () => {
  it("registers and lists model prices with the API key", async () => {
    const registered = await client.pricing.registerModels({
      body: {
        entries: [
          { provider: "openai", model: "gpt-4o", token_bucket: "input", unit_price_per_mtok: 2.5, currency: "USD", effective_from: "2026-01-01T00:00:00Z" },
        ],
      },
      idempotencyKey: "models-1",
    });
    expect(registered.entries).toHaveLength(1);
    const listed = await client.pricing.listModels({ query: { provider: "openai" } });
    expect(listed.entries.map((e) => e.id)).toContain(registered.entries[0].id);
  });

  it("a marketplace error and a /v1 problem document are typed errors with their codes", async () => {
    await expect(client.pricing.closeModel({ query: { id: "mp_missing" } })).rejects.toMatchObject({ status: 404, code: "not_found" });
    const problem = (await client.pricing.getReport({ params: { id: "rep_missing" } }).catch((e: unknown) => e)) as ApiError;
    expect(problem).toMatchObject({ status: 404, code: "not_found" });
    expect(problem.requestId).toEqual(expect.any(String));
  });

  it("a wrong key is unauthenticated", async () => {
    await expect(client.pricing.getAccount({ credential: "bl_wrong" })).rejects.toMatchObject({ status: 401, code: "unauthenticated" });
  });
});
