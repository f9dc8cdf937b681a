import type { ComputePricingEntry, ComputePricingEntryData, ComputeUsageType, OperatingSystem } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num, storedAmount } from "../store/columns";
import { type ComputeRow, IDENTITY_COLUMNS } from "./repository";

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
