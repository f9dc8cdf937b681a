import { Decimal } from "@cloudcost/decimal";
import type { ComputePrice, ComputePriceQuery, InstanceTypeRow, InstanceTypesQuery } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import { monthly, type ComputeCatalog, type FittedRate, type IndexedRow, type RowAttributes } from "./catalog";
import { type AccountComputePrices, effectiveHourly, type NegotiatedRate } from "../compute-prices/negotiated";
import { DEFAULT_CPU_RATE, DEFAULT_RAM_RATE } from "./catalog-repository";

/**
 * Windows Server licence uplift per vCPU-hour, added to the Linux price where the catalog has no
 * Windows row. 0.046 USD is GCP's published Windows Server (on-demand) licence per vCPU-hour (the
 * catalog's GCP windows rows are exactly Linux + 0.046 x vCPU for standard types) and matches AWS's
 * Windows uplift for most current-generation types.
 */
export const WINDOWS_LICENCE_PER_VCPU_HOUR = "0.046";

const DEFAULT_SERVICE = "compute";

export const priceNotFound = (detail: string) => new HttpError("price_not_found", detail);

const DEFAULT_RATE = { cpuRate: DEFAULT_CPU_RATE, ramRate: DEFAULT_RAM_RATE, method: "opencost_default", sampleRows: 0 } as const;

const rounded = (hourly: Decimal) => hourly.toDecimalPlaces(10, Decimal.ROUND_HALF_UP);

interface Priced {
  instanceType: string | null;
  architecture: ComputePrice["architecture"];
  cpuCores: number;
  ramGb: number;
  currency: ComputePrice["currency"];
  pricePerHour: number;
  pricePerMonth: number;
  listPricePerHour: number;
  source: ComputePrice["source"];
  pricingId: string | null;
  note: string | null;
  attributes: RowAttributes;
}

// An estimate from a vm shape alone: the type is unknown, so is everything the catalog would say about it.
const UNKNOWN_TYPE: RowAttributes = {
  current_generation: null,
  accelerator: null,
  burst_baseline_percent: null,
  local_storage_gb: null,
  capabilities: null,
  price_date: null,
  price_source: null,
};

// One object literal with every field: spreading a base object and adding fields costs more than
// the catalog lookup itself (docs/performance.md, "Compute price query").
const answer = (q: ComputePriceQuery, p: Priced): ComputePrice => ({
  provider: q.provider,
  region: q.region,
  service: q.service,
  usage_type: q.usage_type,
  operating_system: q.operating_system,
  instance_type: p.instanceType,
  architecture: p.architecture,
  cpu_cores: p.cpuCores,
  ram_gb: p.ramGb,
  currency: p.currency,
  price_per_hour: p.pricePerHour,
  price_per_month: p.pricePerMonth,
  list_price_per_hour: p.listPricePerHour,
  source: p.source,
  pricing_id: p.pricingId,
  note: p.note,
  current_generation: p.attributes.current_generation,
  accelerator: p.attributes.accelerator,
  burst_baseline_percent: p.attributes.burst_baseline_percent,
  local_storage_gb: p.attributes.local_storage_gb,
  capabilities: p.attributes.capabilities,
  price_date: p.attributes.price_date,
  price_source: p.attributes.price_source,
});

function describeRate(q: ComputePriceQuery, rate: Pick<FittedRate, "cpuRate" | "ramRate" | "method" | "sampleRows">): string {
  const rates = `${rate.cpuRate} USD per vCPU-hour and ${rate.ramRate} USD per GB-hour`;
  return rate.method === "least_squares"
    ? `Estimated from ${rates}, fitted to ${rate.sampleRows} general-purpose on-demand Linux types of ${q.provider} ${q.region}.`
    : `Estimated from OpenCost's default rates (${rates}): the catalog has too little data for ${q.provider} ${q.region}.`;
}

const windowsNote = (cores: number) =>
  `No Windows price in the catalog: Linux price plus a Windows Server licence of ${WINDOWS_LICENCE_PER_VCPU_HOUR} USD per vCPU-hour x ${cores} vCPU.`;

/** The price fields of an answer: the list price, or the account's negotiated price beside it. */
function priced(list: Decimal, listPerHour: number, listPerMonth: number, source: ComputePrice["source"], rate: NegotiatedRate | undefined) {
  if (!rate) return { pricePerHour: listPerHour, pricePerMonth: listPerMonth, listPricePerHour: listPerHour, source, pricingId: null };
  const hourly = effectiveHourly(rate, list);
  return {
    pricePerHour: hourly.toNumber(),
    pricePerMonth: monthly(hourly).toNumber(),
    listPricePerHour: listPerHour,
    source: "negotiated" as const,
    pricingId: rate.id,
  };
}

/** What a negotiated entry is matched against for a catalog row priced as `os` / `usage`. */
const typeOf = (row: IndexedRow["row"], os: string, usage: string) => ({
  provider: row.provider,
  region: row.region,
  instanceType: row.instanceType,
  family: row.family,
  operatingSystem: os,
  usageType: usage,
  currency: row.currency,
});

const catalogAnswer = (q: ComputePriceQuery, hit: IndexedRow, rate?: NegotiatedRate): ComputePrice =>
  answer(q, {
    instanceType: hit.row.instanceType,
    architecture: hit.row.architecture,
    cpuCores: hit.cpuCores,
    ramGb: hit.ramGb,
    currency: hit.row.currency,
    ...priced(hit.hourly, hit.pricePerHour, hit.pricePerMonth, "catalog", rate),
    note: null,
    attributes: hit.attributes,
  });

