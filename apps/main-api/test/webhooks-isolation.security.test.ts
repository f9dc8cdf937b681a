// Issue 47, finding 5 (and the webhook part of 9): one organization's slow webhooks delay no other
// organization. Organization A points three webhooks at a receiver that accepts and never answers
// (a tarpit) and pings each ten times; meanwhile organization B revokes a key and pings its own
// receiver. Two replicas deliver, each with the production delivery deadline (10 s): thirty pings
// one after another held a revocation back for minutes. Also the limits: 20 webhooks per
// organization, 10 test pings a minute per webhook.
import request from "supertest";
import { eventually } from "@cloudcost/testing";
import pino from "pino";
import { OutboxWorker } from "../src/outbox";
import { REVOKE_TOPIC } from "../src/outbox/pricing-api-keys";
import { enqueue } from "../src/outbox/repository";
import { createReplicaContext, createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { startReceiver, startTarpit, type Tarpit } from "./helpers/webhook-receiver";

/** What "promptly" means here: far below one delivery deadline (10 s), let alone thirty of them. */
const PROMPT_MS = 5_000;
const PER_ORGANIZATION = 4;

let pricing: RunningPricingApi;
let ctx: TestContext;
let replica: TestContext;
let tarpit: Tarpit;
let attacker: SignedUp;
let victim: SignedUp;

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  const env = { PRICING_API_URL: pricing.url, OUTBOX_POLL_MS: "50", OUTBOX_BACKOFF_BASE_MS: "20", OUTBOX_BACKOFF_MAX_MS: "200", WEBHOOK_TIMEOUT_MS: "10000" };
  ctx = await createTestContext(env);
  replica = await createReplicaContext(ctx, env);
  tarpit = await startTarpit();
  attacker = await signUp(ctx, { company: "Tarpit Co" });
  victim = await signUp(ctx, { company: "Victim Co" });
  ctx.outbox.start();
  replica.outbox.start();
});
afterAll(async () => {
  // Dropping the tarpit's connections ends the deliveries it holds at once.
  await tarpit?.close();
  await replica?.close();
  await ctx?.close();
  await pricing?.close();
});

const bearer = (who: SignedUp) => ({ Authorization: `Bearer ${who.token}` });
const hooks = (who: SignedUp, suffix = "") => `/api/v1/organizations/${who.organization.id}/webhooks${suffix}`;

