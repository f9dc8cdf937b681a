import { type CheckedStatement, newIds, type RowOf } from "@cloudcost/db";
import { ROLLUP_DIMENSIONS, SERVICE_ROLLUP_DIMENSIONS } from "./rollup-columns";
import { addLinesToDimensionRollup } from "../dimensions/rollup";
import type { Tx } from "../transactions";
import { type ChargeFrequency, derivedChargeFrequency } from "./charge-frequency";
import { afterCte, commitmentRollupCtes, DROP_EMPTY_COMMITMENT_ROWS } from "./commitment-rollups-repository";

// The spend lines (the ledger, spend_lines and the import sessions' spend_staged_lines) and the
// roll-ups every write of them keeps right in the same statements: inserting lines, adding a whole
// import to the roll-ups, re-allocating, repricing and deleting lines. Every statement goes through
// the Prisma transaction it is given (its raw queries) and filters by organization first.

/** What the ledger functions need of a transaction (an interactive Prisma transaction's client). */
export type LedgerTx = Pick<Tx, "$queryRawUnsafe" | "$executeRawUnsafe">;

export type SpendSource = "usage" | "focus_import";

/**
 * One line to store (docs/api.md, "Spend: usage, queries, lines, export"). Amounts and quantities are decimal strings (stored
 * exactly, every place up to 20 kept, rounded half away from zero beyond by PostgreSQL numeric(38,20)); timestamps
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
  /** Unpriced usage lines: the usage line as sent, priced again by reprice. */
  usage?: unknown;
  /** Derived from the category and charge period when absent (derivedChargeFrequency). */
  chargeFrequency?: ChargeFrequency;
  pricingCategory?: string | null;
  pricingQuantity?: string | null;
  pricingUnit?: string | null;
  contractedCost?: string | null;
  contractedUnitPrice?: string | null;
  listUnitPrice?: string | null;
  resourceType?: string | null;
  commitmentDiscountId?: string | null;
  commitmentDiscountCategory?: string | null;
  commitmentDiscountType?: string | null;
  commitmentDiscountStatus?: string | null;
  commitmentDiscountQuantity?: string | null;
  commitmentDiscountUnit?: string | null;
  invoiceIssuer?: string | null;
  chargeDescription?: string | null;
  skuMeter?: string | null;
  billingAccountName?: string | null;
  subAccountName?: string | null;
  availabilityZone?: string | null;
  regionName?: string | null;
  publisherName?: string | null;
  invoiceId?: string | null;
  commitmentDiscountName?: string | null;
  /** A bill line's own row id (the file's `Id` column). */
  rowId?: string | null;
}

export interface InsertResult {
  /** Lines stored (lines whose event_id the tenant already sent are not). */
  inserted: number;
  priced: number;
  unpriced: number;
  /** Sums of the stored priced lines per currency, as decimal strings (numeric text). */
  totals: { currency: string; billed_cost: string; effective_cost: string }[];
}

/**
 * The columns written from the input, in order, with their SQL type. Each is sent as one text
 * array parameter (`$2` on; `$1` is the organization id) and cast row by row: one INSERT ... SELECT
 * FROM unnest(...) per batch, whatever its size, with no per-row JSON keys to send or parse. The
 * arrays travel as their PostgreSQL text form (textArray), one string per column: the client
 * layers then pass 35 strings rather than walking every value. A column holding one value on every
 * line (a usage batch's source, service, unit prices, labels...) is sent once instead, as the text
 * parameter after the arrays: neither side builds, parses or casts it per line.
 */
const LINE_COLUMNS: [string, string][] = [
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
  ["charge_frequency", "text"],
  ["pricing_category", "text"],
  ["pricing_quantity", "numeric"],
  ["pricing_unit", "text"],
  ["contracted_cost", "numeric"],
  ["contracted_unit_price", "numeric"],
  ["list_unit_price", "numeric"],
  ["resource_type", "text"],
  ["commitment_discount_id", "text"],
  ["commitment_discount_category", "text"],
  ["commitment_discount_type", "text"],
  ["commitment_discount_status", "text"],
  ["commitment_discount_quantity", "numeric"],
  ["commitment_discount_unit", "text"],
  ["invoice_issuer", "text"],
  ["charge_description", "text"],
  ["sku_meter", "text"],
  ["billing_account_name", "text"],
  ["sub_account_name", "text"],
  ["availability_zone", "text"],
  ["region_name", "text"],
  ["publisher_name", "text"],
  ["invoice_id", "text"],
  ["commitment_discount_name", "text"],
  ["row_id", "text"],
];
const COLUMN_LIST = `organization_id, ${LINE_COLUMNS.map(([name]) => name).join(", ")}`;
/** Column i > 0's one value is parameter CONSTANT_BASE + i (after $1 and the arrays; the id column has none). */
const CONSTANT_BASE = LINE_COLUMNS.length + 1;
/** The input rows: every column arrives as text (an array, or one value for all rows) and is cast to its type here. */
const INPUT_SELECT = `SELECT $1::text AS organization_id, ${LINE_COLUMNS.map(([name, type], i) => {
  const value =
    i === 0 ? `x.${name}` : `coalesce(x.${name}${type === "text" ? "" : `::${type}`}, $${CONSTANT_BASE + i}::text${type === "text" ? "" : `::${type}`})`;
  return name === "tags" ? `coalesce(${value}, '{}'::jsonb) AS tags` : `${value} AS ${name}`;
}).join(", ")}
  FROM unnest(${LINE_COLUMNS.map((_, i) => `$${i + 2}::text::text[]`).join(", ")}) AS x(${LINE_COLUMNS.map(([name]) => name).join(", ")})`;

