import Decimal from "decimal.js";
import type { ComputePrice, ComputePriceQuery, InstanceTypeRow, InstanceTypesQuery } from "@cloudcost/contracts";
import { HttpError } from "@cloudcost/http";
import { monthly, type ComputeCatalog, type FittedRate } from "./catalog";
import { DEFAULT_CPU_RATE, DEFAULT_RAM_RATE } from "./catalog-repository";

/**
 * Windows Server licence uplift per vCPU-hour, added to the Linux price where the catalog has no
 * Windows row. 0.046 USD is GCP's published Windows Server (on-demand) licence per vCPU-hour (the
 * catalog's GCP windows rows are exactly Linux + 0.046 x vCPU for standard types) and matches AWS's
 * Windows uplift for most current-generation types.
 */
export const WINDOWS_LICENCE_PER_VCPU_HOUR = "0.046";

export const priceNotFound = (detail: string) => new HttpError(404, "price_not_found", detail);

const DEFAULT_RATE = { cpuRate: DEFAULT_CPU_RATE, ramRate: DEFAULT_RAM_RATE, method: "opencost_default", sampleRows: 0 } as const;

const hourlyAndMonthly = (hourly: Decimal) => {
  const rounded = hourly.toDecimalPlaces(10, Decimal.ROUND_HALF_UP);
  return { price_per_hour: rounded.toNumber(), price_per_month: monthly(rounded).toNumber() };
};

function describeRate(q: ComputePriceQuery, rate: Pick<FittedRate, "cpuRate" | "ramRate" | "method" | "sampleRows">): string {
  const rates = `${rate.cpuRate} USD per vCPU-hour and ${rate.ramRate} USD per GB-hour`;
  return rate.method === "least_squares"
    ? `Estimated from ${rates}, fitted to ${rate.sampleRows} general-purpose on-demand Linux types of ${q.provider} ${q.region}.`
    : `Estimated from OpenCost's default rates (${rates}): the catalog has too little data for ${q.provider} ${q.region}.`;
}

const windowsNote = (cores: number) =>
  `No Windows price in the catalog: Linux price plus a Windows Server licence of ${WINDOWS_LICENCE_PER_VCPU_HOUR} USD per vCPU-hour x ${cores} vCPU.`;

/** Prices one validated query from the in-process catalog (no database work). */
export function priceCompute(catalog: ComputeCatalog, q: ComputePriceQuery): ComputePrice {
  const base = { provider: q.provider, region: q.region, service: q.service, usage_type: q.usage_type, operating_system: q.operating_system };
  if (q.instance_type !== undefined) {
    const hit = catalog.find(q.provider, q.region, q.instance_type, q.operating_system, q.usage_type);
    if (hit) {
      return {
        ...base,
        instance_type: hit.row.instanceType,
        architecture: hit.row.architecture,
        cpu_cores: hit.cpuCores,
        ram_gb: hit.ramGb,
        currency: hit.row.currency,
        price_per_hour: hit.pricePerHour,
        price_per_month: hit.pricePerMonth,
        source: "catalog",
        note: null,
      };
    }
    if (q.operating_system === "windows" && q.usage_type === "on_demand") {
      const linux = catalog.find(q.provider, q.region, q.instance_type, "linux", "on_demand");
      if (linux) {
        const hourly = linux.hourly.plus(new Decimal(WINDOWS_LICENCE_PER_VCPU_HOUR).mul(linux.row.cpuCores));
        return {
          ...base,
          instance_type: linux.row.instanceType,
          architecture: linux.row.architecture,
          cpu_cores: linux.cpuCores,
          ram_gb: linux.ramGb,
          currency: linux.row.currency,
          ...hourlyAndMonthly(hourly),
          source: "estimate",
          note: windowsNote(linux.cpuCores),
        };
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
  return {
    ...base,
    instance_type: q.instance_type ?? null,
    architecture: null,
    cpu_cores: q.vm.cpu_cores,
    ram_gb: q.vm.ram_gb,
    currency: "USD",
    ...hourlyAndMonthly(hourly),
    source: "estimate",
    note,
  };
}

/** Catalog rows of one provider and region matching the filters, sorted by instance type. */
export function listInstanceTypes(catalog: ComputeCatalog, q: InstanceTypesQuery): InstanceTypeRow[] {
  const rows: InstanceTypeRow[] = [];
  for (const r of catalog.region(q.provider, q.region)) {
    if (r.row.operatingSystem !== q.operating_system || r.row.usageType !== q.usage_type) continue;
    if (q.architecture !== undefined && r.row.architecture !== q.architecture) continue;
    rows.push(r.listing);
  }
  return rows;
}