async function register(who: SignedUp, url: string): Promise<string> {
  const res = await request(ctx.app)
    .post(hooks(who))
    .set(bearer(who))
    .send({ url, events: ["import.completed"] });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const ping = (who: SignedUp, webhookId: string) =>
  request(ctx.app)
    .post(hooks(who, `/${webhookId}/test`))
    .set(bearer(who));

/** Organization A's tarpit load: 3 webhooks x 10 pings, until the receiver holds requests open. */
async function tarpitLoad(): Promise<void> {
  for (let w = 0; w < 3; w++) {
    const id = await register(attacker, tarpit.url);
    for (let n = 0; n < 10; n++) expect((await ping(attacker, id)).status).toBe(202);
  }
  await eventually(
    () => tarpit.open,
    (open) => open >= 1,
    { what: "the tarpit holding a delivery" },
  );
}

describe("one organization's tarpit receivers", () => {
  // Organization B's admin key, known to the pricing API before organization A's load starts.
  let key: { id: string; key: string };
  const pricingAccount = () => request(pricing.url).get("/v1/pricing/account").set("X-API-Key", key.key);
  beforeAll(async () => {
    const created = await request(ctx.app).post("/api/v1/settings/api-keys").set(bearer(victim)).send({ name: "ci", role: "admin" });
    expect(created.status).toBe(201);
    key = created.body.data;
    await eventually(
      async () => (await pricingAccount()).status,
      (status) => status === 200,
      { what: "the new key accepted by the pricing API" },
    );
    await tarpitLoad();
  });

  it("do not hold back another organization's key revocation: the pricing API refuses the key promptly", async () => {
    expect((await request(ctx.app).delete(`/api/v1/settings/api-keys/${key.id}`).set(bearer(victim))).status).toBe(200);
    const revokedAt = Date.now();
    await eventually(
      async () => (await pricingAccount()).status,
      (status) => status === 401,
      { what: "the revoked key refused by the pricing API", timeoutMs: PROMPT_MS },
    );
    const refusedAfterMs = Date.now() - revokedAt;
    // The sync message is marked delivered once the pricing API has confirmed (just after it refuses the key).
    await eventually(
      () => ctx.prisma.outboxMessage.count({ where: { organizationId: victim.organization.id, topic: REVOKE_TOPIC, deliveredAt: { not: null } } }),
      (n) => n === 1,
      { what: "the revocation's outbox message delivered", timeoutMs: PROMPT_MS - refusedAfterMs },
    );
    // Organization A's deliveries have not all been tried yet (30 deadlines of 10 s, 4 at a time):
    // the revocation did not wait for them.
    expect(tarpit.total).toBeLessThan(30);
    console.info(`revoked key refused by the pricing API after ${refusedAfterMs} ms, beside ${tarpit.open} hanging deliveries`);
  });

  it("hold at most 4 of that organization's deliveries at once (across replicas), and another organization's go out meanwhile", async () => {
    const receiver = await startReceiver();
    try {
      const id = await register(victim, receiver.url);
      expect((await ping(victim, id)).status).toBe(202);
      await eventually(
        () => receiver.received.length,
        (n) => n === 1,
        { what: "organization B's ping delivered", timeoutMs: PROMPT_MS },
      );
      // Organization A has 30 deliveries due: it uses its 4 slots and no more, on two replicas.
      await eventually(
        () => tarpit.open,
        (open) => open === PER_ORGANIZATION,
        { what: "organization A's slots all in use" },
      );
      expect(tarpit.maxOpen).toBe(PER_ORGANIZATION);
      const pending = await ctx.prisma.outboxMessage.count({ where: { organizationId: attacker.organization.id, deliveredAt: null } });
      expect(pending).toBeGreaterThan(PER_ORGANIZATION);
    } finally {
      await receiver.close();
    }
  });
});

describe("the concurrent queue's claim", () => {
  const BACKLOG = 120;

  /**
   * Organization A queues BACKLOG messages whose receivers hang until released, then B queues 3
   * that are answered at once; `replicas` workers with `total` slots each deliver them. Resolves
   * when B's 3 are delivered (checking A's in flight then), after releasing A and delivering all.
   */
  async function backlogBeside(topic: string, replicas: TestContext[], total: number) {
    const orgA = attacker.organization.id;
    const orgB = victim.organization.id;
    await ctx.prisma.$transaction(async (tx) => {
      for (let n = 0; n < BACKLOG; n++) await enqueue(tx, { organizationId: orgA, topic, aggregateId: `a_${n}`, payload: { n } });
    });
    // Queued after organization A's whole backlog: due last.
    await ctx.prisma.$transaction(async (tx) => {
      for (let n = 0; n < 3; n++) await enqueue(tx, { organizationId: orgB, topic, aggregateId: `b_${n}`, payload: { n } });
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inFlight = new Map<string, number>();
    const maxInFlight = new Map<string, number>();
    const delivered: string[] = [];
    const handlers = {
      [topic]: async (payload: unknown, organizationId: string) => {
        inFlight.set(organizationId, (inFlight.get(organizationId) ?? 0) + 1);
        maxInFlight.set(organizationId, Math.max(maxInFlight.get(organizationId) ?? 0, inFlight.get(organizationId) ?? 0));
        try {
          if (organizationId === orgA) await released;
          delivered.push(`${organizationId}/${(payload as { n: number }).n}`);
        } finally {
          inFlight.set(organizationId, (inFlight.get(organizationId) ?? 0) - 1);
        }
      },
    };
    const options = {
      pollMs: 20,
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      queues: [{ name: "fair", topics: [topic], concurrency: { perOrganization: PER_ORGANIZATION, total } }],
    };
    const logger = pino({ level: "silent" });
    const workers = replicas.map((r) => new OutboxWorker(r.prisma, logger, handlers, options));
    for (const worker of workers) worker.start();
    let aInFlightMeanwhile: number | undefined;
    try {
      await eventually(
        () => delivered.filter((d) => d.startsWith(`${orgB}/`)).length,
        (n) => n === 3,
        { what: "organization B's messages delivered while A's hang", timeoutMs: PROMPT_MS },
      );
      aInFlightMeanwhile = inFlight.get(orgA);
      release();
      await eventually(
        () => delivered.length,
        (n) => n === BACKLOG + 3,
        { what: "every message delivered" },
      );
    } finally {
      release();
      for (const worker of workers) await worker.stop();
    }
    const undelivered = await ctx.prisma.outboxMessage.count({ where: { topic, OR: [{ deliveredAt: null }, { leasedUntil: { not: null } }] } });
    return { aInFlightMeanwhile, maxInFlightA: maxInFlight.get(orgA), delivered: new Set(delivered).size, undelivered };
  }

  it("gives every organization its own slots whatever another has queued, and delivers each message once", async () => {
    const seen = await backlogBeside("test.fair", [ctx, replica], 64);
    // Two replicas together kept organization A at its 4 slots; nothing was delivered twice.
    expect(seen).toEqual({ aInFlightMeanwhile: PER_ORGANIZATION, maxInFlightA: PER_ORGANIZATION, delivered: BACKLOG + 3, undelivered: 0 });
  });

  it("serves the organizations with the fewest in flight first when a worker has fewer free slots than candidates", async () => {
    // One worker of 4 slots: taking A's 4 oldest first would leave B nothing until A's receivers answer.
    const seen = await backlogBeside("test.fair.saturated", [ctx], PER_ORGANIZATION);
    expect(seen).toMatchObject({ delivered: BACKLOG + 3, undelivered: 0 });
    expect(seen.maxInFlightA).toBeLessThanOrEqual(PER_ORGANIZATION);
  });

  it("keeps claiming after kicks that found every slot taken", async () => {
    const topic = "test.fair.full";
    const organizationId = victim.organization.id;
    await ctx.prisma.$transaction(async (tx) => {
      for (let n = 0; n < 2; n++) await enqueue(tx, { organizationId, topic, aggregateId: `full_${n}`, payload: { n } });
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const delivered: number[] = [];
    const handlers = {
      [topic]: async (payload: unknown) => {
        const { n } = payload as { n: number };
        if (n === 0) await released;
        delivered.push(n);
      },
    };
    // One slot, no timer: only kicks and the end of a delivery claim.
    const options = {
      pollMs: 60_000,
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      queues: [{ name: "full", topics: [topic], concurrency: { perOrganization: 1, total: 1 } }],
    };
    const worker = new OutboxWorker(ctx.prisma, pino({ level: "silent" }), handlers, options);
    try {
      worker.kick();
      await eventually(
        () => ctx.prisma.outboxMessage.count({ where: { topic, leasedUntil: { not: null } } }),
        (n) => n === 1,
        { what: "the first message in flight" },
      );
      // Kicks while the only slot is taken claim nothing; they must not stop later claims.
      for (let k = 0; k < 3; k++) worker.kick();
      release();
      await eventually(
        () => delivered.length,
        (n) => n === 2,
        { what: "the second message delivered once the slot was free", timeoutMs: PROMPT_MS },
      );
    } finally {
      release();
      await worker.stop();
    }
  });
});

describe("limits", () => {
  let org: SignedUp;
  beforeAll(async () => {
    org = await signUp(ctx, { company: "Many Hooks Co" });
  });

  it("at most 20 webhooks per organization: the 21st is a 409 naming the limit, and concurrent creations do not overshoot", async () => {
    for (let n = 0; n < 17; n++) await register(org, `http://127.0.0.1:9/hook-${n}`);
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        request(ctx.app)
          .post(hooks(org))
          .set(bearer(org))
          .send({ url: `http://127.0.0.1:9/race-${n}`, events: ["import.completed"] }),
      ),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    expect(await ctx.prisma.webhook.count({ where: { organizationId: org.organization.id } })).toBe(20);

    const refused = await request(ctx.app)
      .post(hooks(org))
      .set(bearer(org))
      .send({ url: "http://127.0.0.1:9/one-more", events: ["import.completed"] });
    expectError(refused, 409, /20 webhooks/);
    expect(refused.headers["x-error-code"]).toBe("limit_reached");

    // Deleting one makes room again.
    const { id } = (await ctx.prisma.webhook.findFirstOrThrow({ where: { organizationId: org.organization.id } })) as { id: string };
    expect(
      (
        await request(ctx.app)
          .delete(hooks(org, `/${id}`))
          .set(bearer(org))
      ).status,
    ).toBe(204);
    await register(org, "http://127.0.0.1:9/after-delete");
  });

  it("at most 10 test pings a minute per webhook: the 11th is a 429 with Retry-After; another webhook is not affected", async () => {
    const [first, second] = await ctx.prisma.webhook.findMany({ where: { organizationId: org.organization.id }, take: 2, orderBy: { id: "asc" } });
    for (let n = 0; n < 10; n++) expect((await ping(org, first.id)).status).toBe(202);
    const refused = await ping(org, first.id);
    expectError(refused, 429, /10 test pings a minute/);
    expect(refused.headers["x-error-code"]).toBe("rate_limited");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect((await ping(org, second.id)).status).toBe(202);
    // Nothing was queued for the refused ping.
    const pings = await ctx.prisma.webhookDelivery.count({ where: { organizationId: org.organization.id, webhookId: first.id } });
    expect(pings).toBe(10);
  });
});
