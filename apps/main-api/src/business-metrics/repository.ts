import type { MetricValuesMode } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { BusinessMetric } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

const METRIC_LOCK = 0x626d6574;

/** Serializes an organization's metric creations, so that the count limit sees every other one. */
export async function lockMetrics(tx: Pick<Tx, "$queryRawUnsafe">, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${METRIC_LOCK}, hashtext($1))::text AS locked`, organizationId);
}

/** The organization's metrics, by name (byte order). */
export function findMetrics(db: Db, organizationId: string): Promise<BusinessMetric[]> {
  return db.businessMetric.findMany({ where: { organizationId }, orderBy: { name: "asc" } });
}

export function findMetric(db: Db, organizationId: string, name: string): Promise<BusinessMetric | null> {
  return db.businessMetric.findUnique({ where: { organizationId_name: { organizationId, name } } });
}

export function countMetrics(db: Db, organizationId: string): Promise<number> {
  return db.businessMetric.count({ where: { organizationId } });
}

/** Creates the metric or changes its unit, description and labelling dimension. */
export function upsertMetric(
  tx: Tx,
  organizationId: string,
  name: string,
  fields: { unit: string; description: string | null; dimensionKey: string | null },
  now: Date,
): Promise<BusinessMetric> {
  return tx.businessMetric.upsert({
    where: { organizationId_name: { organizationId, name } },
    create: { organizationId, name, ...fields, createdAt: now, updatedAt: now },
    update: { ...fields, updatedAt: now },
  });
}

/** Deletes the metric (its values go with it: the foreign key cascades); answers how many went. */
export async function deleteMetric(tx: Tx, organizationId: string, name: string): Promise<number> {
  const { count } = await tx.businessMetric.deleteMany({ where: { organizationId, name } });
  return count;
}

const HOLD_METRIC_SQL = `SELECT name FROM business_metrics WHERE organization_id = $1 AND name = $2 FOR KEY SHARE`;

/** Whether the metric exists, holding it (a concurrent delete waits for the transaction). */
export async function holdMetric(tx: Pick<Tx, "$queryRawUnsafe">, organizationId: string, name: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<{ name: string }[]>(HOLD_METRIC_SQL, organizationId, name);
  return rows.length > 0;
}

/**
 * Writes one amount per (day, label) ('' no label): `sum` adds each to the stored one, `replace`
 * puts it in its place. One statement, the rows in (day, label) order, so that concurrent writers
 * of the same pairs lock them in the same order; a writer waits for another's row and then adds to
 * what it committed, so no addition is lost.
 */
const WRITE_VALUES_SQL = `
  INSERT INTO business_metric_values AS v (organization_id, metric_name, day, label, amount)
  SELECT $1, $2, u.day::date, u.label, u.amount::numeric
    FROM unnest($3::text[], $4::text[], $5::text[]) AS u(day, label, amount)
   ORDER BY u.day, u.label COLLATE "C"
  ON CONFLICT (organization_id, metric_name, day, label)
  DO UPDATE SET amount = CASE WHEN $6::text = 'sum' THEN v.amount + EXCLUDED.amount ELSE EXCLUDED.amount END`;

export function writeValues(
  tx: Pick<Tx, "$executeRawUnsafe">,
  organizationId: string,
  name: string,
  mode: MetricValuesMode,
  rows: { day: string; label: string; amount: string }[],
): Promise<number> {
  return tx.$executeRawUnsafe(
    WRITE_VALUES_SQL,
    organizationId,
    name,
    rows.map((row) => row.day),
    rows.map((row) => row.label),
    rows.map((row) => row.amount),
    mode,
  );
}

const VALUE_COLUMNS = { date: "text", label: "text", amount: "text" } as const;
export type ValueRow = RowOf<typeof VALUE_COLUMNS>;
const FIND_VALUES_SQL = `
  SELECT day::text AS date, label, trim_scale(amount)::text AS amount
    FROM business_metric_values
   WHERE organization_id = $1 AND metric_name = $2 AND day >= $3::date AND day < $4::date
   ORDER BY day, label COLLATE "C"
   LIMIT $5`;

/** The metric's amounts of days [start, end), by day then label ('' first); at most `limit` rows. */
export function findValues(
  db: Pick<Db, "$queryRawUnsafe">,
  organizationId: string,
  name: string,
  start: string,
  end: string,
  limit: number,
): Promise<ValueRow[]> {
  return db.$queryRawUnsafe<ValueRow[]>(FIND_VALUES_SQL, organizationId, name, start, end, limit);
}

export const businessMetricRepository = {
  lockMetrics,
  findMetrics,
  findMetric,
  countMetrics,
  upsertMetric,
  deleteMetric,
  holdMetric,
  writeValues,
  findValues,
};
export type BusinessMetricRepository = typeof businessMetricRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "business metric hold", sql: HOLD_METRIC_SQL, columns: { name: "text" } },
    { name: "business metric values write", sql: WRITE_VALUES_SQL, columns: null },
    { name: "business metric values", sql: FIND_VALUES_SQL, columns: VALUE_COLUMNS },
  ];
}
