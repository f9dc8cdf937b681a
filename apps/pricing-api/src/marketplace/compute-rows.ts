import type { ComputePricingEntry, ComputePricingEntryData, ComputeUsageType, OperatingSystem } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num, storedAmount } from "../store/columns";

/** A negotiated_compute_prices row as selected by COMPUTE_COLUMNS (numerics as text). */
export interface ComputeRow {
  id: string;
  provider: string;
  region: string;
  instance_type: string;
  family: string;
  operating_system: string;
  usage_type: string;
  price_per_hour: string | null;
  discount_percent: string | null;
  currency: string;
  effective_from: Date;
  effective_to: Date | null;
  tags: Record<string, unknown>;
}

export const COMPUTE_COLUMNS = `id, provider, region, instance_type, family, operating_system, usage_type,
  price_per_hour::text AS price_per_hour, discount_percent::text AS discount_percent, currency, effective_from, effective_to, tags`;

/** The identity columns after the account: absent ones are stored as "" and match everything. */
export const IDENTITY_COLUMNS = ["provider", "region", "instance_type", "family", "operating_system", "usage_type"] as const;

export const identityOf = (row: Pick<ComputeRow, (typeof IDENTITY_COLUMNS)[number]>): string => JSON.stringify(IDENTITY_COLUMNS.map((column) => row[column]));

/** The identity of an entry as stored (absent fields as ""). */
export function storedIdentity(entry: ComputePricingEntryData): Pick<ComputeRow, (typeof IDENTITY_COLUMNS)[number]> {
  return {
    provider: entry.provider,
    region: keyIn(entry.region),
    instance_type: keyIn(entry.instance_type),
    family: keyIn(entry.family),
    operating_system: keyIn(entry.operating_system),
    usage_type: keyIn(entry.usage_type),
  };
}

/** The rate of an entry as stored: exactly one of the two is set (the schema and a CHECK constraint say so). */
export const storedRate = (entry: ComputePricingEntryData) => ({
  price_per_hour: entry.price_per_hour === undefined || entry.price_per_hour === null ? null : storedAmount(entry.price_per_hour),
  discount_percent: entry.discount_percent === undefined || entry.discount_percent === null ? null : storedAmount(entry.discount_percent),
});

export function toComputeEntry(row: ComputeRow): ComputePricingEntry {
  return {
    id: row.id,
    provider: row.provider,
    region: keyOut(row.region),
    instance_type: keyOut(row.instance_type),
    family: keyOut(row.family),
    operating_system: keyOut(row.operating_system) as OperatingSystem | null,
    usage_type: keyOut(row.usage_type) as ComputeUsageType | null,
    price_per_hour: num(row.price_per_hour),
    discount_percent: num(row.discount_percent),
    currency: row.currency,
    effective_from: iso(row.effective_from),
    effective_to: iso(row.effective_to),
    tags: row.tags,
  };
}
