import type { ModelPricingEntry, ModelPricingEntryData, TokenBucket } from "@cloudcost/contracts";
import { iso, keyIn, keyOut, num } from "../store/columns";
import { sha256 } from "../store/hash";
import { type ModelRow, modelDetailsOf } from "./repository";

export const IDENTITY_FIELDS = ["provider", "publisher", "host", "model", "model_id", "region"] as const;

/** sha256 of the normalised (provider, publisher, host, model, model_id, region): one model of one host. */
export function modelKeyOf(entry: Partial<Record<(typeof IDENTITY_FIELDS)[number], string | null>>): string {
  return sha256(JSON.stringify(IDENTITY_FIELDS.map((field) => keyIn(entry[field]))));
}

export function toModelEntry(row: ModelRow): ModelPricingEntry {
  return {
    id: row.id,
    provider: row.provider,
    publisher: keyOut(row.publisher),
    host: keyOut(row.host),
    model: row.model,
    model_id: keyOut(row.model_id),
    region: keyOut(row.region),
    token_bucket: row.token_bucket as TokenBucket,
    unit_price_per_mtok: num(row.unit_price_per_mtok),
    currency: row.currency,
    effective_from: iso(row.effective_from),
    effective_to: iso(row.effective_to),
    ...modelDetailsOf(row),
  };
}

/** The fields a registration with an unchanged price updates in place (everything but identity, price, validity). */
export type ModelDetails = Pick<
  ModelRow,
  | "fetched_at"
  | "sku_price_id"
  | "source"
  | "source_url"
  | "context_limit"
  | "output_limit"
  | "modalities_input"
  | "modalities_output"
  | "open_weights"
  | "reasoning"
  | "structured_output"
  | "tool_call"
  | "raw_pricing_data"
  | "tags"
>;

export function detailsOf(entry: ModelPricingEntryData): ModelDetails {
  return {
    fetched_at: entry.fetched_at ? new Date(entry.fetched_at) : null,
    sku_price_id: entry.sku_price_id ?? null,
    source: entry.source ?? null,
    source_url: entry.source_url ?? null,
    context_limit: entry.context_limit ?? null,
    output_limit: entry.output_limit ?? null,
    modalities_input: entry.modalities_input ?? [],
    modalities_output: entry.modalities_output ?? [],
    open_weights: entry.open_weights ?? null,
    reasoning: entry.reasoning ?? null,
    structured_output: entry.structured_output ?? null,
    tool_call: entry.tool_call ?? null,
    raw_pricing_data: entry.raw_pricing_data ?? {},
    tags: entry.tags ?? {},
  };
}

/** Whether applying `details` would change `row` (object key order ignored, as jsonb does). */
export function detailsDiffer(row: ModelRow, details: ModelDetails): boolean {
  return (Object.keys(details) as (keyof ModelDetails)[]).some((field) => canonical(row[field]) !== canonical(details[field]));
}

function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
