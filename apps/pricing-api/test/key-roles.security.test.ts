// A key carries its role (issue 22, finding 4; docs/api.md, Pricing API): viewer keys read and price usage,
// member keys also register prices, pins and reports, admin keys also delete. A suspended key (its
// creator deactivated in the main API) is refused at once, also when it was cached.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey, provisionKey, syncKey, type KeyRole } from "./helpers/keys";
import { databaseEntry, databaseLine, modelEntry } from "./helpers/pricing";

let ctx: TestContext;
let admin: string;
const keys = {} as Record<KeyRole, string>;
let modelId: string;
let databaseId: string;
let reportId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await provisionKey(ctx, "acct_roles", "admin");
  keys.admin = admin;
  keys.member = await provisionKey(ctx, "acct_roles", "member");
  keys.viewer = await provisionKey(ctx, "acct_roles", "viewer");
  modelId = (
    await request(ctx.app)
      .post("/marketplace/providers/models")
      .set("X-API-Key", admin)
      .send({ entries: [modelEntry()] })
      .expect(201)
  ).body.entries[0].id;
  databaseId = (
    await request(ctx.app)
      .post("/marketplace/providers/databases")
      .set("X-API-Key", admin)
      .send({ entries: [databaseEntry()] })
      .expect(201)
  ).body.entries[0].id;
  reportId = (
    await request(ctx.app)
      .post("/v1/pricing/reports")
      .set("X-API-Key", admin)
      .send({ name: "r", usage: [databaseLine(undefined, { hours: 1 })] })
      .expect(201)
  ).body.id;
});
afterAll(async () => {
  await ctx.close();
});

type Method = "get" | "post" | "put" | "delete";
const send = (key: string, method: Method, path: string, body?: object) => {
  const req = request(ctx.app)[method](path).set("X-API-Key", key);
  return body ? req.send(body) : req;
};

const computeQuery = { provider: "aws", region: "us-east-1", instance_type: "m5.large" };
const READS: Array<[Method, string, object?]> = [
  ["get", "/v1/pricing/account"],
  ["get", "/marketplace/providers/models"],
  ["get", "/marketplace/providers/databases"],
  ["get", "/marketplace/providers/commitment-rates"],
  ["get", "/v1/pricing/pins"],
  ["post", "/v1/pricing/usage", { usage: [databaseLine(undefined, { hours: 1 })] }],
  ["post", "/v1/pricing/compute", computeQuery],
  ["post", "/v1/pricing/compute/batch", { items: [computeQuery] }],
  ["get", "/v1/pricing/compute/instance-types?provider=aws&region=us-east-1"],
];
const REGISTERS: Array<[Method, string, object?]> = [
  ["post", "/marketplace/providers/models", { entries: [modelEntry({ model: "member-model" })] }],
  ["post", "/marketplace/providers/databases", { entries: [databaseEntry({ engine: "member-engine" })] }],
  [
    "post",
    "/marketplace/providers/commitment-rates",
    { entries: [{ provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront", discount_percent: 30 }] },
  ],
  ["post", "/v1/pricing/reports", { name: "by member", usage: [databaseLine(undefined, { hours: 1 })] }],
  [
    "put",
    "/v1/pricing/pins/database/member-db",
    {
      get pricing_id() {
        return databaseId;
      },
    },
  ],
  ["delete", "/v1/pricing/pins/database/member-db"],
];
const DELETES = (): Array<[Method, string]> => [
  ["delete", `/marketplace/providers/models?id=${modelId}`],
  ["delete", `/marketplace/providers/databases?id=${databaseId}`],
  ["delete", `/v1/pricing/reports/${reportId}`],
];

const expectForbidden = (res: request.Response, path: string) => {
  expect(res.status).toBe(403);
  if (path.startsWith("/v1/")) expect(res.body).toMatchObject({ status: 403, code: "forbidden" });
  else expect(res.body).toEqual({ error: expect.stringMatching(/role/) });
};

describe("roles on the pricing API", () => {
  it("viewer keys read and price usage but register, pin and delete nothing", async () => {
    // (Without a loaded compute catalog the compute routes answer 404/503: what matters is that the key passed.)
    const refused: string[] = [];
    for (const [method, path, body] of READS) {
      const res = await send(keys.viewer, method, path, body);
      if (res.status === 401 || res.status === 403) refused.push(`${method} ${path}: ${res.status}`);
    }
    expect(refused).toEqual([]);
    for (const [method, path, body] of [...REGISTERS, ...DELETES()]) expectForbidden(await send(keys.viewer, method, path, body), path);
  });

  it("member keys also register and pin, but delete no entries or reports", async () => {
    for (const [method, path, body] of REGISTERS) {
      const res = await send(keys.member, method, path, body);
      expect([path, res.status < 300]).toEqual([path, true]);
    }
    for (const [method, path] of DELETES()) expectForbidden(await send(keys.member, method, path), path);
  });

  it("admin keys also delete, and keys of the pricing-key command act as admin", async () => {
    const cliKey = await createApiKey(ctx, "acct_roles");
    const account = await send(cliKey, "get", "/v1/pricing/account").expect(200);
    expect(account.body).toMatchObject({ account_id: "acct_roles" });
    for (const [method, path] of DELETES()) expect((await send(admin, method, path)).status).toBeLessThan(300);
  });
});

describe("a key's state as the main API syncs it", () => {
  it("a suspended key is refused at once, also when cached, and works again when resumed", async () => {
    const key = await provisionKey(ctx, "acct_roles", "admin");
    await send(key, "get", "/v1/pricing/account").expect(200);
    await syncKey(ctx, "acct_roles", key, "admin", true);
    const refused = await send(key, "get", "/v1/pricing/account");
    expect([refused.status, refused.body.code]).toEqual([401, "unauthenticated"]);
    await syncKey(ctx, "acct_roles", key, "member");
    await send(key, "get", "/v1/pricing/account").expect(200);
  });

  it("a demotion takes effect at once, also when cached", async () => {
    const key = await provisionKey(ctx, "acct_roles", "admin");
    await send(key, "post", "/marketplace/providers/models", { entries: [modelEntry({ model: "to-demote" })] }).expect(201);
    await syncKey(ctx, "acct_roles", key, "viewer");
    expectForbidden(await send(key, "post", "/marketplace/providers/models", { entries: [modelEntry({ model: "after" })] }), "/marketplace");
  });
});
