import { ErrorEnvelope, MarketplaceError, ProblemDocument, type RecommendationItem } from "@cloudcost/contracts";
import type { CloudCostClient } from "@cloudcost/client";
import { failure, stackClient } from "../src/client";
import { FLEET, samplesOf } from "../src/fleet";
import { call, eventually, expectReply } from "../src/http";
import { centsToNumber, monthlyCents, toUnits, unitsToCents } from "../src/money";
import { describeWith } from "../src/requirements";
import { startStack, type Stack } from "../src/stack";

// The whole journey of a customer, as an outside client: both services as real processes on their
// own databases, every request through the nginx gateway with @cloudcost/client (every answer parsed
// with its schema from the contracts; every error body checked with its error schema).
const describeIfNginx = describeWith("the journey", ["nginx"]);

const PREFIX = "costs.example.com";

describeIfNginx("customer journey through the gateway", () => {
  let stack: Stack;
  let token: string;
  let org: string;
  let tenant: string;
  let ownerId: string;
  let key: string;
  /** The main API with the owner's token, the pricing API with the key. */
  let client: CloudCostClient;
  /** The main API with the API key as its bearer credential. */
  let withKey: CloudCostClient;

  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("signs up with a development-issuer token and reads the owner back", async () => {
    token = stack.devToken("ada@journey.example");
    client = stackClient(stack, { token });
    const signup = await client.main.completeSignup.reply({
      body: { company_name: "Journey Corp", first_name: "Ada", last_name: "Lovelace", job_title: "CTO" },
    });
    expect(signup.status).toBe(201);
    const signedUp = signup.body.data;
    org = signedUp.organization.id;
    tenant = signedUp.default_tenant.id;
    ownerId = signedUp.owner.id;
    expect(signedUp.owner).toMatchObject({ role: "owner", active: true, email: "ada@journey.example", name: "Ada Lovelace", tenant_ids: [tenant] });

    const owner = await client.main.getUser({ params: { org_id: org, id: ownerId } });
    expect(owner).toEqual(signedUp.owner);

    const again = await failure(client.main.completeSignup({ body: { company_name: "Journey Corp", first_name: "Ada", last_name: "Lovelace" } }));
    expect(again).toMatchObject({ status: 409, code: "conflict" });
    ErrorEnvelope.parse(again.body);
    const anonymous = await failure(stackClient(stack, {}).main.getUser({ params: { org_id: org, id: ownerId } }));
    expect(anonymous).toMatchObject({ status: 401, code: "unauthenticated" });
    ErrorEnvelope.parse(anonymous.body);
  });

  it("creates an API key that the pricing API accepts once the outbox delivered it", async () => {
    const created = await client.main.createApiKey.reply({ body: { name: "journey CI", role: "admin" } });
    expect(created.status).toBe(201);
    key = created.body.data.key;
    client = stackClient(stack, { token, apiKey: key });
    withKey = stackClient(stack, { token: key });
    const account = await eventually("the pricing API accepts the new key", () =>
      client.pricing.getAccount().catch((error: unknown) => {
        if ((error as { status?: number }).status === 401) return undefined;
        throw error;
      }),
    );
    expect(account.account_id).toBe(org);

    const wrong = await failure(client.pricing.getAccount({ credential: "bl_notAKeyOfAnyone" }));
    expect(wrong).toMatchObject({ status: 401, code: "unauthenticated" });
    expect(ProblemDocument.parse(wrong.body).code).toBe("unauthenticated");
  });

  it("registers model and database prices, prices usage exactly, and protects a pinned entry", async () => {
    const models = await client.pricing.registerModels({
      body: {
        entries: [
          { provider: "openai", publisher: "OpenAI", model: "GPT-4o mini", model_id: "gpt-4o-mini", token_bucket: "input", unit_price_per_mtok: 0.15 },
          { provider: "openai", publisher: "OpenAI", model: "GPT-4o mini", model_id: "gpt-4o-mini", token_bucket: "output", unit_price_per_mtok: 0.6 },
        ],
      },
    });
    expect(models.entries.map((e) => [e.token_bucket, e.unit_price_per_mtok, e.currency])).toEqual([
      ["input", 0.15, "USD"],
      ["output", 0.6, "USD"],
    ]);
    const databases = await client.pricing.registerDatabases({
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
    });
    const modelId = models.entries[0].id;
    const databaseId = databases.entries[0].id;
    expect(databases.entries[0]).toMatchObject({ period_billing_hours: 730, cost_per_hour: 0.258, edition: null });

    const now = new Date().toISOString();
    const usage = await client.pricing.priceUsage({
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
    });
    // 1.234567 M x 0.15 + 0.02 M x 0.6; 730 h x 0.258 + 73000 GB-h x 0.000158.
    expect(usage.lines.map((l) => [l.resolved, l.cost, l.reason])).toEqual([
      [true, 0.19718505, null],
      [true, 199.874, null],
      [false, null, "no_pricing_label"],
    ]);
    expect(usage.lines[0].unit_prices).toEqual({ input: 0.15, output: 0.6 });
    expect(usage.totals).toEqual([{ currency: "USD", cost: 200.07118505 }]);

    const pinned = { kind: "database", resource_id: "prod-db-1" } as const;
    const pin = await client.pricing.putPin({ params: pinned, body: { pricing_id: databaseId } });
    expect(pin).toMatchObject({ kind: "database", resource_id: "prod-db-1", pricing_id: databaseId });
    const refused = await failure(client.pricing.deleteDatabase({ query: { id: databaseId } }));
    expect(refused).toMatchObject({ status: 409, code: "conflict" });
    expect(MarketplaceError.parse(refused.body).error).toContain("prod-db-1");

    expect((await client.pricing.deletePin.reply({ params: pinned })).status).toBe(204);
    const deleted = await client.pricing.deleteDatabase({ query: { id: databaseId } });
    expect(deleted.entries.map((e) => e.id)).toEqual([databaseId]);
  });

  it("sends a fleet and its utilization, analyzes it, and summarizes what the fleet implies", async () => {
    const vms = FLEET.filter((m) => m.resource.resource_type === "virtual_machine");
    const upserted = await withKey.main.upsertResources({ tenant, body: { resources: FLEET.map((m) => m.resource) } });
    expect(upserted.upserted).toBe(FLEET.length);
    const samples = samplesOf(FLEET);
    const accepted = await withKey.main.ingestMetrics({ tenant, body: { samples } });
    expect(accepted.accepted).toBe(samples.length);

    const summaryOf = (query?: { resource_type?: "virtual_machine" | "kubernetes_node"; provider?: string }) =>
      client.main.getRecommendationSummary({ tenant, query });
    const before = await summaryOf();
    expect(before).toMatchObject({ total_resources: vms.length, analyzed_resources: 0, analysis_coverage: 0, actionable_count: 0, top_savers: [] });
    expect(before.action_counts.pending).toBe(vms.length);
    // Without the tenant header: the typed client cannot send that (a type error, and a TypeError
    // before any request), so a raw request checks the service's own 400.
    await expect(client.main.getRecommendationSummary({ tenant: "" })).rejects.toThrow(TypeError);
    expectReply(await call("GET", `${stack.api}/v1/tenant/compute/recommendations/summary`, { token }), 400, ErrorEnvelope);

    const analyzed = await client.main.analyzeRecommendations({ tenant });
    expect(analyzed.analyzed_resources).toBe(FLEET.length);

    // Every member got the action its utilization implies.
    const items = new Map<string, RecommendationItem>();
    for (const type of ["virtual_machine", "kubernetes_node"] as const) {
      const page = await client.main.listRecommendations({ tenant, query: { resource_type: type, limit: 500 } });
      for (const item of page.items) items.set(item.resource_id, item);
    }
    expect(Object.fromEntries([...items].map(([id, item]) => [id, item.action]))).toEqual(
      Object.fromEntries(FLEET.map((m) => [m.resource.resource_id, m.expect])),
    );

    // Prices of the current and recommended types, from the pricing API, independently of the main API.
    const actionable = vms.filter((m) => ["DOWNSIZE", "UPSIZE"].includes(m.expect)).map((m) => items.get(m.resource.resource_id)!);
    const query = (provider: string, region: string, instance_type: string) => ({ provider, region, instance_type });
    const batch = await client.pricing.priceComputeBatch({
      body: {
        items: actionable.flatMap((i) => [
          query(i.provider!, i.region!, i.current_instance_type!),
          query(i.provider!, i.region!, i.recommended_instance_type!),
        ]),
      },
    });
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
    const idlePrice = await client.pricing.priceCompute({ body: query(idle.provider!, idle.region!, idle.instance_type!) });
    expect(idlePrice.source).toBe("catalog");
    expectedSavings.set(idle.resource_id, monthlyCents(idlePrice.price_per_hour));
    expect(items.get(idle.resource_id)).toMatchObject({
      recommended_instance_type: "",
      savings_monthly_usd: centsToNumber(monthlyCents(idlePrice.price_per_hour)),
    });

    const summary = await summaryOf();
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
    const nodes = await summaryOf({ resource_type: "kubernetes_node" });
    expect(nodes).toMatchObject({ total_resources: 1, analyzed_resources: 1, actionable_count: 1 });
    const gcp = await summaryOf({ provider: "gcp" });
    expect(gcp.total_resources).toBe(vms.filter((m) => m.resource.provider === "gcp").length);
    expect(gcp.potential_savings_monthly_usd).toBe(centsToNumber(expectedSavings.get("vm-gcp-n2")!));
  });
});
