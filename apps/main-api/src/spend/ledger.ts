import { newId } from "@cloudcost/db";
import type { Tx } from "../transactions";

/** What the ledger functions need of a transaction (an interactive Prisma transaction's client). */
export type LedgerTx = Pick<Tx, "$queryRawUnsafe" | "$executeRawUnsafe">;

export type SpendSource = "usage" | "focus_import";

/**
 * One line to store (decisions.md section 6). Amounts and quantities are decimal strings (stored
 * exactly, rounded half away from zero to 10 places by PostgreSQL numeric(38,10)); timestamps
 * RFC 3339. `tenantId` null: an unallocated import line.
 */
export interface LedgerLineInput {
  tenantId: string | null;
  source: SpendSource;
  chargePeriodStart: string;
  chargePeriodEnd: string;
  chargeCategory: string;
  chargeClass?: string | null;
  provider?: string | null;
  serviceName?: string | null;
  serviceCategory?: string | null;
  region?: string | null;
  resourceId?: string | null;
  resourceName?: string | null;
  skuId?: string | null;
  skuPriceId?: string | null;
  pricingId?: string | null;
  unitPrices?: Record<string, string | number> | null;
  consumedQuantity?: string | null;
  consumedUnit?: string | null;
  billedCost: string | null;
  effectiveCost: string | null;
  listCost: string | null;
  currency: string | null;
  tags?: Record<string, string>;
  subAccountId?: string | null;
  billingAccountId?: string | null;
  billingPeriodStart?: string | null;
  billingPeriodEnd?: string | null;
  importId?: string | null;
  priced: boolean;
  unpricedReason?: string | null;
  model?: string | null;
  /** Usage lines: the customer's event id; a tenant's event is stored once (the others are skipped). */
  eventId?: string | null;
  /** Usage lines: the usage line as sent, priced again by reprice. */
  usage?: unknown;
}

export interface InsertResult {
  /** Lines stored (lines whose event_id the tenant already sent are not). */
  inserted: number;
  priced: number;
  unpriced: number;
  /** Sums of the stored priced lines per currency, as decimal strings (numeric text). */
  totals: { currency: string; billed_cost: string; effective_cost: string }[];
}

/** The columns written from the input, in order: (name, SQL type of jsonb_to_recordset). */
const LINE_COLUMNS: [string, string][] = [
  ["organization_id", "text"],
  ["id", "text"],
  ["tenant_id", "text"],
  ["source", "text"],
  ["charge_period_start", "timestamptz"],
  ["charge_period_end", "timestamptz"],
  ["charge_category", "text"],
  ["charge_class", "text"],
  ["provider", "text"],
  ["service_name", "text"],
  ["service_category", "text"],
  ["region", "text"],
  ["resource_id", "text"],
  ["resource_name", "text"],
  ["sku_id", "text"],
  ["sku_price_id", "text"],
  ["pricing_id", "text"],
  ["unit_prices", "jsonb"],
  ["consumed_quantity", "numeric"],
  ["consumed_unit", "text"],
  ["billed_cost", "numeric"],
  ["effective_cost", "numeric"],
  ["list_cost", "numeric"],
  ["currency", "text"],
  ["tags", "jsonb"],
  ["sub_account_id", "text"],
  ["billing_account_id", "text"],
  ["billing_period_start", "timestamptz"],
  ["billing_period_end", "timestamptz"],
  ["import_id", "text"],
  ["priced", "boolean"],
  ["unpriced_reason", "text"],
  ["model", "text"],
  ["event_id", "text"],
  ["usage", "jsonb"],
];
const COLUMN_LIST = LINE_COLUMNS.map(([name]) => name).join(", ");
const RECORD_TYPE = LINE_COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ");

/** The roll-up's dimensions as read from a spend_lines row `l` ('' for null). */
const ROLLUP_DIMENSIONS = [
  "currency",
  "source",
  "charge_category",
  "provider",
  "service_name",
  "service_category",
  "region",
  "sub_account_id",
  "model",
  "unpriced_reason",
] as const;
const DIMENSION_LIST = ROLLUP_DIMENSIONS.join(", ");
const DIMENSION_VALUES = ROLLUP_DIMENSIONS.map((name) => `coalesce(l.${name}, '') AS ${name}`).join(", ");
/** Unambiguous whatever the strings hold: a JSON array of the dimensions, hashed. */
const DIMS_KEY = `md5(jsonb_build_array(${ROLLUP_DIMENSIONS.join(", ")})::text)`;

