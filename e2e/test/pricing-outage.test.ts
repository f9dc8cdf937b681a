import {
  AccountInfo,
  AnalyzeResponse,
  CreateApiKeyResponse,
  ErrorEnvelope,
  MarketplaceError,
  ProblemDocument,
  RecommendationsPage,
  RecommendationSummary,
  SignupCompleteResponse,
  SuccessEnvelope,
  User,
  type RecommendationItem,
} from "@cloudcost/contracts";
import { FLEET, samplesOf, type FleetMember } from "../src/fleet";
import { call, eventually, expectReply } from "../src/http";
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
  let org: string;
  let tenant: string;
  const vms = FLEET.filter((m) => m.resource.resource_type === "virtual_machine");

  const summary = async () =>
    expectReply(await call("GET", `${stack.api}/v1/tenant/compute/recommendations/summary`, { token, tenant }), 200, SuccessEnvelope(RecommendationSummary))
      .data;
  const recommendations = async () =>
    new Map(
      expectReply(
        await call("GET", `${stack.api}/v1/tenant/compute/recommendations?limit=500`, { token, tenant }),
        200,
        SuccessEnvelope(RecommendationsPage),
      ).data.items.map((item): [string, RecommendationItem] => [item.resource_id, item]),
    );
  const analyze = () => call("POST", `${stack.api}/v1/tenant/compute/recommendations/analyze`, { token, tenant });
  const send = async (members: FleetMember[]) => {
    const resources = members.map((m) => m.resource);
    expect((await call("PUT", `${stack.api}/v1/tenant/compute/resources`, { token, tenant, body: { resources } })).status).toBe(200);
    expect((await call("POST", `${stack.api}/v1/tenant/compute/metrics`, { token, tenant, body: { samples: samplesOf(members) } })).status).toBe(200);
  };

  beforeAll(async () => {
    stack = await startStack();
    token = stack.devToken("grace@outage.example");
    const signup = expectReply(
      await call("POST", `${stack.api}/v1/signup/complete`, { token, body: { company_name: "Outage Inc", first_name: "Grace", last_name: "Hopper" } }),
      201,
      SuccessEnvelope(SignupCompleteResponse),
    );
    org = signup.data.organization.id;
    tenant = signup.data.default_tenant.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("keeps answering from stored results while the pricing API is down, and recovers when it is back", async () => {
    await send(vms);
    expectReply(await analyze(), 200, SuccessEnvelope(AnalyzeResponse));
    const analyzedOnce = await summary();
    expect(analyzedOnce).toMatchObject({ total_resources: vms.length, analyzed_resources: vms.length });
    const before = await recommendations();

    // SIGTERM: a clean stop.
    expect(await stack.pricing.stop()).toBe(0);

    // The summary reads stored results.
    expect(await summary()).toEqual(analyzedOnce);

    // A fleet change that needs prices nobody has cached: the documented failure, nothing lost.
    await send([LATECOMER]);
    const failed = expectReply(await analyze(), 503, ErrorEnvelope);
    expect(failed.message).toMatch(/pricing API is unavailable/);
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
    const signup = expectReply(
      await call("POST", `${stack.api}/v1/signup/complete`, { token: other, body: { company_name: "Second Co", first_name: "Linus", last_name: "T" } }),
      201,
      SuccessEnvelope(SignupCompleteResponse),
    );
    const user = expectReply(
      await call("GET", `${stack.api}/v1/organizations/${signup.data.organization.id}/users/${signup.data.owner.id}`, { token: other }),
      200,
      SuccessEnvelope(User),
    );
    expect(user.data.email).toBe("linus@outage.example");
    const created = expectReply(
      await call("POST", `${stack.api}/v1/settings/api-keys`, { token, body: { name: "made during the outage", role: "viewer" } }),
      201,
      SuccessEnvelope(CreateApiKeyResponse),
    );

    // The gateway answers for the missing upstream, in each API's error shape.
    const market = await call("GET", `${stack.pricingUrl}/marketplace/providers/models`, { apiKey: created.data.key });
    expect(expectReply(market, 503, MarketplaceError).error).toMatch(/unavailable/);
    const v1 = await call("GET", `${stack.pricingUrl}/v1/pricing/account`, { apiKey: created.data.key });
    expect(v1.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(expectReply(v1, 503, ProblemDocument).code).toBe("service_unavailable");

    // Back on the same port and database.
    await stack.pricing.start();
    const recovered = expectReply(await analyze(), 200, SuccessEnvelope(AnalyzeResponse));
    expect(recovered.data.analyzed_resources).toBe(vms.length + 1);
    const after = await summary();
    expect(after).toMatchObject({ total_resources: vms.length + 1, analyzed_resources: vms.length + 1, analysis_coverage: 1 });
    expect(after.action_counts.pending).toBe(0);
    expect(after.action_counts.downsize).toBe(analyzedOnce.action_counts.downsize + 1);
    expect((await recommendations()).get(LATECOMER.resource.resource_id)?.action).toBe(LATECOMER.expect);

    // The key made during the outage reached the pricing API once it was back.
    const account = await eventually("the key created during the outage is delivered", async () => {
      const reply = await call("GET", `${stack.pricingUrl}/v1/pricing/account`, { apiKey: created.data.key });
      return reply.status === 200 ? AccountInfo.parse(reply.body) : undefined;
    });
    expect(account.account_id).toBe(org);
  });
});
