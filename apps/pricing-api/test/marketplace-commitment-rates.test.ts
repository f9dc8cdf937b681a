// POST/GET/DELETE /marketplace/providers/commitment-rates: an account's commitment rates, versioned
// like negotiated compute prices (docs/api.md, "Commitment rates").
import request from "supertest";
import { CommitmentRate } from "@cloudcost/contracts";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey, provisionKey } from "./helpers/keys";

let ctx: TestContext;
let key: string;
let otherKey: string;
beforeAll(async () => {
  ctx = await createTestContext();
  key = await createApiKey(ctx, "acct_rates_a");
  otherKey = await createApiKey(ctx, "acct_rates_b");
});
afterAll(async () => {
  await ctx.close();
});

const PATH = "/marketplace/providers/commitment-rates";
const register = (entries: unknown[], k = key) => request(ctx.app).post(PATH).set("X-API-Key", k).send({ entries });
const list = (query: Record<string, string> = {}, k = key) => request(ctx.app).get(PATH).query(query).set("X-API-Key", k);
const close = (id: string, k = key) => request(ctx.app).delete(PATH).query({ id }).set("X-API-Key", k);
const plan = { provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront" };

describe("POST /marketplace/providers/commitment-rates", () => {
  it("stores a rate with every field, absent scope fields as null, the discount exactly", async () => {
    const res = await register([{ ...plan, service_category: "Compute", discount_percent: 27.123456789012 }]).expect(201);
    expect(res.body.status).toBe("Registered");
    expect(CommitmentRate.parse(res.body.entries[0])).toEqual({
      id: expect.stringMatching(/^cmr_/),
      ...plan,
      service_category: "Compute",
      region: null,
      family: null,
      discount_percent: 27.123456789012,
      effective_from: expect.any(String),
      effective_to: null,
    });
  });

  it("versions rates: the same discount keeps the row, another closes it and opens a new id", async () => {
    const entry = { ...plan, region: "eu-west-1", discount_percent: 30 };
    const first = (await register([entry]).expect(201)).body.entries[0];
    const same = (await register([entry]).expect(201)).body.entries[0];
    expect(same.id).toBe(first.id);
    const changed = (await register([{ ...entry, discount_percent: 32 }]).expect(201)).body.entries[0];
    expect(changed.id).not.toBe(first.id);
    const open = (await list({ provider: "aws" }).expect(200)).body.entries.filter((e: { region: string | null }) => e.region === "eu-west-1");
    expect(open.map((e: { id: string }) => e.id)).toEqual([changed.id]);
    const history = (await list({ include_closed: "true" }).expect(200)).body.entries.filter((e: { region: string | null }) => e.region === "eu-west-1");
    expect(history.map((e: { id: string; effective_to: string | null }) => [e.id, e.effective_to === null])).toEqual([
      [changed.id, true],
      [first.id, false],
    ]);
  });

  it("refuses bad bodies with a 400 naming the field, storing nothing", async () => {
    const before = (await list({ include_closed: "true" })).body.entries.length;
    for (const bad of [
      { ...plan, discount_percent: 101 },
      { ...plan, discount_percent: -1 },
      { ...plan, term_months: 24, discount_percent: 10 },
      { ...plan, payment_option: "monthly", discount_percent: 10 },
      { ...plan, commitment_type: "spot", discount_percent: 10 },
      { ...plan, discount_percent: 1e300 },
    ]) {
      const res = await register([{ ...plan, region: "ap-south-1", discount_percent: 10 }, bad]);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/entries\.1\./);
    }
    expect((await register([])).status).toBe(400);
    expect((await register(Array.from({ length: 101 }, (_, i) => ({ ...plan, region: `r-${i}`, discount_percent: 10 })))).status).toBe(400);
    expect((await list({ include_closed: "true" })).body.entries.length).toBe(before);
  });
});