/**
 * The JSON answer to one validated query. An exact catalog hit for the default service (what the
 * right-sizing engine asks, over and over) is serialised once per catalog row: the answer echoes
 * only fields the exact match guarantees equal to the row's. For an account with negotiated entries
 * the answer is serialised once per row in that account's own cache (`prices`), never in the row.
 */
export function priceComputeJson(catalog: ComputeCatalog, q: ComputePriceQuery, prices?: AccountComputePrices): string {
  if (q.instance_type !== undefined && q.service === DEFAULT_SERVICE) {
    const hit = catalog.find(q.provider, q.region, q.instance_type, q.operating_system, q.usage_type);
    if (hit) {
      if (prices === undefined || prices.size === 0) {
        hit.answerJson ??= JSON.stringify(catalogAnswer(q, hit));
        return hit.answerJson;
      }
      const now = Date.now();
      return prices.answer(hit, now, () => JSON.stringify(catalogAnswer(q, hit, prices.applicable(typeOf(hit.row, q.operating_system, q.usage_type), now))));
    }
  }
  return JSON.stringify(priceCompute(catalog, q, prices));
}

/**
 * Prices one validated query from the in-process catalog (no database work), with the account's
 * negotiated entries (`prices`) applied to a known instance type.
 */
export function priceCompute(catalog: ComputeCatalog, q: ComputePriceQuery, prices?: AccountComputePrices): ComputePrice {
  const now = Date.now();
  if (q.instance_type !== undefined) {
    const hit = catalog.find(q.provider, q.region, q.instance_type, q.operating_system, q.usage_type);
    if (hit) return catalogAnswer(q, hit, prices?.applicable(typeOf(hit.row, q.operating_system, q.usage_type), now));
    if (q.operating_system === "windows" && q.usage_type === "on_demand") {
      const linux = catalog.find(q.provider, q.region, q.instance_type, "linux", "on_demand");
      if (linux) {
        const hourly = rounded(linux.hourly.plus(new Decimal(WINDOWS_LICENCE_PER_VCPU_HOUR).mul(linux.row.cpuCores)));
        const rate = prices?.applicable(typeOf(linux.row, "windows", "on_demand"), now);
        return answer(q, {
          instanceType: linux.row.instanceType,
          architecture: linux.row.architecture,
          cpuCores: linux.cpuCores,
          ramGb: linux.ramGb,
          currency: linux.row.currency,
          ...priced(hourly, hourly.toNumber(), monthly(hourly).toNumber(), "estimate", rate),
          note: windowsNote(linux.cpuCores),
          // The same type, priced from its Linux row: its attributes, price date and source are that row's.
          attributes: linux.attributes,
        });
      }
    }
  }
  const searched = `${q.usage_type} ${q.operating_system} price for ${q.instance_type === undefined ? "a vm shape" : `instance type "${q.instance_type}"`} in ${q.provider} ${q.region}`;
  if (q.usage_type === "spot") throw priceNotFound(`No ${searched} in the catalog (spot prices are never estimated).`);
  if (!q.vm) throw priceNotFound(`No ${searched} in the catalog, and no vm (cpu_cores, ram_gb) was given to estimate from.`);

  const rate = catalog.rate(q.provider, q.region) ?? DEFAULT_RATE;
  let hourly = new Decimal(rate.cpuRate).mul(q.vm.cpu_cores).plus(new Decimal(rate.ramRate).mul(q.vm.ram_gb));
  let note = describeRate(q, rate);
  if (q.operating_system === "windows") {
    hourly = hourly.plus(new Decimal(WINDOWS_LICENCE_PER_VCPU_HOUR).mul(q.vm.cpu_cores));
    note += ` ${windowsNote(q.vm.cpu_cores)}`;
  }
  const hourlyRounded = rounded(hourly);
  return answer(q, {
    instanceType: q.instance_type ?? null,
    architecture: null,
    cpuCores: q.vm.cpu_cores,
    ramGb: q.vm.ram_gb,
    currency: "USD",
    ...priced(hourlyRounded, hourlyRounded.toNumber(), monthly(hourlyRounded).toNumber(), "estimate", undefined),
    note,
    attributes: UNKNOWN_TYPE,
  });
}

/** Catalog rows of one provider and region matching the filters, sorted by instance type, at the account's negotiated prices. */
export function listInstanceTypes(catalog: ComputeCatalog, q: InstanceTypesQuery, prices?: AccountComputePrices): InstanceTypeRow[] {
  const rows: InstanceTypeRow[] = [];
  const now = Date.now();
  for (const r of catalog.region(q.provider, q.region)) {
    if (r.row.operatingSystem !== q.operating_system || r.row.usageType !== q.usage_type) continue;
    if (q.architecture !== undefined && r.row.architecture !== q.architecture) continue;
    const rate = prices && prices.size > 0 ? prices.applicable(typeOf(r.row, r.row.operatingSystem, r.row.usageType), now) : undefined;
    rows.push(rate ? { ...r.listing, price_per_hour: effectiveHourly(rate, r.hourly).toNumber(), source: "negotiated", pricing_id: rate.id } : r.listing);
  }
  return rows;
}
