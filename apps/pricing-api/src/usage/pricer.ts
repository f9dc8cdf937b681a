import Decimal from "decimal.js";
import {
  DATABASE_QUANTITY_RATE_FIELDS,
  ServiceId,
  type CurrencyTotal,
  type DatabaseQuantityKey,
  type PricedLine,
  type UnresolvedReason,
  type UsageLine,
  type UsageResponse,
} from "@cloudcost/contracts";
import { DATABASE_COLUMNS, type DatabaseRow } from "../marketplace/database-rows";
import { MODEL_COLUMNS, type ModelRow } from "../marketplace/model-rows";
import type { Sql } from "../store/sql";

/** Wide enough that products of 1e15-scale quantities and 12-decimal prices stay exact. */
const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP });
const MTOK = new Exact(1_000_000);
const COST_DECIMALS = 10;

export interface PricedUsage extends UsageResponse {
  /** Database entries the lines were priced against (found rows; reports reference them). */
  databaseIds: string[];
}

interface Options {
  labelPrefix: string;
  /** Lock the database rows read (FOR KEY SHARE) until the surrounding transaction ends. */
  lockDatabaseRows?: boolean;
}

/**
 * Prices usage lines with two queries whatever their number: every model row that shares a
 * model (provider, publisher, host, model, model_id, region) with a named model id, and every
 * named database row. Costs are exact decimals rounded half-up to 10 places.
 */
export async function priceUsage(sql: Sql, accountId: string, lines: UsageLine[], options: Options): Promise<PricedUsage> {
  const labelOf = (line: UsageLine) => {
    const key = `${options.labelPrefix}/pricing-id.${line.kind}`;
    return line.labels?.[key] ?? line.tags?.[key];
  };
  const named = lines.map(labelOf);
  const idsOf = (kind: UsageLine["kind"]) => [
    ...new Set(named.filter((id, i): id is string => lines[i].kind === kind && id !== undefined && ServiceId.safeParse(id).success)),
  ];

  const modelRows = await loadModelFamilies(sql, accountId, idsOf("model"));
  const databaseRows = await loadDatabases(sql, accountId, idsOf("database"), options.lockDatabaseRows ?? false);
  const models = new ModelIndex(modelRows);
  const databases = new Map(databaseRows.map((row) => [row.id, row]));

  const priced = lines.map((line, index): PricedLine => {
    const id = named[index];
    const base = { index, resource_id: line.resource_id, kind: line.kind, pricing_id: id ?? null };
    const unresolved = (reason: UnresolvedReason): PricedLine => ({
      ...base,
      pricing_id: id !== undefined && ServiceId.safeParse(id).success ? id : null,
      resolved: false,
      reason,
      currency: null,
      unit_prices: null,
      cost: null,
    });
    if (id === undefined) return unresolved("no_pricing_label");
    const result = line.kind === "model" ? models.price(id, line) : priceDatabase(databases.get(id), line);
    if ("reason" in result) return unresolved(result.reason);
    return { ...base, resolved: true, reason: null, ...result };
  });

  return { lines: priced, totals: totalsOf(priced), databaseIds: databaseRows.map((row) => row.id) };
}

type LinePrice = { currency: string; unit_prices: Record<string, number>; cost: number } | { reason: UnresolvedReason };

class ModelIndex {
  private byId = new Map<string, ModelRow>();
  /** Versions of each (model_key, token_bucket), any order. */
  private versions = new Map<string, ModelRow[]>();

  constructor(rows: ModelRow[]) {
    for (const row of rows) {
      this.byId.set(row.id, row);
      const key = `${row.model_key}|${row.token_bucket}`;
      const list = this.versions.get(key);
      if (list) list.push(row);
      else this.versions.set(key, [row]);
    }
  }

  price(id: string, line: UsageLine): LinePrice {
    const named = this.byId.get(id);
    if (!named) return { reason: "unknown_pricing_id" };
    const t = new Date(line.timestamp).getTime();
    if (t < named.effective_from.getTime()) return { reason: "not_yet_effective" };
    if (named.effective_to && t >= named.effective_to.getTime()) return { reason: "closed" };
    const unitPrices: Record<string, number> = {};
    let cost = new Exact(0);
    for (const [bucket, quantity] of Object.entries(line.quantities)) {
      const row = bucket === named.token_bucket ? named : this.effective(named, bucket, t);
      // A sibling in another currency cannot be added to this line's cost.
      if (!row || row.currency !== named.currency) return { reason: "bucket_not_priced" };
      const price = new Exact(row.unit_price_per_mtok);
      unitPrices[bucket] = price.toNumber();
      cost = cost.plus(new Exact(quantity).div(MTOK).times(price));
    }
    return { currency: named.currency, unit_prices: unitPrices, cost: rounded(cost) };
  }

  private effective(named: ModelRow, bucket: string, t: number): ModelRow | undefined {
    return this.versions
      .get(`${named.model_key}|${bucket}`)
      ?.find((row) => row.effective_from.getTime() <= t && (row.effective_to === null || t < row.effective_to.getTime()));
  }
}

function priceDatabase(row: DatabaseRow | undefined, line: UsageLine): LinePrice {
  if (!row) return { reason: "unknown_pricing_id" };
  const unitPrices: Record<string, number> = {};
  let cost = new Exact(0);
  for (const [key, quantity] of Object.entries(line.quantities)) {
    const rate = row[DATABASE_QUANTITY_RATE_FIELDS[key as DatabaseQuantityKey]];
    if (rate === null) return { reason: "bucket_not_priced" };
    const exactRate = new Exact(rate);
    unitPrices[key] = exactRate.toNumber();
    cost = cost.plus(new Exact(quantity).times(exactRate));
  }
  return { currency: row.currency, unit_prices: unitPrices, cost: rounded(cost) };
}

const rounded = (value: Decimal) => value.toDecimalPlaces(COST_DECIMALS, Decimal.ROUND_HALF_UP).toNumber();

function totalsOf(lines: PricedLine[]): CurrencyTotal[] {
  const sums = new Map<string, Decimal>();
  for (const line of lines) {
    if (!line.resolved || line.cost === null || line.currency === null) continue;
    sums.set(line.currency, (sums.get(line.currency) ?? new Exact(0)).plus(new Exact(line.cost)));
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, cost]) => ({ currency, cost: rounded(cost) }));
}

async function loadModelFamilies(sql: Sql, accountId: string, ids: string[]): Promise<ModelRow[]> {
  if (ids.length === 0) return [];
  return sql.$queryRawUnsafe<ModelRow[]>(
    `SELECT ${MODEL_COLUMNS} FROM model_prices
      WHERE account_id = $1
        AND model_key IN (SELECT model_key FROM model_prices
                           WHERE account_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb)))`,
    accountId,
    JSON.stringify(ids),
  );
}

async function loadDatabases(sql: Sql, accountId: string, ids: string[], lock: boolean): Promise<DatabaseRow[]> {
  if (ids.length === 0) return [];
  return sql.$queryRawUnsafe<DatabaseRow[]>(
    `SELECT ${DATABASE_COLUMNS} FROM database_prices
      WHERE account_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))
      ORDER BY id${lock ? " FOR KEY SHARE" : ""}`,
    accountId,
    JSON.stringify(ids),
  );
}
