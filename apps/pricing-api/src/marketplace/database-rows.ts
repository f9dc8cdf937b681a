import { DATABASE_NUMBER_FIELDS, DATABASE_OPTIONAL_KEY_FIELDS, type DatabasePricingEntry, type DatabasePricingEntryData } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num, storedAmount } from "../store/columns";
import { sha256 } from "../store/hash";

type OptionalKeyField = (typeof DATABASE_OPTIONAL_KEY_FIELDS)[number];
type NumberField = (typeof DATABASE_NUMBER_FIELDS)[number];

/** A database_prices row as selected by DATABASE_COLUMNS (numerics as text). */
export type DatabaseRow = {
  id: string;
  key_hash: string;
  provider: string;
  service: string;
  region: string;
  period_billing_hours: string;
  currency: string;
  capacity_unit: string | null;
  raw_pricing_data: Record<string, unknown>;
  tags: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
} & { [K in OptionalKeyField]: string } & { [K in NumberField]: string | null };

export const DATABASE_KEY_FIELDS = ["provider", "service", "region", ...DATABASE_OPTIONAL_KEY_FIELDS, "period_billing_hours"] as const;

export const DATABASE_COLUMNS = [
  "id",
  "key_hash",
  "provider",
  "service",
  "region",
  ...DATABASE_OPTIONAL_KEY_FIELDS,
  "period_billing_hours::text AS period_billing_hours",
  "currency",
  "capacity_unit",
  ...DATABASE_NUMBER_FIELDS.map((field) => `${field}::text AS ${field}`),
  "raw_pricing_data",
  "tags",
  "created_at",
  "updated_at",
].join(", ");

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
