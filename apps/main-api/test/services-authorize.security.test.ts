// Called directly, without any route or middleware: the one authorize refuses a caller of another
// organization for every organization-scoped operation of the table (services act in the
// organization it verified, taken from the context), the roles and caller kinds the table declares;
// the services refuse what depends on data (whose profile, which role is given).
import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import { authorize } from "../src/auth/authorize";
import type { Principal } from "../src/auth/principal";
import type { OrganizationContext } from "../src/context";
import { createMeService } from "../src/me/service";
import { organizationRepository } from "../src/organizations/repository";
import { createOrganizationService } from "../src/organizations/service";
import { syncCreatorKeys } from "../src/api-keys/sync";
import { invitationRepository } from "../src/invitations/repository";
import { assertLiveTenants } from "../src/tenants/validate";
import { findUserWithTenantsOrThrow, userRepository } from "../src/users/repository";
import { createUserService } from "../src/users/service";
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

/** The binder's authorization of `operation` for `caller` (as a promise, to be `refused` or not), in the caller's organization unless `orgId`. */
const authorizing = async (operation: keyof typeof mainApiRoutes, caller: Principal, orgId = caller.organizationId) =>
  authorize(mainApiRoutes[operation], { principal: caller, identity: null }, "", { org_id: orgId });

/** What authorize hands the services of an organization-scoped operation of the caller's organization. */
const inOwn = (caller: Principal): OrganizationContext => ({ principal: caller, organization: { id: caller.organizationId } });

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

it("refuses a caller of another organization, or of an unknown one, in every organization-scoped operation", async () => {
  const scoped = Object.values(mainApiRoutes as Record<string, RouteDefinition>).filter((route) => route.scope === "organization");
  expect(scoped.length).toBeGreaterThanOrEqual(31);
  for (const route of scoped) {
    const operation = route.operationId as keyof typeof mainApiRoutes;
    await refused(authorizing(operation, ownerA, b.organization.id));
    await refused(authorizing(operation, ownerA, "org_DOESNOTEXIST"));
    expect(await authorizing(operation, ownerA)).toEqual({ principal: ownerA, organization: { id: a.organization.id } });
  }
  const organizations = createOrganizationService({ db: ctx.prisma, organizations: organizationRepository });
  expect(await organizations.getOrganization(await (authorizing("getOrganization", ownerA) as Promise<OrganizationContext>))).toEqual(a.organization);
});

it("lets members edit only their own profile, viewers nothing, managers everyone", async () => {
  const { updateUser } = createUserService({
    prisma: ctx.prisma,
    users: userRepository,
    tenants: { assertLiveTenants },
    keys: { syncCreatorKeys },
    invitations: invitationRepository,
  });
  await refused(updateUser(inOwn(member), a.owner.id, { name: "x" }));
  await refused(updateUser(inOwn(member), member.userId!, { role: "admin" }));
  await refused(updateUser(inOwn(viewer), viewer.userId!, { name: "x" }));
  expect(await updateUser(inOwn(member), member.userId!, { name: "Own Name" })).toMatchObject({ name: "Own Name" });
  expect(await updateUser(inOwn(ownerA), viewer.userId!, { job_title: "Auditor" })).toMatchObject({ job_title: "Auditor" });
});

it("keeps management to owners and admins signed in as users", async () => {
  const org = a.organization.id;
  const managed = ["updateOrganization", "createTenant", "inviteUser", "createInvitation", "listInvitations", "listApiKeys"] as const;
  for (const operation of managed) {
    await refused(authorizing(operation, member));
    await refused(authorizing(operation, viewer));
    await authorizing(operation, ownerA);
  }
  // API keys are refused by the table's `keys: false`, whatever their role.
  for (const operation of ["listApiKeys", "createApiKey", "revokeApiKey", "leaveOrganization"] as const) {
    await refused(authorizing(operation, principal(org, "", "admin", "api_key")));
  }
  const me = createMeService({ db: ctx.prisma, organizations: organizationRepository, users: { findUserWithTenantsOrThrow } });
  expect((await me.describeCaller(member)).user?.id).toBe(member.userId);
});
