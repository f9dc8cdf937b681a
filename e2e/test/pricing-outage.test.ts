import type { CloudCostClient } from "@cloudcost/client";
import { ErrorEnvelope, MarketplaceError, ProblemDocument, type RecommendationItem } from "@cloudcost/contracts";
import { failure, stackClient } from "../src/client";
import { FLEET, samplesOf, type FleetMember } from "../src/fleet";
import { eventually } from "../src/http";
import { describeWith } from "../src/requirements";
import { startStack, type Stack } from "../src/stack";

// The pricing API goes down after the fleet was analyzed once: the main API keeps answering from
// what it stored, the gateway answers for the missing upstream, and everything recovers on restart.
const describeIfNginx = describeWith("the pricing outage scenario", ["nginx"]);

/** A VM in a region nothing has priced yet, so analyzing it needs the pricing API (no cached price). */
const LATECOMER: FleetMember = {
  resource: {
    resource_id: "vm-aws-eu",
    name: "eu replica",
    resource_type: "virtual_machine",
    provider: "aws",
    region: "eu-west-1",
    instance_type: "m5.2xlarge",
    architecture: "x86_64",
    operating_system: "linux",
  },
  expect: "DOWNSIZE",
  cpu: [5, 20],
  memory: [20, 40],
  samples: 13 * 24,
};

describeIfNginx("pricing API outage", () => {
  let stack: Stack;
  let token: string;
  /** The main API with the owner's token (through the gateway, like every request here). */
  let client: CloudCostClient;
  let org: string;
  let tenant: string;
  const vms = FLEET.filter((m) => m.resource.resource_type === "virtual_machine");

  const summary = () => client.main.getRecommendationSummary({ tenant });
  const recommendations = async () =>
    new Map(
      (await client.main.listRecommendations({ tenant, query: { limit: 500 } })).items.map((item): [string, RecommendationItem] => [item.resource_id, item]),
    );
  const analyze = () => client.main.analyzeRecommendations({ tenant });
  const send = async (members: FleetMember[]) => {
    await client.main.upsertResources({ tenant, body: { resources: members.map((m) => m.resource) } });
    await client.main.ingestMetrics({ tenant, body: { samples: samplesOf(members) } });
  };

  beforeAll(async () => {
    stack = await startStack();
    token = stack.devToken("grace@outage.example");
    client = stackClient(stack, { token });
    const signup = await client.main.completeSignup({ body: { company_name: "Outage Inc", first_name: "Grace", last_name: "Hopper" } });
    org = signup.organization.id;
    tenant = signup.default_tenant.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("keeps answering from stored results while the pricing API is down, and recovers when it is back", async () => {
    await send(vms);
    await analyze();
    const analyzedOnce = await summary();
    expect(analyzedOnce).toMatchObject({ total_resources: vms.length, analyzed_resources: vms.length });
    const before = await recommendations();

    // SIGTERM: a clean stop.
    expect(await stack.pricing.stop()).toBe(0);

    // The summary reads stored results.
    expect(await summary()).toEqual(analyzedOnce);

    // A fleet change that needs prices nobody has cached: the documented failure, nothing lost.
    await send([LATECOMER]);
    const failed = await failure(analyze());
    expect(failed).toMatchObject({ status: 503, code: "pricing_unavailable" });
    expect(ErrorEnvelope.parse(failed.body).message).toMatch(/pricing API is unavailable/);
    const during = await summary();
    expect(during).toMatchObject({
      total_resources: vms.length + 1,
      analyzed_resources: vms.length,
      action_counts: { ...analyzedOnce.action_counts, pending: 1 },
      potential_savings_monthly_usd: analyzedOnce.potential_savings_monthly_usd,
      top_savers: analyzedOnce.top_savers,
    });
    const kept = await recommendations();
    for (const [id, item] of before) expect(kept.get(id)).toEqual(item);
    expect(kept.get(LATECOMER.resource.resource_id)).toMatchObject({ action: null, analyzed_at: null });

    // Identity and management do not need the pricing API: sign-up, users, even a new API key
    // (the outbox holds it until the pricing API is back).
    const other = stack.devToken("linus@outage.example");
    const second = stackClient(stack, { token: other }).main;
    const signup = await second.completeSignup({ body: { company_name: "Second Co", first_name: "Linus", last_name: "T" } });
    const user = await second.getUser({ params: { org_id: signup.organization.id, id: signup.owner.id } });
    expect(user.email).toBe("linus@outage.example");
    const created = await client.main.createApiKey({ body: { name: "made during the outage", role: "viewer" } });

    // The gateway answers for the missing upstream, in each API's error shape.
    const pricing = stackClient(stack, { apiKey: created.key }).pricing;
    const market = await failure(pricing.listModels());
    expect(market.status).toBe(503);
    expect(MarketplaceError.parse(market.body).error).toMatch(/unavailable/);
    const v1 = await failure(pricing.getAccount());
    expect(v1).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(ProblemDocument.parse(v1.body).code).toBe("service_unavailable");

    // Back on the same port and database.
    await stack.pricing.start();
    const recovered = await analyze();
    expect(recovered.analyzed_resources).toBe(vms.length + 1);
    const after = await summary();
    expect(after).toMatchObject({ total_resources: vms.length + 1, analyzed_resources: vms.length + 1, analysis_coverage: 1 });
    expect(after.action_counts.pending).toBe(0);
    expect(after.action_counts.downsize).toBe(analyzedOnce.action_counts.downsize + 1);
    expect((await recommendations()).get(LATECOMER.resource.resource_id)?.action).toBe(LATECOMER.expect);

    // The key made during the outage reached the pricing API once it was back.
    const account = await eventually("the key created during the outage is delivered", () => pricing.getAccount().catch(() => undefined));
    expect(account.account_id).toBe(org);
  });
});