describe("GET and DELETE /marketplace/providers/commitment-rates", () => {
  it("another account sees none of the rates and cannot close them", async () => {
    const mine = (await register([{ ...plan, family: "isolated", discount_percent: 20 }]).expect(201)).body.entries[0];
    expect((await list({}, otherKey).expect(200)).body.entries).toEqual([]);
    expect((await close(mine.id, otherKey)).status).toBe(404);
    const closed = (await close(mine.id).expect(200)).body;
    expect(closed).toMatchObject({ status: "Deleted", entries: [{ id: mine.id, effective_to: expect.any(String) }] });
    expect((await close(mine.id)).status).toBe(404);
  });

  it("viewer keys list rates but cannot register them; member keys register but cannot delete", async () => {
    const viewer = await provisionKey(ctx, "acct_rates_a", "viewer");
    const member = await provisionKey(ctx, "acct_rates_a", "member");
    await list({}, viewer).expect(200);
    const refused = await register([{ ...plan, family: "by-viewer", discount_percent: 10 }], viewer);
    expect(refused.status).toBe(403);
    const stored = (await register([{ ...plan, family: "by-member", discount_percent: 10 }], member).expect(201)).body.entries[0];
    expect((await close(stored.id, member)).status).toBe(403);
    expect((await list({}, viewer)).body.entries.map((e: { family: string | null }) => e.family)).not.toContain("by-viewer");
  });
});

describe("at most 100 active commitment rates per account", () => {
  const entry = (region: string, discount = 10) => ({ ...plan, region, discount_percent: discount });
  const range = (from: number, to: number, prefix: string) => Array.from({ length: to - from }, (_, i) => entry(`${prefix}-${from + i}`));
  const liveCount = async (k: string) => (await list({}, k).expect(200)).body.entries.length;
  const expectLimit = (res: request.Response) => {
    expect({ status: res.status, code: res.headers["x-error-code"] }).toEqual({ status: 409, code: "limit_reached" });
    expect(res.body.error).toMatch(/100 active commitment rates/);
  };

  it("refuses the 101st with 409 limit_reached, all or nothing; re-registering, repricing and closing keep within it", async () => {
    const k = await createApiKey(ctx, "acct_rates_limit");
    const stored = (await register(range(0, 100, "full"), k).expect(201)).body.entries as { id: string }[];
    expect(await liveCount(k)).toBe(100);

    expectLimit(await register([entry("one-more")], k));
    // A batch that fits only in part stores none of it, even the entries that only repeat a stored rate.
    expectLimit(await register([entry("full-0"), entry("one-more")], k));
    expect(await liveCount(k)).toBe(100);

    // The same rate again keeps its row; another discount replaces the open row (still one live row).
    await register([entry("full-1")], k).expect(201);
    await register([entry("full-2", 25)], k).expect(201);
    expect(await liveCount(k)).toBe(100);

    // Closing a rate frees its slot.
    await close(stored[0]?.id as string, k).expect(200);
    await register([entry("one-more")], k).expect(201);
    expect(await liveCount(k)).toBe(100);
    expectLimit(await register([entry("yet-another")], k));
  });

  it("a rate closed before it took effect is neither listed nor counted; a scheduled change counts the outgoing rate until then", async () => {
    const k = await createApiKey(ctx, "acct_rates_scheduled");
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await register(range(0, 99, "now"), k).expect(201);
    const scheduled = (await register([{ ...entry("later"), effective_from: later }], k).expect(201)).body.entries[0];
    expect(await liveCount(k)).toBe(100);
    expectLimit(await register([entry("extra")], k));
    // Closed before its start: it never takes effect, so it is history, not a live rate.
    await close(scheduled.id, k).expect(200);
    expect((await list({}, k)).body.entries.map((e: { id: string }) => e.id)).not.toContain(scheduled.id);
    expect(await liveCount(k)).toBe(99);
    await register([entry("extra")], k).expect(201);
    // A change scheduled for later keeps the current row live until then (two live rows for one
    // rate), which this account has no room for; a change taking effect now replaces the row.
    expectLimit(await register([{ ...entry("now-0", 40), effective_from: later }], k));
    await register([entry("now-0", 40)], k).expect(201);
    expect(await liveCount(k)).toBe(100);
  });

  it("does not overshoot when registrations arrive at once", async () => {
    const k = await createApiKey(ctx, "acct_rates_race");
    await register(range(0, 95, "base"), k).expect(201);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => register([entry(`race-${i}`)], k)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(409)]);
    for (const refused of results.filter((r) => r.status === 409)) expectLimit(refused);
    expect(await liveCount(k)).toBe(100);
  });
});
