import {
  AccountInfo,
  AnalyzeResponse,
  ComputeBatchResponse,
  ComputePrice,
  CreateApiKeyResponse,
  DeleteDatabasesResponse,
  ErrorEnvelope,
  IngestMetricsResponse,
  MarketplaceError,
  Pin,
  ProblemDocument,
  RecommendationsPage,
  RecommendationSummary,
  RegisterDatabasesResponse,
  RegisterModelsResponse,
  SignupCompleteResponse,
  SuccessEnvelope,
  UpsertResourcesResponse,
  UsageResponse,
  User,
  type RecommendationItem,
} from "@cloudcost/contracts";
import { FLEET, samplesOf } from "../src/fleet";
import { call, eventually, expectReply } from "../src/http";
import { centsToNumber, monthlyCents, toUnits, unitsToCents } from "../src/money";
import { describeWith } from "../src/requirements";
import { startStack, type Stack } from "../src/stack";

// The whole journey of a customer, as an outside client: both services as real processes on their
// own databases, every request through the nginx gateway, every body checked with the contracts.
const describeIfNginx = describeWith("the journey", ["nginx"]);

const PREFIX = "costs.example.com";

describeIfNginx("customer journey through the gateway", () => {
  let stack: Stack;
  let token: string;
  let org: string;
  let tenant: string;
  let ownerId: string;
  let key: string;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("signs up with a development-issuer token and reads the owner back", async () => {
    token = stack.devToken("ada@journey.example");
    const signup = expectReply(
      await call("POST", `${stack.api}/v1/signup/complete`, {
        token,
        body: { company_name: "Journey Corp", first_name: "Ada", last_name: "Lovelace", job_title: "CTO" },
      }),
      201,
      SuccessEnvelope(SignupCompleteResponse),
    );
    org = signup.data.organization.id;
    tenant = signup.data.default_tenant.id;
    ownerId = signup.data.owner.id;
    expect(signup.data.owner).toMatchObject({ role: "owner", active: true, email: "ada@journey.example", name: "Ada Lovelace", tenant_ids: [tenant] });

    const owner = expectReply(await call("GET", `${stack.api}/v1/organizations/${org}/users/${ownerId}`, { token }), 200, SuccessEnvelope(User));
    expect(owner.data).toEqual(signup.data.owner);

    const again = await call("POST", `${stack.api}/v1/signup/complete`, {
      token,
      body: { company_name: "Journey Corp", first_name: "Ada", last_name: "Lovelace" },
    });
    expectReply(again, 409, ErrorEnvelope);
    expectReply(await call("GET", `${stack.api}/v1/organizations/${org}/users/${ownerId}`), 401, ErrorEnvelope);
  });

  it("creates an API key that the pricing API accepts once the outbox delivered it", async () => {
    const created = expectReply(
      await call("POST", `${stack.api}/v1/settings/api-keys`, { token, body: { name: "journey CI", role: "admin" } }),
      201,
      SuccessEnvelope(CreateApiKeyResponse),
    );
    key = created.data.key;
    const account = await eventually("the pricing API accepts the new key", async () => {
      const reply = await call("GET", `${stack.pricingUrl}/v1/pricing/account`, { apiKey: key });
      if (reply.status === 401) return undefined;
      return expectReply(reply, 200, AccountInfo);
    });
    expect(account.account_id).toBe(org);

    const wrong = await call("GET", `${stack.pricingUrl}/v1/pricing/account`, { apiKey: "bl_notAKeyOfAnyone" });
    expect(expectReply(wrong, 401, ProblemDocument).code).toBe("unauthenticated");
  });

  it("registers model and database prices, prices usage exactly, and protects a pinned entry", async () => {
    const models = expectReply(
      await call("POST", `${stack.pricingUrl}/marketplace/providers/models`, {
        apiKey: key,
        body: {
          entries: [
            { provider: "openai", publisher: "OpenAI", model: "GPT-4o mini", model_id: "gpt-4o-mini", token_bucket: "input", unit_price_per_mtok: 0.15 },
            { provider: "openai", publisher: "OpenAI", model: "GPT-4o mini", model_id: "gpt-4o-mini", token_bucket: "output", unit_price_per_mtok: 0.6 },
          ],
        },
      }),
      201,
      RegisterModelsResponse,
    );
    expect(models.entries.map((e) => [e.token_bucket, e.unit_price_per_mtok, e.currency])).toEqual([
      ["input", 0.15, "USD"],
      ["output", 0.6, "USD"],
    ]);
    const databases = expectReply(
      await call("POST", `${stack.pricingUrl}/marketplace/providers/databases`, {
        apiKey: key,
        body: {
          entries: [
            {
              provider: "aws",
              service: "rds",
              region: "eu-west-1",
              engine: "PostgreSQL",
              instance_type: "db.r6g.large",
              cost_per_hour: 0.258,
              cost_per_storage_gb_hour: 0.000158,
            },
          ],
        },
      }),
      201,
      RegisterDatabasesResponse,
    );
    const modelId = models.entries[0].id;
    const databaseId = databases.entries[0].id;
    expect(databases.entries[0]).toMatchObject({ period_billing_hours: 730, cost_per_hour: 0.258, edition: null });

    const now = new Date().toISOString();
    const usage = expectReply(
      await call("POST", `${stack.pricingUrl}/v1/pricing/usage`, {
        apiKey: key,
        body: {
          usage: [
            {
              resource_id: "chat-bot",
              kind: "model",
              timestamp: now,
              labels: { [`${PREFIX}/pricing-id.model`]: modelId },
              quantities: { input: 1234567, output: 20000 },
            },
            {
              resource_id: "prod-db-1",
              kind: "database",
              timestamp: now,
              tags: { [`${PREFIX}/pricing-id.database`]: databaseId },
              quantities: { hours: 730, storage_gb_hours: 73000 },
            },
            { resource_id: "unlabelled", kind: "database", timestamp: now, quantities: { hours: 1 } },
          ],
        },
      }),
      200,
      UsageResponse,
    );
    // 1.234567 M x 0.15 + 0.02 M x 0.6; 730 h x 0.258 + 73000 GB-h x 0.000158.
    expect(usage.lines.map((l) => [l.resolved, l.cost, l.reason])).toEqual([
      [true, 0.19718505, null],
      [true, 199.874, null],
      [false, null, "no_pricing_label"],
    ]);
    expect(usage.lines[0].unit_prices).toEqual({ input: 0.15, output: 0.6 });
    expect(usage.totals).toEqual([{ currency: "USD", cost: 200.07118505 }]);

    const pin = expectReply(
      await call("PUT", `${stack.pricingUrl}/v1/pricing/pins/database/prod-db-1`, { apiKey: key, body: { pricing_id: databaseId } }),
      200,
      Pin,
    );
    expect(pin).toMatchObject({ kind: "database", resource_id: "prod-db-1", pricing_id: databaseId });
    const refused = expectReply(
      await call("DELETE", `${stack.pricingUrl}/marketplace/providers/databases?id=${databaseId}`, { apiKey: key }),
      409,
      MarketplaceError,
    );
    expect(refused.error).toContain("prod-db-1");

    expect((await call("DELETE", `${stack.pricingUrl}/v1/pricing/pins/database/prod-db-1`, { apiKey: key })).status).toBe(204);
    const deleted = expectReply(
      await call("DELETE", `${stack.pricingUrl}/marketplace/providers/databases?id=${databaseId}`, { apiKey: key }),
      200,
      DeleteDatabasesResponse,
    );
    expect(deleted.entries.map((e) => e.id)).toEqual([databaseId]);
  });

  it("sends a fleet and its utilization, analyzes it, and summarizes what the fleet implies", async () => {
    const vms = FLEET.filter((m) => m.resource.resource_type === "virtual_machine");
    const upserted = expectReply(
      await call("PUT", `${stack.api}/v1/tenant/compute/resources`, { token: key, tenant, body: { resources: FLEET.map((m) => m.resource) } }),
      200,
      SuccessEnvelope(UpsertResourcesResponse),
    );
    expect(upserted.data.upserted).toBe(FLEET.length);
    const samples = samplesOf(FLEET);
    const accepted = expectReply(
      await call("POST", `${stack.api}/v1/tenant/compute/metrics`, { token: key, tenant, body: { samples } }),
      200,
      SuccessEnvelope(IngestMetricsResponse),
    );
    expect(accepted.data.accepted).toBe(samples.length);

    const summaryUrl = `${stack.api}/v1/tenant/compute/recommendations/summary`;
    const before = expectReply(await call("GET", summaryUrl, { token, tenant }), 200, SuccessEnvelope(RecommendationSummary)).data;
    expect(before).toMatchObject({ total_resources: vms.length, analyzed_resources: 0, analysis_coverage: 0, actionable_count: 0, top_savers: [] });
    expect(before.action_counts.pending).toBe(vms.length);
    expectReply(await call("GET", summaryUrl, { token }), 400, ErrorEnvelope);

    const analyzed = expectReply(
      await call("POST", `${stack.api}/v1/tenant/compute/recommendations/analyze`, { token, tenant }),
      200,
      SuccessEnvelope(AnalyzeResponse),
    );
    expect(analyzed.data.analyzed_resources).toBe(FLEET.length);

    // Every member got the action its utilization implies.
    const items = new Map<string, RecommendationItem>();
    for (const type of ["virtual_machine", "kubernetes_node"]) {
      const page = expectReply(
        await call("GET", `${stack.api}/v1/tenant/compute/recommendations?resource_type=${type}&limit=500`, { token, tenant }),
        200,
        SuccessEnvelope(RecommendationsPage),
      );
      for (const item of page.data.items) items.set(item.resource_id, item);
    }
    expect(Object.fromEntries([...items].map(([id, item]) => [id, item.action]))).toEqual(
      Object.fromEntries(FLEET.map((m) => [m.resource.resource_id, m.expect])),
    );

    // Prices of the current and recommended types, from the pricing API, independently of the main API.
    const actionable = vms.filter((m) => ["DOWNSIZE", "UPSIZE"].includes(m.expect)).map((m) => items.get(m.resource.resource_id)!);
    const query = (provider: string, region: string, instance_type: string) => ({ provider, region, instance_type });
    const batch = expectReply(
      await call("POST", `${stack.pricingUrl}/v1/pricing/compute/batch`, {
        apiKey: key,
        body: {
          items: actionable.flatMap((i) => [
            query(i.provider!, i.region!, i.current_instance_type!),
            query(i.provider!, i.region!, i.recommended_instance_type!),
          ]),
        },
      }),
      200,
      ComputeBatchResponse,
    );
    const hourly = batch.results.map((r) => {
      if (!("price" in r)) throw new Error(`no price: ${JSON.stringify(r)}`);
      return r.price.price_per_hour;
    });
    const expectedSavings = new Map<string, bigint>();
    actionable.forEach((item, i) => {
      const [current, recommended] = [hourly[2 * i], hourly[2 * i + 1]];
      const savings = unitsToCents((toUnits(current) - toUnits(recommended)) * 730n);
      expectedSavings.set(item.resource_id, savings);
      expect([item.resource_id, item.current_monthly_cost_usd, item.recommended_monthly_cost_usd, item.savings_monthly_usd]).toEqual([
        item.resource_id,
        centsToNumber(monthlyCents(current)),
        centsToNumber(monthlyCents(recommended)),
        centsToNumber(savings),
      ]);
      expect(Math.sign(item.savings_monthly_usd!)).toBe(item.action === "DOWNSIZE" ? 1 : -1);
    });

    // The idle VM: its whole catalog price, 730 hours a month.
    const idle = FLEET.find((m) => m.expect === "TERMINATE")!.resource;
    const idlePrice = expectReply(
      await call("POST", `${stack.pricingUrl}/v1/pricing/compute`, { apiKey: key, body: query(idle.provider!, idle.region!, idle.instance_type!) }),
      200,
      ComputePrice,
    );
    expect(idlePrice.source).toBe("catalog");
    expectedSavings.set(idle.resource_id, monthlyCents(idlePrice.price_per_hour));
    expect(items.get(idle.resource_id)).toMatchObject({
      recommended_instance_type: "",
      savings_monthly_usd: centsToNumber(monthlyCents(idlePrice.price_per_hour)),
    });

    const summary = expectReply(await call("GET", summaryUrl, { token, tenant }), 200, SuccessEnvelope(RecommendationSummary)).data;
    const count = (action: string) => vms.filter((m) => m.expect === action).length;
    expect(summary.action_counts).toEqual({
      downsize: count("DOWNSIZE"),
      upsize: count("UPSIZE"),
      terminate: count("TERMINATE"),
      noop: count("NOOP"),
      no_recommendation: count("NO_RECOMMENDATION"),
      pending: 0,
    });
    expect(summary).toMatchObject({
      total_resources: vms.length,
      analyzed_resources: vms.length,
      analysis_coverage: 1,
      actionable_count: count("DOWNSIZE") + count("UPSIZE") + count("TERMINATE"),
    });
    const monthlyTotal = [...expectedSavings.values()].reduce((a, b) => a + b, 0n);
    expect(summary.potential_savings_monthly_usd).toBe(centsToNumber(monthlyTotal));
    expect(summary.potential_savings_annual_usd).toBe(centsToNumber(monthlyTotal * 12n));

    const savers = [...expectedSavings]
      .filter(([, cents]) => cents > 0n)
      .sort(([a, x], [b, y]) => (x === y ? (a < b ? -1 : 1) : x > y ? -1 : 1))
      .map(([id, cents]) => ({ resource_id: id, savings_monthly_usd: centsToNumber(cents) }));
    expect(summary.top_savers.map(({ resource_id, savings_monthly_usd }) => ({ resource_id, savings_monthly_usd }))).toEqual(savers);
    for (const saver of summary.top_savers) {
      const member = FLEET.find((m) => m.resource.resource_id === saver.resource_id)!.resource;
      expect(saver).toMatchObject({ name: member.name, resource_type: "virtual_machine", current_instance_type: member.instance_type });
    }

    // Filters: the Kubernetes node only under its resource type; one provider of the VMs.
    const nodes = expectReply(
      await call("GET", `${summaryUrl}?resource_type=kubernetes_node`, { token, tenant }),
      200,
      SuccessEnvelope(RecommendationSummary),
    ).data;
    expect(nodes).toMatchObject({ total_resources: 1, analyzed_resources: 1, actionable_count: 1 });
    const gcp = expectReply(await call("GET", `${summaryUrl}?provider=gcp`, { token, tenant }), 200, SuccessEnvelope(RecommendationSummary)).data;
    expect(gcp.total_resources).toBe(vms.filter((m) => m.resource.provider === "gcp").length);
    expect(gcp.potential_savings_monthly_usd).toBe(centsToNumber(expectedSavings.get("vm-gcp-n2")!));
  });
});
