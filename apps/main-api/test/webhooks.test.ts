// Webhooks: registration with a secret shown once and kept encrypted, events delivered through the
// outbox with a Stripe-style signature (checked here by an independent node:crypto implementation),
// retries with backoff against a receiver that fails twice, the delivery log, the ping.
import { createHmac, timingSafeEqual } from "node:crypto";
import request from "supertest";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { emitWebhookEvent } from "../src/webhooks/events";
import { retryDelayMs } from "../src/webhooks/delivery";
import { loadConfig } from "../src/config";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp, type SignedUp } from "./helpers/identity";
import { startReceiver, type Received } from "./helpers/webhook-receiver";
import { EVENTUALLY_TIMEOUT_MS } from "@cloudcost/testing";

let ctx: TestContext;
let owner: SignedUp;
let org: string;
const BASE_MS = 150;

beforeAll(async () => {
  ctx = await createTestContext({ WEBHOOK_BACKOFF_BASE_MS: String(BASE_MS), WEBHOOK_BACKOFF_MAX_MS: "60000" });
  owner = await signUp(ctx, { company: "Hooks Inc" });
  org = owner.organization.id;
});
afterAll(async () => {
  await ctx?.close();
});

const auth = () => ({ Authorization: `Bearer ${owner.token}` });
const hooks = (suffix = "") => `/api/v1/organizations/${org}/webhooks${suffix}`;