const DIMENSION_LIST = ROLLUP_DIMENSIONS.join(", ");
const SERVICE_DIMENSION_LIST = SERVICE_ROLLUP_DIMENSIONS.join(", ");
const DIMENSION_VALUES = ROLLUP_DIMENSIONS.map((name) => `coalesce(l.${name}, '') AS ${name}`).join(", ");
/** Unambiguous whatever the strings hold: a JSON array of the dimensions, hashed. */
const DIMS_KEY = `md5(jsonb_build_array(${DIMENSION_LIST})::text)`;
const SERVICE_DIMS_KEY = `md5(jsonb_build_array(${SERVICE_DIMENSION_LIST})::text)`;
/** The tag roll-up's dimensions besides its key: every line contributes one row per tag with a non-null value. */
const TAG_DIMENSION_LIST = "currency, unpriced_reason, tag_key, tag_value";
const TAG_DIMS_KEY = `md5(jsonb_build_array(${TAG_DIMENSION_LIST})::text)`;
/** The tag roll-up beside spend_service_daily's dimensions (spend_tag_service_daily): a tag beside a service, provider or category. */
export const TAG_SERVICE_DIMENSIONS = [...SERVICE_ROLLUP_DIMENSIONS, "tag_key", "tag_value"] as const;
const TAG_SERVICE_DIMENSION_LIST = TAG_SERVICE_DIMENSIONS.join(", ");
const TAG_SERVICE_DIMS_KEY = `md5(jsonb_build_array(${TAG_SERVICE_DIMENSION_LIST})::text)`;
const SUM_COLUMNS = ["billed_cost", "effective_cost", "list_cost", "contracted_cost", "line_count"] as const;
const SUMS = SUM_COLUMNS.join(", ");
const addSums = (table: string) => SUM_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ");
/** The sums of the lines `l` of a group, times `sign`. */
const lineSums = (sign: 1 | -1) =>
  `${sign} * coalesce(sum(l.billed_cost), 0) AS billed_cost, ${sign} * coalesce(sum(l.effective_cost), 0) AS effective_cost,
        ${sign} * coalesce(sum(l.list_cost), 0) AS list_cost, ${sign} * coalesce(sum(l.contracted_cost), 0) AS contracted_cost, ${sign} * count(*) AS line_count`;
/** The roll-up tables, in the order every writer locks them. */
const ROLLUP_TABLES = ["spend_daily", "spend_service_daily", "spend_tag_daily", "spend_tag_service_daily"] as const;

/**
 * CTEs (to follow a WITH) that add `sign` times the lines of `source` (a relation with
 * spend_lines' columns, e.g. a CTE) to the three roll-ups: the lines grouped once by organization,
 * tenant, UTC day and spend_daily's dimensions (`rollup_groups`), upserted into spend_daily
 * (`rollup_daily`, returning the days touched), then those groups grouped again into
 * spend_service_daily (`rollup_service`), then the lines' tags grouped once with the service
 * dimensions (`rollup_tag_groups`), summed into spend_tag_daily (`rollup_tags`) and upserted as they
 * are into spend_tag_service_daily (`rollup_tag_service`), then spend_commitment_daily and spend_ondemand_hourly (commitment-rollups-repository.ts,
 * `rollup_ondemand` last). Each upsert runs in key order, and each only after the one before (it reads its
 * count once: afterCte), so concurrent writers lock roll-up rows in one order.
 */
