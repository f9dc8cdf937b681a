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
