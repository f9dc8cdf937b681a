import {
  DATABASE_QUANTITY_RATE_FIELDS,
  type CurrencyTotal,
  type DatabaseQuantityKey,
  type PricedLine,
  type UnresolvedReason,
  type UsageLine,
  type UsageResponse,
} from "@cloudcost/contracts";
import { fromNumber, parse, plus, round, type Scaled, shift, times, toNumber, ZERO } from "@cloudcost/decimal";
import { type DatabasePricingRow, findDatabasesForPricing } from "../databases/repository";
import { findModelFamilies, type ModelPricingRow } from "../models/repository";
import { keyOut } from "../store/columns";
import type { Sql } from "../store/transaction";

const COST_DECIMALS = 10;

/** ServiceId's rule, as a plain regex: it runs once per line. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const isId = (id: string | undefined): id is string => id !== undefined && ID_PATTERN.test(id);

export interface PricedUsage extends UsageResponse {
  /** Database entries the lines were priced against (found rows; reports reference them). */
  databaseIds: string[];
  /** Per line, the model of the entry that priced it (its model_id, else its model; null unresolved or a database line). */
  modelIds: (string | null)[];
}

interface Options {
  labelPrefix: string;
  /** Lock the database rows read (FOR KEY SHARE) until the surrounding transaction ends. */
  lockDatabaseRows?: boolean;
}

/**
 * Prices usage lines with two queries whatever their number: the named model rows with every
 * version of their models (provider, publisher, host, model, model_id, region) that was in effect
 * at some point between the first and the last line's timestamp, and every named database row.
 * Costs are exact decimals rounded half-up to 10 places.
 */
export async function priceUsage(sql: Sql, accountId: string, lines: UsageLine[], options: Options): Promise<PricedUsage> {
  const labelOf = (line: UsageLine) => {
    const key = `${options.labelPrefix}/pricing-id.${line.kind}`;
    return line.labels?.[key] ?? line.tags?.[key];
  };
  const named = lines.map(labelOf);
  const idsOf = (kind: UsageLine["kind"]) => [...new Set(named.filter((id, i): id is string => lines[i].kind === kind && isId(id)))];

  const modelRows = await loadModelFamilies(sql, accountId, idsOf("model"), timeSpan(lines.filter((line) => line.kind === "model")));
  const databaseRows = await loadDatabases(sql, accountId, idsOf("database"), options.lockDatabaseRows ?? false);
  const models = new ModelIndex(modelRows);
  const databases = new Map(databaseRows.map((row) => [row.id, databaseRatesOf(row)]));

  const totals = new Map<string, Scaled>();
  const modelIds: (string | null)[] = lines.map(() => null);
  const priced = lines.map((line, index): PricedLine => {
    const id = named[index];
    const base = { index, resource_id: line.resource_id, kind: line.kind, pricing_id: id ?? null };
    const unresolved = (reason: UnresolvedReason): PricedLine => ({
      ...base,
      pricing_id: isId(id) ? id : null,
      resolved: false,
      reason,
      currency: null,
      unit_prices: null,
      cost: null,
    });
    if (id === undefined) return unresolved("no_pricing_label");
    const result = line.kind === "model" ? models.price(id, line) : priceDatabase(databases.get(id), line);
    if ("reason" in result) return unresolved(result.reason);
    const cost = round(result.cost, COST_DECIMALS);
    const total = totals.get(result.currency);
    totals.set(result.currency, total ? plus(total, cost) : cost);
    modelIds[index] = result.model_id;
    return { ...base, resolved: true, reason: null, currency: result.currency, unit_prices: result.unit_prices, cost: toNumber(cost) };
  });

  // Totals add the rounded line costs, so they equal the sum of the lines a client sees.
  const currencyTotals: CurrencyTotal[] = [...totals.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, cost]) => ({ currency, cost: toNumber(cost) }));
  return { lines: priced, totals: currencyTotals, databaseIds: databaseRows.map((row) => row.id), modelIds };
}

type LinePrice = { currency: string; unit_prices: Record<string, number>; cost: Scaled; model_id: string | null } | { reason: UnresolvedReason };

interface Rate {
  exact: Scaled;
  number: number;
}
const rateOf = (text: string): Rate => ({ exact: parse(text), number: Number(text) });

/** A model row with its price parsed once per request, and its validity as epoch milliseconds. */
interface ModelVersion {
  id: string;
  modelKey: string;
  modelId: string | null;
  bucket: string;
  currency: string;
  price: Rate;
  from: number;
  to: number;
}

