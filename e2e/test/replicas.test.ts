import { randomBytes } from "node:crypto";
import { ApiError, createClient } from "@cloudcost/client";
import { failure, stackClient } from "../src/client";
import { eventually } from "../src/http";
import { describeWith } from "../src/requirements";
import { configuredReplicas, startStack, type Stack } from "../src/stack";

// Several processes of each service behind the gateway, on one PostgreSQL database per service and
// rate limits in Redis (docs/scaling.md). Needs TEST_DATABASE_URL (CI's PostgreSQL runs have it).
const describeIfNginx = describeWith("the replicas scenario", ["nginx"]);
const describeOnPostgres = process.env.TEST_DATABASE_URL ? describeIfNginx : describe.skip;
const CREDENTIAL_LIMIT = 30;
/** How long a pricing replica may take to refuse a revoked key before the test fails (generous: the outbox delivers it first). */
const REFUSAL_BOUND_MS = 30_000;

describeOnPostgres("two replicas of each service behind the gateway", () => {
  let stack: Stack;
  let token: string;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    stack = await startStack({ replicas: Math.max(2, configuredReplicas()), mainEnv: { RATE_LIMIT_PER_CREDENTIAL: String(CREDENTIAL_LIMIT) } });
    token = stack.devToken("grace@replicas.example");
    const client = stackClient(stack, { token });
    await client.main.completeSignup({ body: { company_name: "Replicas Corp", first_name: "Grace", last_name: "Hopper" } });
    const created = await client.main.createApiKey({ body: { name: "replicas", role: "admin" } });
    key = created.key;
    keyId = created.id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("a key revoked through one main API replica is refused by every pricing API replica, each within a second of the first", async () => {
    // One client per replica, so each call reaches that process rather than the gateway.
    const pricingReplicas = stack.pricings.map((pricing) => ({ url: pricing.url, client: createClient({ pricingUrl: pricing.url, apiKey: key }).pricing }));
    // Every pricing replica accepts the key (and so holds it in its cache for 30 s).
    for (const pricing of pricingReplicas) {
      await eventually(`${pricing.url} accepts the new key`, async () => {
        try {
          return await pricing.client.getAccount();
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) return undefined;
          throw error;
        }
      });
    }
    // Revoked through the second main API replica (the outbox delivers it to the first pricing
    // replica; LISTEN/NOTIFY tells the others).
    const revoker = createClient({ mainUrl: stack.mains[1].url, token }).main;
    await revoker.revokeApiKey({ params: { id: keyId } });
    const revokedAt = performance.now();
    const refusedAfter = await Promise.all(
      pricingReplicas.map(async (pricing) => {
        for (;;) {
          const refused = await pricing.client.getAccount().then(
            () => undefined,
            (error: unknown) => {
              if (error instanceof ApiError && error.status === 401) return error;
              throw error;
            },
          );
          if (refused) {
            expect(refused.code).toBe("unauthenticated");
            return performance.now() - revokedAt;
          }
          if (performance.now() - revokedAt > REFUSAL_BOUND_MS) return Number.POSITIVE_INFINITY;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }),
    );
    console.info(`revoked key refused by the pricing replicas after ${refusedAfter.map((ms) => `${Math.round(ms)} ms`).join(", ")}`);
    // Across the pricing replicas (what LISTEN/NOTIFY carries): within a second of the first one,
    // which the outbox delivered the revocation to. The outbox's own delivery takes milliseconds
    // on an idle machine (the whole is then under a second too) but more under CI's parallel load:
    // for it, only the generous bound of the wait above.
    expect(Math.max(...refusedAfter) - Math.min(...refusedAfter)).toBeLessThan(1_000);
    expect(Math.max(...refusedAfter)).toBeLessThan(REFUSAL_BOUND_MS);
    // The main API replicas refuse it at once (they read the key's row on every request).
    for (const main of stack.mains) {
      const refused = await failure(createClient({ mainUrl: main.url, token: key }).main.listApiKeys());
      expect([refused.status, refused.code]).toEqual([401, "unauthenticated"]);
    }
  });

  it("counts a credential's rate limit once across the main API replicas: the request over it is a 429 whichever replica answers", async () => {
    const credential = `bl_${randomBytes(16).toString("hex")}`;
    const statuses: number[] = [];
    const replicas = stack.mains.map((main) => createClient({ mainUrl: main.url, token: credential }).main);
    for (let i = 0; i < CREDENTIAL_LIMIT + 4; i++) {
      const replica = replicas[i % replicas.length];
      statuses.push((await failure(replica.listApiKeys())).status);
    }
    expect(statuses.slice(0, CREDENTIAL_LIMIT).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(CREDENTIAL_LIMIT)).toEqual([429, 429, 429, 429]);
  });
});