function rollupCtes(source: string, sign: 1 | -1): string {
  return `rollup_groups AS MATERIALIZED (
      SELECT l.organization_id, coalesce(l.tenant_id, '') AS tenant_id, (l.charge_period_start AT TIME ZONE 'UTC')::date AS day, ${DIMENSION_VALUES},
        ${lineSums(sign)}
      FROM ${source} l
      GROUP BY 1, 2, 3, ${ROLLUP_DIMENSIONS.map((_, i) => i + 4).join(", ")}),
    rollup_daily AS (
      INSERT INTO spend_daily (organization_id, tenant_id, day, dims_key, ${DIMENSION_LIST}, ${SUMS})
      SELECT organization_id, tenant_id, day, ${DIMS_KEY}, ${DIMENSION_LIST}, ${SUMS} FROM rollup_groups
      ORDER BY organization_id, tenant_id, day, 4
      ON CONFLICT (organization_id, tenant_id, day, dims_key) DO UPDATE SET ${addSums("spend_daily")}
      RETURNING day),
    rollup_service AS (
      INSERT INTO spend_service_daily (organization_id, tenant_id, day, dims_key, ${SERVICE_DIMENSION_LIST}, ${SUMS})
      SELECT organization_id, tenant_id, day, ${SERVICE_DIMS_KEY}, ${SERVICE_DIMENSION_LIST}, ${SUMS}
      FROM (
        SELECT g.organization_id, g.tenant_id, g.day, ${SERVICE_ROLLUP_DIMENSIONS.map((name) => `g.${name}`).join(", ")},
          ${SUM_COLUMNS.map((column) => `sum(g.${column}) AS ${column}`).join(", ")}
        FROM rollup_groups g WHERE ${afterCte("rollup_daily")}
        GROUP BY ${["organization_id", "tenant_id", "day", ...SERVICE_ROLLUP_DIMENSIONS].map((name) => `g.${name}`).join(", ")}
      ) s
      ORDER BY organization_id, tenant_id, day, 4
      ON CONFLICT (organization_id, tenant_id, day, dims_key) DO UPDATE SET ${addSums("spend_service_daily")}
      RETURNING 1),
    rollup_tag_groups AS MATERIALIZED (
      SELECT l.organization_id, coalesce(l.tenant_id, '') AS tenant_id, (l.charge_period_start AT TIME ZONE 'UTC')::date AS day,
        ${TAG_SERVICE_DIMENSIONS.map((name) => (name === "tag_key" ? "t.key AS tag_key" : name === "tag_value" ? "t.value AS tag_value" : `coalesce(l.${name}, '') AS ${name}`)).join(", ")},
        ${lineSums(sign)}
      FROM ${source} l CROSS JOIN LATERAL jsonb_each_text(l.tags) AS t(key, value)
      WHERE t.value IS NOT NULL AND ${afterCte("rollup_service")}
      GROUP BY 1, 2, 3, ${TAG_SERVICE_DIMENSIONS.map((_, i) => i + 4).join(", ")}),
    rollup_tags AS (
      INSERT INTO spend_tag_daily (organization_id, tenant_id, day, dims_key, ${TAG_DIMENSION_LIST}, ${SUMS})
      SELECT organization_id, tenant_id, day, ${TAG_DIMS_KEY}, ${TAG_DIMENSION_LIST}, ${SUMS}
      FROM (
        SELECT g.organization_id, g.tenant_id, g.day, ${TAG_DIMENSION_LIST.split(", ")
          .map((name) => `g.${name}`)
          .join(", ")},
          ${SUM_COLUMNS.map((column) => `sum(g.${column}) AS ${column}`).join(", ")}
        FROM rollup_tag_groups g
        GROUP BY ${["organization_id", "tenant_id", "day", ...TAG_DIMENSION_LIST.split(", ")].map((name) => `g.${name}`).join(", ")}
      ) t
      ORDER BY organization_id, tenant_id, day, 4
      ON CONFLICT (organization_id, tenant_id, day, dims_key) DO UPDATE SET ${addSums("spend_tag_daily")}
      RETURNING 1),
    rollup_tag_service AS (
      INSERT INTO spend_tag_service_daily (organization_id, tenant_id, day, dims_key, ${TAG_SERVICE_DIMENSION_LIST}, ${SUMS})
      SELECT organization_id, tenant_id, day, ${TAG_SERVICE_DIMS_KEY}, ${TAG_SERVICE_DIMENSION_LIST}, ${SUMS}
      FROM rollup_tag_groups g WHERE ${afterCte("rollup_tags")}
      ORDER BY organization_id, tenant_id, day, 4
      ON CONFLICT (organization_id, tenant_id, day, dims_key) DO UPDATE SET ${addSums("spend_tag_service_daily")}
      RETURNING 1),
    ${commitmentRollupCtes(source, sign, "rollup_tag_service")}`;
}

