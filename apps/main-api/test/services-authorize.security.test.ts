// Called directly, without any route or middleware, each service refuses a caller of another
// organization and what depends on data (whose profile, which role is given); the role an operation
// needs is the route table's, which the one authorize checks before any handler: checked here too.
import { mainApiRoutes } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import { listApiKeys } from "../src/api-keys/service";
import { authorize } from "../src/auth/authorize";
import type { Principal } from "../src/auth/principal";
import { describeCaller, getOrganization, updateOrganization, updateSettings } from "../src/organizations/service";
import { createTenant, getTenant, listTenants, updateTenant } from "../src/tenants/service";
import { createInvitation, listInvitations, revokeInvitation } from "../src/invitations/service";
import { getUser, listUsers, updateUser } from "../src/users/service";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
let member: Principal;
let viewer: Principal;
let ownerA: Principal;

const principal = (organizationId: string, userId: string, role: Principal["role"], kind: Principal["kind"] = "user"): Principal => ({
  kind,
  organizationId,
  userId: kind === "user" ? userId : null,
  role,
  tenantIds: [],
  apiKeyId: kind === "api_key" ? "key_test" : null,
});

/** The binder's authorization of `operation` for `caller` (as a promise, to be `refused` or not). */
const authorizing = async (operation: keyof typeof mainApiRoutes, caller: Principal) =>
  authorize(mainApiRoutes[operation], { principal: caller, identity: null }, "");

const refused = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  expect((err as HttpError).status).toBe(403);
};

beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Service Org A" });
  b = await signUp(ctx, { company: "Service Org B" });
  const m = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
  const v = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer" });
  ownerA = principal(a.organization.id, a.owner.id, "owner");
  member = principal(a.organization.id, m.user.id, "member");
  viewer = principal(a.organization.id, v.user.id, "viewer");
});
afterAll(async () => {
  await ctx?.close();
});

it("refuses a caller of another organization in every organization service", async () => {
  const org = b.organization.id;
  await refused(getOrganization(ctx.prisma, ownerA, org));
  await refused(updateOrganization(ctx.prisma, ownerA, org, { name: "taken" }));
  await refused(updateSettings(ctx.prisma, ownerA, org, { default_currency: "EUR" }));
  await refused(listTenants(ctx.prisma, ownerA, org, { limit: 10 }));
  await refused(getTenant(ctx.prisma, ownerA, org, b.tenant.id));
  await refused(createTenant(ctx.prisma, ownerA, org, { name: "x" }));
  await refused(updateTenant(ctx.prisma, ownerA, org, b.tenant.id, { name: "x" }));
  await refused(listUsers(ctx.prisma, ownerA, org, { limit: 10 }));
  await refused(getUser(ctx.prisma, ownerA, org, b.owner.id));
  await refused(createInvitation(ctx.prisma, ownerA, org, { email: "x@example.com", role: "member" }));
  await refused(listInvitations(ctx.prisma, ownerA, org, { limit: 10 }));
  await refused(revokeInvitation(ctx.prisma, ownerA, org, "inv_0"));
  await refused(updateUser(ctx.prisma, ownerA, org, b.owner.id, { name: "x" }));
  expect(await getOrganization(ctx.prisma, ownerA, a.organization.id)).toEqual(a.organization);
});

it("lets members edit only their own profile, viewers nothing, managers everyone", async () => {
  const org = a.organization.id;
  await refused(updateUser(ctx.prisma, member, org, a.owner.id, { name: "x" }));
  await refused(updateUser(ctx.prisma, member, org, member.userId!, { role: "admin" }));
  await refused(updateUser(ctx.prisma, viewer, org, viewer.userId!, { name: "x" }));
  expect(await updateUser(ctx.prisma, member, org, member.userId!, { name: "Own Name" })).toMatchObject({ name: "Own Name" });
  expect(await updateUser(ctx.prisma, ownerA, org, viewer.userId!, { job_title: "Auditor" })).toMatchObject({ job_title: "Auditor" });
});

it("keeps management to owners and admins signed in as users", async () => {
  const org = a.organization.id;
  const managed = ["updateOrganization", "createTenant", "inviteUser", "createInvitation", "listInvitations", "listApiKeys"] as const;
  for (const operation of managed) {
    await refused(authorizing(operation, member));
    await refused(authorizing(operation, viewer));
    await authorizing(operation, ownerA);
  }
  await refused(listApiKeys(ctx.prisma, principal(org, "", "admin", "api_key"), { limit: 10 }));
  expect((await describeCaller(ctx.prisma, member)).user?.id).toBe(member.userId);
});
