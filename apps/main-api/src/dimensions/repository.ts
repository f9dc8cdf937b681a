import type { Prisma } from "../db";
import type { DimensionVersion, Prisma as Models } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

/** Serializes an organization's dimension changes: version numbers, the count and the cycle check see one another's. */
export async function lockDimensions(tx: Tx, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${0x64696d73}, hashtext($1))::text AS locked`, organizationId);
}

/** The newest version of each of the organization's dimensions, by key. */
export function findNewestVersions(db: Db, organizationId: string): Promise<DimensionVersion[]> {
  return db.dimensionVersion.findMany({
    where: { organizationId },
    distinct: ["key"],
    orderBy: [{ key: "asc" }, { version: "desc" }],
  });
}

/** Every version of every dimension of the organization (the references of older versions count too). */
export function findAllVersions(db: Db, organizationId: string): Promise<DimensionVersion[]> {
  return db.dimensionVersion.findMany({ where: { organizationId }, orderBy: [{ key: "asc" }, { version: "desc" }] });
}

/** A dimension's versions, newest first. */
export function findVersions(db: Db, organizationId: string, key: string): Promise<DimensionVersion[]> {
  return db.dimensionVersion.findMany({ where: { organizationId, key }, orderBy: { version: "desc" } });
}

/** One version, or the newest when `version` is undefined. */
export function findVersion(db: Db, organizationId: string, key: string, version: number | undefined): Promise<DimensionVersion | null> {
  return db.dimensionVersion.findFirst({ where: { organizationId, key, ...(version === undefined ? {} : { version }) }, orderBy: { version: "desc" } });
}

export function insertVersion(tx: Tx, data: Models.DimensionVersionUncheckedCreateInput): Promise<DimensionVersion> {
  return tx.dimensionVersion.create({ data });
}

/** Deletes every version of the dimension; answers how many went. */
export async function deleteDimensionRows(tx: Tx, organizationId: string, key: string): Promise<number> {
  const { count } = await tx.dimensionVersion.deleteMany({ where: { organizationId, key } });
  return count;
}

export const dimensionRepository = {
  lockDimensions,
  findNewestVersions,
  findAllVersions,
  findVersions,
  findVersion,
  insertVersion,
  deleteDimensionRows,
};
export type DimensionRepository = typeof dimensionRepository;
