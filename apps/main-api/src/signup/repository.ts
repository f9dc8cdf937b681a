import { insertOrganizationUnlessSlugTaken } from "../organizations/repository";
import { insertOrganizationSettings } from "../settings/repository";
import { insertTenant } from "../tenants/repository";
import { deleteIdentity, findIdentityLink, findUserWithTenantsOrThrow, insertIdentity, insertUser } from "../users/repository";

/**
 * What sign-up reads and writes, from the repositories of the tables it touches (organizations,
 * their settings, tenants, users and identity links); each function takes the transaction it runs in.
 */
export const signupRepository = {
  findIdentityLink,
  deleteIdentity,
  insertOrganizationUnlessSlugTaken,
  insertOrganizationSettings,
  insertTenant,
  insertUser,
  insertIdentity,
  findUserWithTenantsOrThrow,
};
export type SignupRepository = typeof signupRepository;
