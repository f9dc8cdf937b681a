import { DATABASE_NUMBER_FIELDS, DATABASE_OPTIONAL_KEY_FIELDS, type DatabasePricingEntry, type DatabasePricingEntryData } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num, storedAmount } from "../store/columns";
import { sha256 } from "../store/hash";
import { type DatabaseRow, KEY_TEXT_FIELDS } from "./repository";

export const DATABASE_KEY_FIELDS = [...KEY_TEXT_FIELDS, "period_billing_hours"] as const;

/** sha256 of the 13 natural-key fields, absent ones as '' (the upsert's conflict target). */
export function databaseKeyHash(entry: DatabasePricingEntryData): string {
  const parts = DATABASE_KEY_FIELDS.map((field) => (field === "period_billing_hours" ? storedAmount(entry.period_billing_hours) : keyIn(entry[field])));
  return sha256(JSON.stringify(parts));
}

export function toDatabaseEntry(row: DatabaseRow): DatabasePricingEntry {
  const entry = {
    id: row.id,
    provider: row.provider,
    service: row.service,
    region: row.region,
    ...Object.fromEntries(DATABASE_OPTIONAL_KEY_FIELDS.map((field) => [field, keyOut(row[field])])),
    period_billing_hours: num(row.period_billing_hours),
    currency: row.currency,
    capacity_unit: row.capacity_unit,
    ...Object.fromEntries(DATABASE_NUMBER_FIELDS.map((field) => [field, num(row[field])])),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    raw_pricing_data: row.raw_pricing_data,
    tags: row.tags,
  };
  return entry as DatabasePricingEntry;
}