async function register(url: string, events = ["budget.threshold_crossed"]) {
  const res = await request(ctx.app).post(hooks()).set(auth()).send({ url, events, description: "test receiver" });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

/** Verifies `Webhook-Signature` the way a receiver would, with node:crypto only. */
function verify(secret: string, header: string | undefined, body: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((kv) => kv.split("=") as [string, string]));
  const expected = createHmac("sha256", secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= toleranceSeconds;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

async function emit(type: "budget.threshold_crossed" | "anomaly.detected" | "import.completed", data: Record<string, string>) {
  const result = await ctx.prisma.$transaction((tx) => emitWebhookEvent(tx, { organizationId: org, type, data }), TRANSACTION_OPTIONS);
  return result.eventId;
}

/** Runs delivery rounds until `done` (retries become due as time passes). */
async function deliverUntil(done: () => boolean | Promise<boolean>, timeoutMs = EVENTUALLY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error("deliveries did not finish in time");
    await ctx.outbox.drain();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function deliveries(webhookId: string) {
  const res = await request(ctx.app)
    .get(hooks(`/${webhookId}/deliveries`))
    .set(auth());
  expect(res.status).toBe(200);
  return res.body.data.items as {
    id: string;
    event_id: string;
    type: string;
    status: string;
    attempts: { attempt: number; started_at: string; status_code: number | null; duration_ms: number; error: string | null }[];
  }[];
}

describe("registration", () => {
  it("shows the secret once, stores it encrypted, and manages the webhook", async () => {
    const created = await register("http://127.0.0.1:9/receiver", ["anomaly.detected", "anomaly.detected", "import.completed"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ organization_id: org, events: ["anomaly.detected", "import.completed"], active: true, description: "test receiver" });
    const got = await request(ctx.app)
      .get(hooks(`/${created.id}`))
      .set(auth());
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty("secret");
    expect(JSON.stringify(got.body)).not.toContain(created.secret);
    const rows = await ctx.db.sql.query<{ row: string }>(`SELECT row_to_json(w)::text AS row FROM webhooks w WHERE id = $1`, [created.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].row).toContain("secret_ciphertext");
    expect(rows[0].row).not.toContain(created.secret.slice(6));

    const list = await request(ctx.app).get(hooks()).set(auth());
    expect(list.body.data.items.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);

    const patched = await request(ctx.app)
      .patch(hooks(`/${created.id}`))
      .set(auth())
      .send({ events: ["import.completed"], description: null, active: false });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ["import.completed"], description: null, active: false });

    expect(
      (
        await request(ctx.app)
          .delete(hooks(`/${created.id}`))
          .set(auth())
      ).status,
    ).toBe(204);
    expect(
      (
        await request(ctx.app)
          .get(hooks(`/${created.id}`))
          .set(auth())
      ).status,
    ).toBe(404);
    expect(
      (
        await request(ctx.app)
          .delete(hooks(`/${created.id}`))
          .set(auth())
      ).status,
    ).toBe(404);
  });

  it("refuses bad input with 400 and members with 403", async () => {
    for (const body of [
      { url: "not a url", events: ["anomaly.detected"] },
      { url: "ftp://example.com/x", events: ["anomaly.detected"] },
      { url: "https://user:pass@example.com/x", events: ["anomaly.detected"] },
      { url: "https://example.com/x", events: [] },
      { url: "https://example.com/x", events: ["ping"] },
      { url: "https://example.com/x", events: ["budget.exploded"] },
      { events: ["anomaly.detected"] },
    ]) {
      const res = await request(ctx.app).post(hooks()).set(auth()).send(body);
      expect([res.status, res.body.status]).toEqual([400, "error"]);
    }
    const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member", tenantIds: [owner.tenant.id] });
    const res = await request(ctx.app)
      .post(hooks())
      .set("Authorization", `Bearer ${member.token}`)
      .send({ url: "https://example.com/x", events: ["anomaly.detected"] });
    expect(res.status).toBe(403);
  });

  it("never replays the secret for a repeated Idempotency-Key", async () => {
    const body = { url: "https://example.com/idem", events: ["anomaly.detected"] };
    const first = await request(ctx.app).post(hooks()).set(auth()).set("Idempotency-Key", "hook-1").send(body);
    const again = await request(ctx.app).post(hooks()).set(auth()).set("Idempotency-Key", "hook-1").send(body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(409);
    expect(again.headers["x-error-code"]).toBe("idempotency_secret_not_replayed");
    expect(again.text).not.toContain(first.body.data.secret);
  });

  it("says which creation a withheld replay was by the operation, however its path is spelled (a trailing slash too)", async () => {
    const body = { url: "https://example.com/idem-slash", events: ["anomaly.detected"] };
    const first = await request(ctx.app).post(hooks("/")).set(auth()).set("Idempotency-Key", "hook-slash").send(body);
    expect(first.status).toBe(201);
    const again = await request(ctx.app).post(hooks("/")).set(auth()).set("Idempotency-Key", "hook-slash").send(body);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/^This webhook was already created with this Idempotency-Key/);
    expect(again.text).not.toContain(first.body.data.secret);
  });
});

describe("delivery", () => {
  it("POSTs each event, signed, to the webhooks subscribed to its type, with one id per event", async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    try {
      const hook = await register(receiver.url, ["budget.threshold_crossed", "anomaly.detected"]);
      const second = await register(receiver.url, ["budget.threshold_crossed"]);
      await register(other.url, ["import.completed"]);
      const paused = await register(other.url, ["budget.threshold_crossed"]);
      await request(ctx.app)
        .patch(hooks(`/${paused.id}`))
        .set(auth())
        .send({ active: false })
        .expect(200);

      const eventId = await emit("budget.threshold_crossed", { budget_id: "bud_1" });
      await deliverUntil(() => receiver.received.length === 2);
      await ctx.outbox.drain();
      expect(other.received).toEqual([]);
      const secrets = new Map([
        [hook.id, hook.secret],
        [second.id, second.secret],
      ]);
      const verifiedBy = (r: Received) =>
        [...secrets].filter(([, secret]) => verify(secret, r.headers["webhook-signature"] as string, r.body)).map(([id]) => id);
      expect(receiver.received.flatMap(verifiedBy).sort()).toEqual([hook.id, second.id].sort());
      for (const r of receiver.received) {
        expect(r.headers["content-type"]).toBe("application/json");
        expect(r.headers["webhook-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const body = JSON.parse(r.body);
        expect(Object.keys(body).sort()).toEqual(["created_at", "data", "id", "organization_id", "type"]);
        expect(body).toMatchObject({ id: eventId, type: "budget.threshold_crossed", organization_id: org, data: { budget_id: "bud_1" } });
        expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
        // A tampered body does not verify.
        expect(verify(hook.secret, r.headers["webhook-signature"] as string, r.body.replace("bud_1", "bud_2"))).toBe(false);
        expect(verify(second.secret, r.headers["webhook-signature"] as string, r.body.replace("bud_1", "bud_2"))).toBe(false);
      }
      const [log] = await deliveries(hook.id);
      expect(log).toMatchObject({ event_id: eventId, type: "budget.threshold_crossed", status: "delivered" });
      expect(log.attempts).toEqual([{ attempt: 1, started_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), error: null }]);
    } finally {
      await receiver.close();
      await other.close();
    }
  });

  it("retries a receiver that fails twice with exponential backoff, then delivers the same event", async () => {
    const receiver = await startReceiver([500, 503]);
    try {
      const hook = await register(receiver.url, ["anomaly.detected"]);
      const eventId = await emit("anomaly.detected", { anomaly_id: "ano_1" });
      await deliverUntil(async () => (await deliveries(hook.id))[0]?.status === "delivered");
      expect(receiver.received).toHaveLength(3);
      for (const r of receiver.received) {
        expect(JSON.parse(r.body).id).toBe(eventId);
        expect(verify(hook.secret, r.headers["webhook-signature"] as string, r.body)).toBe(true);
      }
      const [log] = await deliveries(hook.id);
      expect(log.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
        [1, 500, "receiver answered 500"],
        [2, 503, "receiver answered 503"],
        [3, 200, null],
      ]);
      // Waits of base and 2 x base, less the outbox's jitter of at most 20 %.
      const gaps = [receiver.received[1].at - receiver.received[0].at, receiver.received[2].at - receiver.received[1].at];
      expect(gaps[0]).toBeGreaterThanOrEqual(BASE_MS * 0.8 - 5);
      expect(gaps[1]).toBeGreaterThanOrEqual(2 * BASE_MS * 0.8 - 5);
    } finally {
      await receiver.close();
    }
  });

  it("does not follow redirects, and logs only their status: not the receiver's Location (issue 33 finding 10c)", async () => {
    // Always a redirect: a retry (due after BASE_MS) may reach it before this loop looks again.
    const receiver = await startReceiver(Array.from({ length: 20 }, () => 302));
    try {
      const hook = await register(receiver.url, ["import.completed"]);
      await emit("import.completed", { import_id: "imp_1" });
      await deliverUntil(() => receiver.received.length >= 1);
      const [log] = await deliveries(hook.id);
      expect(log.status).toBe("pending");
      // The Location is the receiver's own text: it stays out of the delivery log the organization reads.
      expect(log.attempts[0]).toMatchObject({ status_code: 302, error: "redirect (302) not followed" });
    } finally {
      await receiver.close();
      await ctx.prisma.webhookDelivery.updateMany({ where: { organizationId: org, status: "pending" }, data: { status: "failed" } });
    }
  });

  it("gives up once the retry window since the event has passed", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await register(receiver.url, ["import.completed"]);
      const eventId = await emit("import.completed", { import_id: "imp_2" });
      await ctx.prisma.webhookEvent.update({
        where: { organizationId_id: { organizationId: org, id: eventId } },
        data: { createdAt: new Date(Date.now() - ctx.config.webhooks.retryWindowMs - 1000) },
      });
      await ctx.outbox.drain();
      expect(receiver.received).toEqual([]);
      const [log] = await deliveries(hook.id);
      expect(log).toMatchObject({ event_id: eventId, status: "failed", attempts: [] });
    } finally {
      await receiver.close();
    }
  });

  it("sends a ping on POST .../test and logs it", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await register(receiver.url, ["import.completed"]);
      const res = await request(ctx.app)
        .post(hooks(`/${hook.id}/test`))
        .set(auth());
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ webhook_id: hook.id, type: "ping", status: "pending", attempts: [] });
      await deliverUntil(() => receiver.received.length === 1);
      const body = JSON.parse(receiver.received[0].body);
      expect(body).toMatchObject({ id: res.body.data.event_id, type: "ping", organization_id: org, data: { webhook_id: hook.id } });
      expect(verify(hook.secret, receiver.received[0].headers["webhook-signature"] as string, receiver.received[0].body)).toBe(true);
      expect((await request(ctx.app).post(hooks("/whk_unknown/test")).set(auth())).status).toBe(404);
      expect((await request(ctx.app).get(hooks("/whk_unknown/deliveries")).set(auth())).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});

describe("retry schedule", () => {
  it("doubles from the base up to the maximum", () => {
    const schedule = { backoffBaseMs: 30_000, backoffMaxMs: 3_600_000 };
    expect([1, 2, 3, 4, 7, 8, 9, 50].map((n) => retryDelayMs(n, schedule))).toEqual([
      30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });

  it("keeps retrying for at least 24 hours, and insecure targets are never the default", () => {
    const config = loadConfig({ NODE_ENV: "production", AUTH_JWKS_URL: "https://idp.example.com/jwks", AUTH_ISSUER: "i", AUTH_AUDIENCE: "a" });
    expect(config.webhooks.allowInsecure).toBe(false);
    expect(config.webhooks.retryWindowMs).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(() => loadConfig({ WEBHOOK_RETRY_HOURS: "23" })).toThrow(/WEBHOOK_RETRY_HOURS/);
    expect(loadConfig({}).webhooks.allowInsecure).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_INSECURE: "1" }).webhooks.allowInsecure).toBe(true);
  });
});
