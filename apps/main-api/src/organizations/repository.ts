import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { Organization } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

export function findOrganization(db: Db, organizationId: string): Promise<Organization | null> {
  return db.organization.findUnique({ where: { id: organizationId } });
}

/** Throws Prisma's not-found error when missing (a caller's own organization always exists). */
export function findOrganizationOrThrow(db: Db, organizationId: string): Promise<Organization> {
  return db.organization.findUniqueOrThrow({ where: { id: organizationId } });
}

/** Throws the unique violation of a taken slug. */
export function updateOrganizationRow(db: Db, organizationId: string, data: { name?: string; slug?: string }): Promise<Organization> {
  return db.organization.update({ where: { id: organizationId }, data });
}

/** Inserts a new organization with ON CONFLICT DO NOTHING: undefined when the slug is taken (the transaction goes on). */
export async function insertOrganizationUnlessSlugTaken(tx: Tx, name: string, slug: string): Promise<Organization | undefined> {
  const [row] = await tx.organization.createManyAndReturn({ data: [{ id: newId("org"), name, slug }], skipDuplicates: true });
  return row;
}

/** What the organization service reads and writes; each function takes the client or the transaction it runs in. */
export const organizationRepository = { findOrganization, findOrganizationOrThrow, updateOrganizationRow, insertOrganizationUnlessSlugTaken };
export type OrganizationRepository = typeof organizationRepository;