/** A statement adding (or subtracting) the lines of `source` to the roll-ups; answers the days touched. */
const ROLLUP_DAYS_COLUMNS = { day: "text" } as const;
const rollupStatement = (source: string, sign: 1 | -1) => `WITH ${rollupCtes(source, sign)}
  SELECT DISTINCT day::text AS day FROM rollup_daily WHERE ${afterCte("rollup_ondemand")}`;

const INSERT_SQL = `WITH ins AS (
    INSERT INTO spend_lines (${COLUMN_LIST})
    ${INPUT_SELECT}
    ON CONFLICT (organization_id, tenant_id, event_id) WHERE event_id IS NOT NULL DO NOTHING
    RETURNING organization_id, tenant_id, charge_period_start, charge_period_end, ${DIMENSION_LIST}, tags, billed_cost, effective_cost, list_cost,
      contracted_cost, priced, billing_account_id, commitment_discount_id, commitment_discount_category, commitment_discount_type, commitment_discount_status,
      pricing_unit, consumed_unit),
  ${rollupCtes("ins", 1)}
  SELECT currency, count(*)::int AS lines, count(*) FILTER (WHERE priced)::int AS priced,
    trim_scale(coalesce(sum(billed_cost), 0))::text AS billed_cost, trim_scale(coalesce(sum(effective_cost), 0))::text AS effective_cost
  FROM ins GROUP BY currency`;

/** INSERT_SQL without the roll-up: for an import, which adds its lines to the roll-up once at the end (rollupImport). */
const INSERT_ONLY_SQL = `WITH ins AS (
    INSERT INTO spend_lines (${COLUMN_LIST})
    ${INPUT_SELECT}
    RETURNING currency, priced, billed_cost, effective_cost)
  SELECT currency, count(*)::int AS lines, count(*) FILTER (WHERE priced)::int AS priced,
    trim_scale(coalesce(sum(billed_cost), 0))::text AS billed_cost, trim_scale(coalesce(sum(effective_cost), 0))::text AS effective_cost
  FROM ins GROUP BY currency`;

/** INSERT_ONLY_SQL into the staging table of import sessions (spend_staged_lines, the same columns): lines no query reads yet. */
const STAGE_SQL = INSERT_ONLY_SQL.replace("INSERT INTO spend_lines (", "INSERT INTO spend_staged_lines (");

/** The columns of a line as insertLines writes them (spend_lines and spend_staged_lines alike), after organization_id. */
export const LEDGER_LINE_COLUMNS: readonly string[] = LINE_COLUMNS.map(([name]) => name);

/** A PostgreSQL text[] literal: every element quoted (only `"` and `\\` need escaping inside quotes), NULL for null. */
export function textArray(values: (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    parts[i] = value === null ? "NULL" : `"${value.includes('"') || value.includes("\\") ? value.replace(/["\\]/g, "\\$&") : value}"`;
  }
  return `{${parts.join(",")}}`;
}

/** What INSERT_SQL, INSERT_ONLY_SQL and STAGE_SQL answer: per currency of the lines stored, their count, the priced ones and their sums. */
const INSERT_COLUMNS = { currency: "text null", lines: "int4", priced: "int4", billed_cost: "text", effective_cost: "text" } as const;

/**
 * Stores lines of one organization and adds them to the daily roll-up, in one statement (call it
 * inside a transaction with the other writes it belongs with). A usage line whose (tenant,
 * event_id) is already stored, by an earlier or a concurrent batch or earlier in this one, is
 * skipped: the unique index decides, not a read.
 */