/**
 * Adds `sign` times the lines of `source` (a relation with spend_lines' columns, e.g. a CTE) to
 * spend_daily, grouped by organization, tenant, UTC day and dimensions; upserted in key order so
 * concurrent writers lock roll-up rows in the same order.
 */
function rollupUpsert(source: string, sign: 1 | -1): string {
  return `INSERT INTO spend_daily (organization_id, tenant_id, day, dims_key, ${DIMENSION_LIST}, billed_cost, effective_cost, list_cost, line_count)
    SELECT organization_id, tenant_id, day, ${DIMS_KEY}, ${DIMENSION_LIST}, billed_cost, effective_cost, list_cost, line_count
    FROM (
      SELECT l.organization_id, coalesce(l.tenant_id, '') AS tenant_id, (l.charge_period_start AT TIME ZONE 'UTC')::date AS day, ${DIMENSION_VALUES},
        ${sign} * coalesce(sum(l.billed_cost), 0) AS billed_cost, ${sign} * coalesce(sum(l.effective_cost), 0) AS effective_cost,
        ${sign} * coalesce(sum(l.list_cost), 0) AS list_cost, ${sign} * count(*) AS line_count
      FROM ${source} l
      GROUP BY 1, 2, 3, ${ROLLUP_DIMENSIONS.map((_, i) => i + 4).join(", ")}
    ) g
    ORDER BY organization_id, tenant_id, day, 4
    ON CONFLICT (organization_id, tenant_id, day, dims_key) DO UPDATE SET
      billed_cost = spend_daily.billed_cost + excluded.billed_cost,
      effective_cost = spend_daily.effective_cost + excluded.effective_cost,
      list_cost = spend_daily.list_cost + excluded.list_cost,
      line_count = spend_daily.line_count + excluded.line_count`;
}

const INSERT_SQL = `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_TYPE})),
  ins AS (
    INSERT INTO spend_lines (${COLUMN_LIST})
    SELECT ${LINE_COLUMNS.map(([name]) => (name === "tags" ? "coalesce(tags, '{}'::jsonb)" : name)).join(", ")} FROM input
    ON CONFLICT (organization_id, tenant_id, event_id) DO NOTHING
    RETURNING *),
  rollup AS (${rollupUpsert("ins", 1)} RETURNING 1)
  SELECT currency, count(*)::int AS lines, count(*) FILTER (WHERE priced)::int AS priced,
    coalesce(sum(billed_cost), 0)::text AS billed_cost, coalesce(sum(effective_cost), 0)::text AS effective_cost
  FROM ins GROUP BY currency`;

interface InsertRow {
  currency: string | null;
  lines: number;
  priced: number;
  billed_cost: string;
  effective_cost: string;
}

/**
 * Stores lines of one organization and adds them to the daily roll-up, in one statement (call it
 * inside a transaction with the other writes it belongs with). A usage line whose (tenant,
 * event_id) is already stored, by an earlier or a concurrent batch or earlier in this one, is
 * skipped: the unique index decides, not a read.
 */
export async function insertLines(tx: LedgerTx, organizationId: string, lines: LedgerLineInput[]): Promise<InsertResult> {
  if (lines.length === 0) return { inserted: 0, priced: 0, unpriced: 0, totals: [] };
  const records = lines.map((line) => ({
    organization_id: organizationId,
    id: newId("spl"),
    tenant_id: line.tenantId,
    source: line.source,
    charge_period_start: line.chargePeriodStart,
    charge_period_end: line.chargePeriodEnd,
    charge_category: line.chargeCategory,
    charge_class: line.chargeClass ?? null,
    provider: line.provider ?? null,
    service_name: line.serviceName ?? null,
    service_category: line.serviceCategory ?? null,
    region: line.region ?? null,
    resource_id: line.resourceId ?? null,
    resource_name: line.resourceName ?? null,
    sku_id: line.skuId ?? null,
    sku_price_id: line.skuPriceId ?? null,
    pricing_id: line.pricingId ?? null,
    unit_prices: line.unitPrices ?? null,
    consumed_quantity: line.consumedQuantity ?? null,
    consumed_unit: line.consumedUnit ?? null,
    billed_cost: line.billedCost,
    effective_cost: line.effectiveCost,
    list_cost: line.listCost,
    currency: line.currency,
    tags: line.tags ?? {},
    sub_account_id: line.subAccountId ?? null,
    billing_account_id: line.billingAccountId ?? null,
    billing_period_start: line.billingPeriodStart ?? null,
    billing_period_end: line.billingPeriodEnd ?? null,
    import_id: line.importId ?? null,
    priced: line.priced,
    unpriced_reason: line.unpricedReason ?? null,
    model: line.model ?? null,
    event_id: line.eventId ?? null,
    usage: line.usage ?? null,
  }));
  const rows = await tx.$queryRawUnsafe<InsertRow[]>(INSERT_SQL, JSON.stringify(records));
  let inserted = 0;
  let priced = 0;
  const totals: InsertResult["totals"] = [];
  for (const row of rows) {
    inserted += row.lines;
    priced += row.priced;
    if (row.currency !== null) totals.push({ currency: row.currency, billed_cost: row.billed_cost, effective_cost: row.effective_cost });
  }
  totals.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return { inserted, priced, unpriced: inserted - priced, totals };
}

