// One cursor format and one validation for every list: the id lists and the compute list, whose
// keys are customers' resource ids (up to 256 characters, not service ids).
import request from "supertest";
import { vm } from "./helpers/compute-fleet";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let owner: SignedUp;
const LIST = "/api/v1/tenant/compute/recommendations";
const LONG_ID = `vm-${"x".repeat(200)}`;

const cursorOf = (after: unknown) => Buffer.from(JSON.stringify({ after }), "utf8").toString("base64url");
const get = (path: string) => {
  return request(ctx.app).get(path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
};

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Cursor Org" });
  await request(ctx.app)
    .put("/api/v1/tenant/compute/resources")
    .set("Authorization", `Bearer ${owner.token}`)
    .set("X-Service-Tenant-ID", owner.tenant.id)
    .send({ resources: [vm("vm-a", "m5.large"), vm(LONG_ID, "m5.large"), vm("vm-z", "m5.large")] })
    .expect(200);
});
afterAll(async () => {
  await ctx?.close();
});

it("pages the compute list past a 203-character resource id", async () => {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: request.Response = await get(`${LIST}?limit=1${cursor ? `&cursor=${cursor}` : ""}`).expect(200);
    seen.push(...res.body.data.items.map((item: { resource_id: string }) => item.resource_id));
    cursor = res.body.data.next_cursor;
  } while (cursor);
  expect(seen).toEqual(["vm-a", LONG_ID, "vm-z"]);
});

it("keeps the format of existing cursors", async () => {
  const res = await get(`${LIST}?limit=1&cursor=${cursorOf("vm-a")}`).expect(200);
  expect(res.body.data.items.map((item: { resource_id: string }) => item.resource_id)).toEqual([LONG_ID]);
  const users = await get(`/api/v1/organizations/${owner.organization.id}/users?limit=1&cursor=${cursorOf("usr_0")}`).expect(200);
  expect(users.body.data.items.map((item: { id: string }) => item.id)).toEqual([owner.owner.id]);
});

it("answers 400 for a cursor no page could have produced, on every list", async () => {
  const lists = [
    LIST,
    `/api/v1/organizations/${owner.organization.id}/users`,
    `/api/v1/organizations/${owner.organization.id}/tenants`,
    "/api/v1/settings/api-keys",
  ];
  const bad = ["not-a-cursor", cursorOf(""), cursorOf(5), cursorOf(null), Buffer.from("[]").toString("base64url"), cursorOf("x".repeat(257))];
  for (const list of lists) {
    for (const cursor of bad) expectError(await get(`${list}?cursor=${cursor}`), 400, /Invalid cursor/);
  }
  // Service-id lists take service ids only.
  expectError(await get(`/api/v1/organizations/${owner.organization.id}/users?cursor=${cursorOf("usr 1")}`), 400, /Invalid cursor/);
});
