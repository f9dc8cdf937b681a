import type { DimensionLineField, SpendMetric } from "@cloudcost/contracts";
import type { CheckedStatement, SqlClient } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { DimensionVersion, Prisma as Models } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

const DIMENSION_LOCK = 0x64696d73;

/**
 * Serializes an organization's dimension changes and rebuilds: version numbers, the count and the
 * cycle check see one another's, and a rebuild sees every line writer's lines or none.
 */
export async function lockDimensions(tx: Pick<Tx, "$queryRawUnsafe">, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${DIMENSION_LOCK}, hashtext($1))::text AS locked`, organizationId);
}

/** Line writers of an organization share the lock lockDimensions takes alone. */
export async function lockDimensionsShared(tx: Pick<Tx, "$queryRawUnsafe">, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock_shared(${DIMENSION_LOCK}, hashtext($1))::text AS locked`, organizationId);
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
  findLineGroups,
};
export type DimensionRepository = typeof dimensionRepository;

/** The SQL of each line field a condition reads (`tenant` is the line's tenant id). */
export const LINE_FIELD_SQL: Record<DimensionLineField, string> = {
  provider: "l.provider",
  service_name: "l.service_name",
  service_category: "l.service_category",
  region: "l.region",
  resource_id: "l.resource_id",
  resource_name: "l.resource_name",
  sub_account_id: "l.sub_account_id",
  sub_account_name: "l.sub_account_name",
  billing_account_id: "l.billing_account_id",
  charge_category: "l.charge_category",
  charge_frequency: "l.charge_frequency",
  pricing_category: "l.pricing_category",
  sku_id: "l.sku_id",
  tenant: "l.tenant_id",
  model: "l.model",
};

/** One group of a range's lines: their UTC day, their values of the fields asked for (in order), their count and cost. */
export interface LineGroup {
  day: string;
  fields: (string | null)[];
  lines: number;
  cost: string;
}

const SPEND_METRICS: Record<SpendMetric, string> = {
  billed_cost: "l.billed_cost",
  effective_cost: "l.effective_cost",
  list_cost: "l.list_cost",
  contracted_cost: "l.contracted_cost",
};

/** The columns as one JSON array: jsonb_build_array takes at most 100 arguments, so pieces of 50 joined by `||`. */
export function fieldArray(columns: string[]): string {
  const pieces: string[] = [];
  for (let i = 0; i < columns.length; i += 50) pieces.push(`jsonb_build_array(${columns.slice(i, i + 50).join(", ")})`);
  return pieces.length ? pieces.join(" || ") : "jsonb_build_array()";
}

/** The statement grouping the lines by day and `fields` (line fields or `tag:<key>`; tag keys are parameters from $6 on). */
export function lineGroupsSql(fields: string[], metric: SpendMetric): string {
  let tagParam = 6;
  const columns = fields.map((field) => (field.startsWith("tag:") ? `l.tags ->> $${tagParam++}::text` : LINE_FIELD_SQL[field as DimensionLineField]));
  return `
    SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date::text AS day, ${fieldArray(columns)} AS fields,
      count(*)::int AS lines, trim_scale(coalesce(sum(${SPEND_METRICS[metric]}), 0))::text AS cost
    FROM spend_lines l
    WHERE l.organization_id = $1 AND l.charge_period_start >= $2::timestamptz AND l.charge_period_start < $3::timestamptz AND l.currency = $4
    GROUP BY 1, ${columns.join(", ")}
    ORDER BY 1
    LIMIT $5`;
}

/** The range's lines of one currency grouped by UTC day and the fields the rules read; at most `limit` groups. */
export async function findLineGroups(
  sql: SqlClient,
  organizationId: string,
  range: { start: string; end: string; currency: string; metric: SpendMetric },
  fields: string[],
  limit: number,
): Promise<LineGroup[]> {
  const tags = fields.filter((field) => field.startsWith("tag:")).map((field) => field.slice("tag:".length));
  const rows = await sql.query<{ day: string; fields: (string | null)[]; lines: number; cost: string }>(lineGroupsSql(fields, range.metric), [
    organizationId,
    range.start,
    range.end,
    range.currency,
    limit,
    ...tags,
  ]);
  return rows;
}

export function checkedStatements(): CheckedStatement[] {
  return [
    {
      name: "dimension line groups",
      sql: lineGroupsSql(["service_name", "tag:team", "tenant"], "billed_cost"),
      columns: { day: "text", fields: "jsonb", lines: "int4", cost: "text" },
    },
  ];
}