/**
 * Applies a change to the lines `where` selects (a condition on spend_lines `l`, parameters from
 * $2; $1 is the organization id) while keeping the roll-up right: their roll-up share is
 * subtracted, `change` runs, and (unless they were deleted) the same lines' new share is added.
 * Roll-up rows left without lines are removed.
 */
async function changeLines(
  tx: LedgerTx,
  organizationId: string,
  where: string,
  params: unknown[],
  change: () => Promise<number>,
  deleted: boolean,
): Promise<number> {
  const selected = `(SELECT * FROM spend_lines l WHERE l.organization_id = $1 AND ${where})`;
  const days = await tx.$queryRawUnsafe<{ day: string }[]>(`${rollupUpsert(selected, -1)} RETURNING day::text AS day`, organizationId, ...params);
  const changed = await change();
  if (!deleted) await tx.$executeRawUnsafe(rollupUpsert(selected, 1), organizationId, ...params);
  await tx.$executeRawUnsafe("DELETE FROM spend_daily WHERE organization_id = $1 AND day = ANY($2::date[]) AND line_count = 0", organizationId, [
    ...new Set(days.map((row) => row.day)),
  ]);
  return changed;
}

/** Deletes the lines of these imports (supersede, an import's DELETE), keeping the roll-up right. Returns the lines deleted. */
export function deleteImportLines(tx: LedgerTx, organizationId: string, importIds: string[]): Promise<number> {
  if (importIds.length === 0) return Promise.resolve(0);
  const where = "l.import_id = ANY($2::text[])";
  const remove = () => tx.$executeRawUnsafe(`DELETE FROM spend_lines l WHERE l.organization_id = $1 AND ${where}`, organizationId, importIds);
  return changeLines(tx, organizationId, where, [importIds], remove, true);
}

/**
 * Moves lines to other tenants (re-allocation after the allocation rules changed; null =
 * unallocated), keeping the roll-up right. Only lines whose tenant changes are touched (locked
 * first). Returns the lines moved.
 */
export async function reallocateLines(tx: LedgerTx, organizationId: string, moves: { id: string; tenantId: string | null }[]): Promise<number> {
  if (moves.length === 0) return 0;
  const json = JSON.stringify(moves.map((move) => ({ id: move.id, tenant_id: move.tenantId })));
  const moving = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT l.id FROM spend_lines l JOIN jsonb_to_recordset($2::jsonb) AS m(id text, tenant_id text) ON l.id = m.id
      WHERE l.organization_id = $1 AND l.tenant_id IS DISTINCT FROM m.tenant_id ORDER BY l.id FOR UPDATE OF l`,
    organizationId,
    json,
  );
  if (moving.length === 0) return 0;
  const ids = moving.map((row) => row.id);
  const update = () =>
    tx.$executeRawUnsafe(
      `UPDATE spend_lines l SET tenant_id = m.tenant_id FROM jsonb_to_recordset($3::jsonb) AS m(id text, tenant_id text)
        WHERE l.organization_id = $1 AND l.id = ANY($2::text[]) AND l.id = m.id`,
      organizationId,
      ids,
      json,
    );
  return changeLines(tx, organizationId, "l.id = ANY($2::text[])", [ids], update, false);
}
