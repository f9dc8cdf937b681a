import { DECIMAL_MAX_INTEGER_DIGITS, type InternalPricedLine, type UsageLine } from "@cloudcost/contracts";
import { fromNumber, plus, round, type Scaled, shift, times, toText, ZERO } from "@cloudcost/decimal";
import { AMOUNT_PLACES } from "./amounts";
import type { LedgerLineInput } from "./lines-repository";

const HOUR_MS = 3_600_000;

/** A batch's lines repeat the same few unit prices: each distinct number is converted once. */
const prices = new Map<number, { scaled: Scaled; text: string }>();
function priceOf(value: number): { scaled: Scaled; text: string } {
  let price = prices.get(value);
  if (!price) {
    if (prices.size >= 10_000) prices.clear();
    const scaled = fromNumber(value);
    price = { scaled, text: toText(scaled) };
    prices.set(value, price);
  }
  return price;
}

/** FOCUS 1.2 ServiceCategory of each usage kind. */
const SERVICE_CATEGORY = { model: "AI and Machine Learning", database: "Databases" } as const;
const SERVICE_NAME = { model: "Model usage", database: "Database usage" } as const;

/**
 * The exact cost of a priced line: Σ quantity × unit price (model prices are per million tokens),
 * rounded half-up to 10 places. Computed here from the unit prices rather than taken from the
 * pricing API's `cost`, a JSON number that cannot hold every sum exactly; a unit price and a
 * quantity are each the decimal they print as (registered prices keep at most 15 significant
 * digits through a double).
 */
export function lineCost(line: UsageLine, unitPrices: Record<string, number>): string {
  let cost = ZERO;
  for (const [key, quantity] of Object.entries(line.quantities)) cost = plus(cost, times(fromNumber(quantity), priceOf(unitPrices[key] ?? 0).scaled));
  // Per million tokens: six more places, exactly.
  if (line.kind === "model") cost = shift(cost, 6);
  return toText(round(cost, AMOUNT_PLACES));
}

/** Whether a line cost (exact text) is past what the ledger keeps: 10^18 or more in absolute value, as any decimal a client sends. */
export function costOutOfRange(cost: string | null | undefined): boolean {
  if (!cost) return false;
  const digits = cost.indexOf(".") === -1 ? cost.length : cost.indexOf(".");
  return digits - (cost.startsWith("-") ? 1 : 0) > DECIMAL_MAX_INTEGER_DIGITS;
}

/** The line's consumed quantity and unit, which are also its pricing quantity and unit (null for a database line of several quantities). */
function consumed(line: UsageLine) {
  const entries = Object.entries(line.quantities);
  const sum = () => toText(entries.reduce((total, [, quantity]) => plus(total, fromNumber(quantity)), ZERO));
  const [quantity, unit] = line.kind === "model" ? [sum(), "Tokens"] : entries.length === 1 ? [sum(), entries[0][0]] : [null, null];
  return { consumedQuantity: quantity, consumedUnit: unit, pricingQuantity: quantity, pricingUnit: unit };
}

function stringPrices(unitPrices: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in unitPrices) out[key] = priceOf(unitPrices[key]).text;
  return out;
}

/** The ledger's state of a usage line after pricing: costs and the price entry's model, or null costs and the reason. */
export function pricedState(line: UsageLine, priced: InternalPricedLine) {
  if (!priced.resolved || priced.unit_prices === null || priced.currency === null) {
    return {
      priced: false,
      unpricedReason: priced.reason ?? "unpriced",
      pricingId: priced.pricing_id,
      unitPrices: null,
      currency: null,
      billedCost: null,
      effectiveCost: null,
      listCost: null,
      contractedCost: null,
      model: null,
    };
  }
  const cost = lineCost(line, priced.unit_prices);
  return {
    priced: true,
    unpricedReason: null,
    pricingId: priced.pricing_id,
    unitPrices: stringPrices(priced.unit_prices),
    currency: priced.currency,
    billedCost: cost,
    effectiveCost: cost,
    listCost: cost,
    contractedCost: cost,
    model: line.kind === "model" ? (priced.model_id ?? null) : null,
  };
}

/** A usage line as a ledger line of `tenantId`, with its pricing (labels or tags may name provider, region and service_name). */
export function usageLedgerLine(tenantId: string, line: UsageLine & { event_id?: string }, priced: InternalPricedLine): LedgerLineInput {
  const { event_id: eventId, ...usage } = line;
  const attribute = (key: string) => line.labels?.[key] ?? line.tags?.[key] ?? null;
  const start = Date.parse(line.timestamp);
  return {
    tenantId,
    source: "usage",
    chargePeriodStart: line.timestamp,
    // Usage is an instant: its charge period runs to the end of its hour.
    chargePeriodEnd: new Date(Math.floor(start / HOUR_MS) * HOUR_MS + HOUR_MS).toISOString(),
    chargeCategory: "Usage",
    provider: attribute("provider"),
    serviceName: attribute("service_name") ?? SERVICE_NAME[line.kind],
    serviceCategory: SERVICE_CATEGORY[line.kind],
    region: attribute("region"),
    resourceId: line.resource_id,
    chargeFrequency: "Usage-Based",
    pricingCategory: "Standard",
    tags: { ...line.labels, ...line.tags },
    ...consumed(line),
    ...pricedState(line, priced),
    eventId: eventId ?? null,
    // Kept for reprice, which only ever reads unpriced lines.
    usage: priced.resolved ? null : usage,
  };
}