export async function insertLines(
  tx: LedgerTx,
  organizationId: string,
  lines: LedgerLineInput[],
  /**
   * `rollup: false` (focus imports only): the caller runs rollupImport before its transaction ends.
   * `staged: true` (parts of import sessions): into spend_staged_lines, without roll-up, until the session commits.
   */
  options: { rollup?: boolean; staged?: boolean } = {},
): Promise<InsertResult> {
  if (lines.length === 0) return { inserted: 0, priced: 0, unpriced: 0, totals: [] };
  // In increasing order, so that lines of one batch with the same charge start keep the batch's order
  // (the lines endpoint and the export order by charge start, then id): an export imported again lists them alike.
  const ids = newIds("spl", lines.length).sort();
  const columns = LINE_COLUMNS.map(() => new Array<string | null>(lines.length));
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  lines.forEach((line, i) => {
    const values = [
      ids[i],
      line.tenantId,
      line.source,
      line.chargePeriodStart,
      line.chargePeriodEnd,
      line.chargeCategory,
      line.chargeClass ?? null,
      line.provider ?? null,
      line.serviceName ?? null,
      line.serviceCategory ?? null,
      line.region ?? null,
      line.resourceId ?? null,
      line.resourceName ?? null,
      line.skuId ?? null,
      line.skuPriceId ?? null,
      line.pricingId ?? null,
      json(line.unitPrices),
      line.consumedQuantity ?? null,
      line.consumedUnit ?? null,
      line.billedCost,
      line.effectiveCost,
      line.listCost,
      line.currency,
      json(line.tags ?? {}),
      line.subAccountId ?? null,
      line.billingAccountId ?? null,
      line.billingPeriodStart ?? null,
      line.billingPeriodEnd ?? null,
      line.importId ?? null,
      line.priced ? "true" : "false",
      line.unpricedReason ?? null,
      line.model ?? null,
      line.eventId ?? null,
      json(line.usage),
      line.chargeFrequency ?? derivedChargeFrequency(line.chargeCategory, Date.parse(line.chargePeriodStart), Date.parse(line.chargePeriodEnd)),
      line.pricingCategory ?? null,
      line.pricingQuantity ?? null,
      line.pricingUnit ?? null,
      line.contractedCost ?? null,
      line.contractedUnitPrice ?? null,
      line.listUnitPrice ?? null,
      line.resourceType ?? null,
      line.commitmentDiscountId ?? null,
      line.commitmentDiscountCategory ?? null,
      line.commitmentDiscountType ?? null,
      line.commitmentDiscountStatus ?? null,
      line.commitmentDiscountQuantity ?? null,
      line.commitmentDiscountUnit ?? null,
      line.invoiceIssuer ?? null,
      line.chargeDescription ?? null,
      line.skuMeter ?? null,
      line.billingAccountName ?? null,
      line.subAccountName ?? null,
      line.availabilityZone ?? null,
      line.regionName ?? null,
      line.publisherName ?? null,
      line.invoiceId ?? null,
      line.commitmentDiscountName ?? null,
      line.rowId ?? null,
    ];
    for (let c = 0; c < values.length; c++) columns[c][i] = values[c];
  });
  // A column with one value on every line (null included) is sent as a null array, which unnest
  // pads with nulls (the id column, never constant, sets the length), and that value once.
  const arrays: (string | null)[] = [];
  const constants: (string | null)[] = [];
  columns.forEach((values, c) => {
    const first = values[0];
    const constant = c !== 0 && values.every((value) => value === first);
    arrays.push(constant ? null : textArray(values));
    if (c !== 0) constants.push(constant ? first : null);
  });
  const sql = options.staged ? STAGE_SQL : options.rollup === false ? INSERT_ONLY_SQL : INSERT_SQL;
  const rows = await tx.$queryRawUnsafe<RowOf<typeof INSERT_COLUMNS>[]>(sql, organizationId, ...arrays, ...constants);
  if (sql === INSERT_SQL) await addLinesToDimensionRollup(tx, organizationId, selectedLines(BY_IDS), [ids], 1);
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

/** The organization's lines `where` selects (a condition on spend_lines `l`; $1 is the organization id), as a relation. */
const selectedLines = (where: string) => `(SELECT * FROM spend_lines l WHERE l.organization_id = $1 AND ${where})`;
/** The conditions lines are selected by: their ids, their imports, one import ($2). */
const BY_IDS = "l.id = ANY($2::text[])";
const BY_IMPORTS = "l.import_id = ANY($2::text[])";
const BY_IMPORT = "l.import_id = $2";

/**
 * Applies a change to the lines `where` selects (a condition on spend_lines `l`, parameters from
 * $2; $1 is the organization id) while keeping the roll-ups right: their roll-up share is
 * subtracted, `change` runs, and (unless they were deleted) the same lines' new share is added.
 * Roll-up rows left without lines are removed.
 */
async function changeLines(tx: LedgerTx, organizationId: string, where: string, params: unknown[], change: () => Promise<number>): Promise<number> {
  const selected = selectedLines(where);
  await addLinesToDimensionRollup(tx, organizationId, selected, params, -1);
  const days = await tx.$queryRawUnsafe<RowOf<typeof ROLLUP_DAYS_COLUMNS>[]>(rollupStatement(selected, -1), organizationId, ...params);
  const changed = await change();
  await tx.$queryRawUnsafe(rollupStatement(selected, 1), organizationId, ...params);
  await addLinesToDimensionRollup(tx, organizationId, selected, params, 1);
  await dropEmptyRollupRows(
    tx,
    organizationId,
    days.map((row) => row.day),
  );
  return changed;
}

/** Per roll-up table, in locking order, the statement removing its rows of days $2 left without lines; then the commitment roll-ups'. */
const DROP_EMPTY_ROLLUP_ROWS = ROLLUP_TABLES.map((table) => `DELETE FROM ${table} WHERE organization_id = $1 AND day = ANY($2::date[]) AND line_count = 0`);

/** Removes the roll-up rows of these days left without lines. */
async function dropEmptyRollupRows(tx: LedgerTx, organizationId: string, days: string[]): Promise<void> {
  if (days.length === 0) return;
  for (const statement of DROP_EMPTY_ROLLUP_ROWS) await tx.$executeRawUnsafe(statement, organizationId, days);
  for (const statement of DROP_EMPTY_COMMITMENT_ROWS) await tx.$executeRawUnsafe(statement, organizationId, days);
}

/** Deletes the lines `where` selects and subtracts them from the roll-ups: how many, their imports and the days touched. */
const DELETE_LINES_COLUMNS = { deleted: "int4", import_ids: "text[]", days: "text[]", last_rows: "int8" } as const;
const deleteLinesStatement = (where: string) => `WITH del AS (DELETE FROM spend_lines l WHERE l.organization_id = $1 AND ${where} RETURNING l.*),
        ${rollupCtes("del", -1)}
      SELECT (SELECT count(*) FROM del)::int AS deleted,
        ARRAY(SELECT DISTINCT import_id FROM del WHERE import_id IS NOT NULL ORDER BY 1) AS import_ids,
        ARRAY(SELECT DISTINCT day::text FROM rollup_daily ORDER BY 1) AS days,
        (SELECT count(*) FROM rollup_ondemand) AS last_rows`;

/**
 * Deletes the lines `where` selects (as in changeLines) and subtracts them from the roll-ups in
 * the same statement (one pass over the lines). Returns how many, and the imports they belonged to.
 */
async function deleteLines(tx: LedgerTx, organizationId: string, where: string, params: unknown[]): Promise<{ deleted: number; importIds: string[] }> {
  const row = await groupedByHashing(tx, async () => {
    await addLinesToDimensionRollup(tx, organizationId, selectedLines(where), params, -1, { staged: true });
    const [deleted] = await tx.$queryRawUnsafe<RowOf<typeof DELETE_LINES_COLUMNS>[]>(deleteLinesStatement(where), organizationId, ...params);
    return deleted;
  });
  await dropEmptyRollupRows(tx, organizationId, row.days);
  return { deleted: row.deleted, importIds: row.import_ids };
}

/** Deletes the lines of these imports (supersede, an import's DELETE), keeping the roll-up right. Returns the lines deleted. */
export function deleteImportLines(tx: LedgerTx, organizationId: string, importIds: string[]): Promise<number> {
  if (importIds.length === 0) return Promise.resolve(0);
  return deleteLines(tx, organizationId, BY_IMPORTS, [importIds]).then((result) => result.deleted);
}

/** The lines of `moves` ($2, JSON) whose tenant changes, locked in id order. */
const ID_COLUMNS = { id: "text" } as const;
const MOVING_LINES_SQL = `SELECT l.id FROM spend_lines l JOIN jsonb_to_recordset($2::jsonb) AS m(id text, tenant_id text) ON l.id = m.id
      WHERE l.organization_id = $1 AND l.tenant_id IS DISTINCT FROM m.tenant_id ORDER BY l.id FOR UPDATE OF l`;
const MOVE_LINES_SQL = `UPDATE spend_lines l SET tenant_id = m.tenant_id FROM jsonb_to_recordset($3::jsonb) AS m(id text, tenant_id text)
        WHERE l.organization_id = $1 AND l.id = ANY($2::text[]) AND l.id = m.id`;

/**
 * Moves lines to other tenants (re-allocation after the allocation rules changed; null =
 * unallocated), keeping the roll-up right. Only lines whose tenant changes are touched (locked
 * first). Returns the lines moved.
 */
export async function reallocateLines(tx: LedgerTx, organizationId: string, moves: { id: string; tenantId: string | null }[]): Promise<number> {
  if (moves.length === 0) return 0;
  const json = JSON.stringify(moves.map((move) => ({ id: move.id, tenant_id: move.tenantId })));
  const moving = await tx.$queryRawUnsafe<RowOf<typeof ID_COLUMNS>[]>(MOVING_LINES_SQL, organizationId, json);
  if (moving.length === 0) return 0;
  const ids = moving.map((row) => row.id);
  const update = () => tx.$executeRawUnsafe(MOVE_LINES_SQL, organizationId, ids, json);
  return changeLines(tx, organizationId, BY_IDS, [ids], update);
}

/** The pricing of a stored usage line as reprice found it. */
export interface LinePricing {
  id: string;
  priced: boolean;
  unpricedReason: string | null;
  pricingId: string | null;
  unitPrices: Record<string, string> | null;
  currency: string | null;
  billedCost: string | null;
  effectiveCost: string | null;
  listCost: string | null;
  contractedCost: string | null;
  model: string | null;
}

/** The still-unpriced lines of ids $2, locked in id order. */
const LOCK_UNPRICED_SQL = "SELECT id FROM spend_lines WHERE organization_id = $1 AND id = ANY($2::text[]) AND NOT priced ORDER BY id FOR UPDATE";
const SET_PRICING_SQL = `UPDATE spend_lines l SET priced = u.priced, unpriced_reason = u.unpriced_reason, pricing_id = u.pricing_id, unit_prices = u.unit_prices,
          currency = u.currency, billed_cost = u.billed_cost, effective_cost = u.effective_cost, list_cost = u.list_cost,
          contracted_cost = u.contracted_cost, model = u.model
        FROM jsonb_to_recordset($3::jsonb) AS u(id text, priced boolean, unpriced_reason text, pricing_id text, unit_prices jsonb, currency text,
          billed_cost numeric, effective_cost numeric, list_cost numeric, contracted_cost numeric, model text)
        WHERE l.organization_id = $1 AND l.id = ANY($2::text[]) AND l.id = u.id`;

/**
 * Sets the pricing of still-unpriced lines (reprice), keeping the roll-up right. A line priced in
 * the meantime (a concurrent reprice) is left alone: priced lines are never changed. Returns the
 * ids changed.
 */
export async function setLinePricing(tx: LedgerTx, organizationId: string, updates: LinePricing[]): Promise<string[]> {
  if (updates.length === 0) return [];
  const locked = await tx.$queryRawUnsafe<RowOf<typeof ID_COLUMNS>[]>(
    LOCK_UNPRICED_SQL,
    organizationId,
    updates.map((update) => update.id),
  );
  if (locked.length === 0) return [];
  const ids = locked.map((row) => row.id);
  const json = JSON.stringify(
    updates.map((u) => ({
      id: u.id,
      priced: u.priced,
      unpriced_reason: u.unpricedReason,
      pricing_id: u.pricingId,
      unit_prices: u.unitPrices,
      currency: u.currency,
      billed_cost: u.billedCost,
      effective_cost: u.effectiveCost,
      list_cost: u.listCost,
      contracted_cost: u.contractedCost,
      model: u.model,
    })),
  );
  const update = () => tx.$executeRawUnsafe(SET_PRICING_SQL, organizationId, ids, json);
  await changeLines(tx, organizationId, BY_IDS, [ids], update);
  return ids;
}

/**
 * Runs `write` (statements grouping a whole import's lines into the roll-ups) with the lines
 * grouped by hashing, in memory. Lines just written have no statistics, so every estimate is one
 * row and PostgreSQL grouped them by sorting, each sort of 100,000 wide rows spilling to disk with
 * the default 4 MB work_mem: the roll-ups of a 100,000-line import took 2.7 s and its dimension
 * groups 1.0 s, 1.45 s and 0.3 s hashed (bench/focus-import.ts). A hash that outgrows work_mem
 * spills to disk in batches, so a larger import stays bounded. work_mem stays raised to the end of
 * the transaction; sorting is allowed again after `write`.
 */
const HASH_GROUPING_COLUMNS = { work_mem: "text", enable_sort: "text" } as const;
const HASH_GROUPING_SQL = "SELECT set_config('work_mem', '64MB', true) AS work_mem, set_config('enable_sort', 'off', true) AS enable_sort";
const SORTING_COLUMNS = { enable_sort: "text" } as const;
const SORTING_SQL = "SELECT set_config('enable_sort', 'on', true) AS enable_sort";

async function groupedByHashing<T>(tx: LedgerTx, write: () => Promise<T>): Promise<T> {
  await tx.$queryRawUnsafe<RowOf<typeof HASH_GROUPING_COLUMNS>[]>(HASH_GROUPING_SQL);
  const result = await write();
  await tx.$queryRawUnsafe<RowOf<typeof SORTING_COLUMNS>[]>(SORTING_SQL);
  return result;
}

/** A (billing account, billing period) pair of a FOCUS import; periods as RFC 3339. */
export interface BillingPair {
  billingAccountId: string;
  start: string;
  end: string;
}

/**
 * The lines of earlier imports ($2: the import kept) of the billing accounts $4 for the (billing
 * account, billing period) pairs $3 (JSON). Only the lines of earlier imports of these billing
 * accounts (their records name them) are read, through the (organization, import) index, never the
 * organization's whole ledger. IN (not a correlated EXISTS): the pairs are read from the JSON once,
 * as a hashed set.
 */
const SUPERSEDED = `l.import_id = ANY(ARRAY(SELECT i.id FROM spend_imports i
      WHERE i.organization_id = $1 AND i.id <> $2 AND i.billing_account_ids && $4::text[]))
    AND l.source = 'focus_import' AND (l.billing_account_id, l.billing_period_start, l.billing_period_end) IN (
      SELECT p."billingAccountId", p.start, p."end" FROM jsonb_to_recordset($3::jsonb) AS p("billingAccountId" text, start timestamptz, "end" timestamptz))`;

/**
 * Supersede (focus): deletes the import lines of every other import for these (billing account,
 * billing period) pairs, keeping the roll-up right. Returns the imports whose lines were deleted.
 */
export async function deleteSupersededLines(tx: LedgerTx, organizationId: string, keepImportId: string, pairs: BillingPair[]): Promise<string[]> {
  if (pairs.length === 0) return [];
  const accounts = [...new Set(pairs.map((pair) => pair.billingAccountId))];
  return (await deleteLines(tx, organizationId, SUPERSEDED, [keepImportId, JSON.stringify(pairs), accounts])).importIds;
}

/**
 * Adds every line of one import to the roll-up, once (focus): an import stores its lines with
 * `insertLines(..., { rollup: false })` and calls this in the same transaction, which is cheaper
 * than a roll-up upsert per batch.
 */
export function rollupImport(tx: LedgerTx, organizationId: string, importId: string): Promise<void> {
  const selected = selectedLines(BY_IMPORT);
  return groupedByHashing(tx, async () => {
    await tx.$queryRawUnsafe(rollupStatement(selected, 1), organizationId, importId);
    await addLinesToDimensionRollup(tx, organizationId, selected, [importId], 1, { staged: true });
  });
}

/** rollupImport for several imports at once (the parts of an import session, when it commits). */
export async function rollupImports(tx: LedgerTx, organizationId: string, importIds: string[]): Promise<void> {
  if (importIds.length === 0) return;
  const selected = selectedLines(BY_IMPORTS);
  await groupedByHashing(tx, async () => {
    await tx.$queryRawUnsafe(rollupStatement(selected, 1), organizationId, importIds);
    await addLinesToDimensionRollup(tx, organizationId, selected, [importIds], 1, { staged: true });
  });
}

/** What the spend services write through; each function takes the transaction it runs in. */
export const spendLinesRepository = {
  insertLines,
  deleteImportLines,
  deleteSupersededLines,
  reallocateLines,
  setLinePricing,
  rollupImport,
  rollupImports,
};
export type SpendLinesRepository = typeof spendLinesRepository;

/**
 * The raw statements of this module, for test/repository-row-types.test.ts; those built from a
 * selection of lines are checked with each selection the functions use.
 */
export function checkedStatements(): CheckedStatement[] {
  const rollups = [
    ["by ids, subtracted", selectedLines(BY_IDS), -1],
    ["by ids, added", selectedLines(BY_IDS), 1],
    ["of an import", selectedLines(BY_IMPORT), 1],
    ["of imports", selectedLines(BY_IMPORTS), 1],
  ] as const;
  return [
    { name: "spend lines insert with roll-ups", sql: INSERT_SQL, columns: INSERT_COLUMNS },
    { name: "spend lines insert", sql: INSERT_ONLY_SQL, columns: INSERT_COLUMNS },
    { name: "spend staged lines insert", sql: STAGE_SQL, columns: INSERT_COLUMNS },
    ...rollups.map(([name, source, sign]) => ({ name: `spend lines roll-up ${name}`, sql: rollupStatement(source, sign), columns: ROLLUP_DAYS_COLUMNS })),
    { name: "spend lines delete of imports", sql: deleteLinesStatement(BY_IMPORTS), columns: DELETE_LINES_COLUMNS },
    { name: "spend lines delete superseded", sql: deleteLinesStatement(SUPERSEDED), columns: DELETE_LINES_COLUMNS },
    ...[...DROP_EMPTY_ROLLUP_ROWS, ...DROP_EMPTY_COMMITMENT_ROWS].map((sql, i) => ({
      name: `spend lines empty roll-up rows delete ${i + 1}`,
      sql,
      columns: null,
    })),
    { name: "spend lines moving", sql: MOVING_LINES_SQL, columns: ID_COLUMNS },
    { name: "spend lines move", sql: MOVE_LINES_SQL, columns: null },
    { name: "spend lines unpriced lock", sql: LOCK_UNPRICED_SQL, columns: ID_COLUMNS },
    { name: "spend lines pricing update", sql: SET_PRICING_SQL, columns: null },
    { name: "spend lines hash grouping", sql: HASH_GROUPING_SQL, columns: HASH_GROUPING_COLUMNS },
    { name: "spend lines sorting", sql: SORTING_SQL, columns: SORTING_COLUMNS },
  ];
}
