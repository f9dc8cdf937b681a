import type { OrganizationContext } from "../context";
import type { PaginationQuery, UpdateUserRequest, User as UserBody } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden, notFound } from "@cloudcost/http";
import type { syncCreatorKeys } from "../api-keys/sync";
import { isManager } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { invitableBy } from "../invitations/inviter-rights";
import type { InvitationRepository } from "../invitations/repository";
import { toUser } from "../organizations/serialize";
import type { assertLiveTenants } from "../tenants/validate";
import type { UserRepository } from "./repository";

const userNotFound = (id: string) => notFound(`User ${id} is not in this organization.`);

export interface UserServiceDeps {
  /** Opens the transactions; every query goes through the repositories below. */
  prisma: Prisma;
  users: UserRepository;
  tenants: { assertLiveTenants: typeof assertLiveTenants };
  /** A change of role or active state re-syncs the user's keys and revokes the invitations it may no longer send. */
  keys: { syncCreatorKeys: typeof syncCreatorKeys };
  invitations: Pick<InvitationRepository, "revokeSentBeyond">;
}

export type UserService = ReturnType<typeof createUserService>;

/** The users of the organization named by `{org_id}` (authorize checked the organization; the service, what depends on data). */
export function createUserService({ prisma, users, tenants, keys, invitations }: UserServiceDeps) {
  async function getUser({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<UserBody> {
    const row = await users.findUserWithTenants(prisma, organizationId, id);
    if (!row) throw userNotFound(id);
    return toUser(row);
  }

  async function listUsers({ organization: { id: organizationId } }: OrganizationContext, query: PaginationQuery) {
    const after = decodeCursor(query.cursor);
    const rows = await users.findUsers(prisma, organizationId, after, query.limit + 1);
    return toPage(rows, query.limit, toUser);
  }

  /**
   * Changes role, tenants, active state, name or job title. Owners are changed only by owners, and
   * the last active owner can be neither demoted nor deactivated (the organization row is locked so
   * two concurrent demotions cannot both pass the check). An API key promotes no one to admin or
   * owner and changes no admin or owner (a key must not outgrow the people who manage it). A change
   * of role or active state re-syncs the user's keys to the pricing API, and revokes the pending
   * invitations the user may no longer send, in the same transaction: kick the outbox after this returns.
   */
  async function updateUser(
    { principal: caller, organization: { id: organizationId } }: OrganizationContext,
    id: string,
    body: UpdateUserRequest,
  ): Promise<UserBody> {
    // Everyone but viewers may edit their own name and job title; everything else is for managers.
    const ownProfileOnly = caller.userId === id && body.role === undefined && body.tenant_ids === undefined && body.active === undefined;
    if (!isManager(caller.role) && !(ownProfileOnly && caller.role !== "viewer")) {
      throw forbidden(`Only owners and admins can change users; the caller is ${caller.role}.`);
    }
    return prisma.$transaction(async (tx) => {
      await users.lockOrganization(tx, organizationId);
      const current = await users.findUser(tx, organizationId, id);
      if (!current) throw userNotFound(id);
      if (caller.kind === "api_key" && (isManager(current.role) || (body.role !== undefined && isManager(body.role)))) {
        throw forbidden("An API key cannot change admins or owners, nor make anyone an admin or owner: sign in as an owner or admin.");
      }
      if (caller.role !== "owner" && (current.role === "owner" || body.role === "owner")) {
        throw forbidden("Only owners can change owners or make someone an owner.");
      }
      const losesOwnership = current.role === "owner" && current.active && ((body.role && body.role !== "owner") || body.active === false);
      if (losesOwnership) {
        const activeOwners = await users.countActiveOwners(tx, organizationId);
        if (activeOwners <= 1) throw conflict("This is the last active owner: make another user owner first.");
      }
      if (body.tenant_ids) {
        const tenantIds = await tenants.assertLiveTenants(tx, organizationId, body.tenant_ids);
        await users.replaceUserTenants(tx, organizationId, id, tenantIds);
      }
      const row = await users.updateUserRow(tx, organizationId, id, {
        role: body.role,
        active: body.active,
        name: body.name,
        jobTitle: body.job_title === undefined ? undefined : body.job_title || null,
      });
      if (row.role !== current.role || row.active !== current.active) {
        await keys.syncCreatorKeys(tx, organizationId, id);
        await invitations.revokeSentBeyond(tx, organizationId, id, invitableBy(row.active ? row.role : null), new Date());
      }
      return toUser(row);
    }, TRANSACTION_OPTIONS);
  }

  return { getUser, listUsers, updateUser };
}