/** A database row with its non-null rates parsed once per request, by quantity key. */
interface DatabaseRates {
  currency: string;
  rates: Partial<Record<DatabaseQuantityKey, Rate>>;
}

class ModelIndex {
  private byId = new Map<string, ModelVersion>();
  /** Versions of each (model_key, token_bucket), any order. */
  private versions = new Map<string, ModelVersion[]>();

  constructor(rows: ModelPricingRow[]) {
    for (const row of rows) {
      const version: ModelVersion = {
        id: row.id,
        modelKey: row.model_key,
        // An entry registered without a model_id names its model by `model` alone.
        modelId: keyOut(row.model_id) ?? row.model,
        bucket: row.token_bucket,
        currency: row.currency,
        price: rateOf(row.unit_price_per_mtok),
        from: row.effective_from.getTime(),
        to: row.effective_to ? row.effective_to.getTime() : Infinity,
      };
      this.byId.set(row.id, version);
      const key = `${row.model_key}|${row.token_bucket}`;
      const list = this.versions.get(key);
      if (list) list.push(version);
      else this.versions.set(key, [version]);
    }
  }

  price(id: string, line: UsageLine): LinePrice {
    const named = this.byId.get(id);
    if (!named) return { reason: "unknown_pricing_id" };
    const t = Date.parse(line.timestamp);
    if (t < named.from) return { reason: "not_yet_effective" };
    if (t >= named.to) return { reason: "closed" };
    const unitPrices: Record<string, number> = {};
    let cost = ZERO;
    for (const bucket in line.quantities) {
      const version = bucket === named.bucket ? named : this.effective(named, bucket, t);
      // A sibling in another currency cannot be added to this line's cost.
      if (!version || version.currency !== named.currency) return { reason: "bucket_not_priced" };
      unitPrices[bucket] = version.price.number;
      cost = plus(cost, times(fromNumber(line.quantities[bucket]), version.price.exact));
    }
    return { currency: named.currency, unit_prices: unitPrices, cost: shift(cost, 6), model_id: named.modelId }; // prices are per million tokens
  }

  private effective(named: ModelVersion, bucket: string, t: number): ModelVersion | undefined {
    return this.versions.get(`${named.modelKey}|${bucket}`)?.find((version) => version.from <= t && t < version.to);
  }
}

function databaseRatesOf(row: DatabasePricingRow): DatabaseRates {
  const rates: DatabaseRates["rates"] = {};
  for (const [key, column] of Object.entries(DATABASE_QUANTITY_RATE_FIELDS) as [DatabaseQuantityKey, keyof DatabasePricingRow][]) {
    const text = row[column];
    if (text !== null) rates[key] = rateOf(text);
  }
  return { currency: row.currency, rates };
}

function priceDatabase(entry: DatabaseRates | undefined, line: UsageLine): LinePrice {
  if (!entry) return { reason: "unknown_pricing_id" };
  const unitPrices: Record<string, number> = {};
  let cost = ZERO;
  for (const key in line.quantities) {
    const rate = entry.rates[key as DatabaseQuantityKey];
    if (!rate) return { reason: "bucket_not_priced" };
    unitPrices[key] = rate.number;
    cost = plus(cost, times(fromNumber(line.quantities[key]), rate.exact));
  }
  return { currency: entry.currency, unit_prices: unitPrices, cost, model_id: null };
}

/** Earliest and latest timestamp of the lines. */
function timeSpan(lines: UsageLine[]): { from: Date; to: Date } {
  let from = Infinity;
  let to = -Infinity;
  for (const line of lines) {
    const t = Date.parse(line.timestamp);
    if (t < from) from = t;
    if (t > to) to = t;
  }
  return { from: new Date(from), to: new Date(to) };
}

/**
 * The named rows, and the versions of their models in effect somewhere in [span.from, span.to]:
 * a line at t prices a sibling bucket with the version where effective_from <= t < effective_to,
 * so no other version can matter.
 */
async function loadModelFamilies(sql: Sql, accountId: string, ids: string[], span: { from: Date; to: Date }): Promise<ModelPricingRow[]> {
  return ids.length === 0 ? [] : findModelFamilies(sql, accountId, ids, span);
}

async function loadDatabases(sql: Sql, accountId: string, ids: string[], lock: boolean): Promise<DatabasePricingRow[]> {
  return ids.length === 0 ? [] : findDatabasesForPricing(sql, accountId, ids, lock);
}
