import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ByteWriter, parquetWrite } from "hyparquet-writer";
import type { AsyncBuffer } from "hyparquet";

export const FOCUS_FIXTURES = join(__dirname, "..", "fixtures", "focus");
export const fixture = (name: string): Buffer => readFileSync(join(FOCUS_FIXTURES, name));
export const streamOf = (content: string | Buffer): Readable => Readable.from([Buffer.from(content)]);

export const asyncBufferOf = (bytes: ArrayBuffer): AsyncBuffer => ({ byteLength: bytes.byteLength, slice: (start, end) => bytes.slice(start, end) });

/** The mandatory FOCUS 1.0-1.2 columns with plausible values, for building small CSV cases. */
export const FOCUS_ROW: Record<string, string> = {
  BilledCost: "1.5",
  BillingAccountId: "acct-1",
  BillingAccountName: "Acct",
  BillingCurrency: "USD",
  BillingPeriodEnd: "2026-11-01T00:00:00Z",
  BillingPeriodStart: "2026-10-01T00:00:00Z",
  ChargeCategory: "Usage",
  ChargeClass: "",
  ChargeDescription: "",
  ChargePeriodEnd: "2026-10-02T00:00:00Z",
  ChargePeriodStart: "2026-10-01T00:00:00Z",
  ContractedCost: "1.5",
  EffectiveCost: "1.5",
  InvoiceIssuerName: "Cloud",
  ListCost: "1.5",
  PricingQuantity: "1",
  PricingUnit: "Hours",
  ProviderName: "Cloud",
  PublisherName: "Cloud",
  ServiceCategory: "Compute",
  ServiceName: "VMs",
};

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A CSV file of `rows` (each merged over FOCUS_ROW; a key set to undefined drops the column). */
export function focusCsvText(rows: Array<Record<string, string | undefined>>, extraColumns: string[] = []): string {
  const merged = rows.map((r) => ({ ...FOCUS_ROW, ...r }));
  const columns = [...Object.keys(FOCUS_ROW), ...extraColumns].filter((c) => merged.every((r) => r[c] !== undefined) || extraColumns.includes(c));
  const lines = [columns.join(","), ...merged.map((r) => columns.map((c) => quote(r[c] ?? "")).join(","))];
  return `${lines.join("\n")}\n`;
}

/** A small FOCUS 1.2 Parquet file the way a warehouse writes one: DECIMAL costs, TIMESTAMP periods, JSON tags. */
export function focusParquet(rows: number, tags: (i: number) => Record<string, unknown> | null = (i) => (i % 2 ? { team: "t" } : null)): ArrayBuffer {
  const strings = (v: (i: number) => string | null) => Array.from({ length: rows }, (_, i) => v(i));
  const columns: Array<{ name: string; data: unknown[]; element: Record<string, unknown> }> = [];
  const add = (name: string, data: unknown[], element: Record<string, unknown>) =>
    columns.push({ name, data, element: { name, repetition_type: "OPTIONAL", ...element } });
  const str = (name: string, v: (i: number) => string | null) => add(name, strings(v), { type: "BYTE_ARRAY", converted_type: "UTF8" });
  const dec = (name: string, v: (i: number) => bigint) =>
    add(
      name,
      Array.from({ length: rows }, (_, i) => v(i)),
      { type: "FIXED_LEN_BYTE_ARRAY", type_length: 16, converted_type: "DECIMAL", precision: 38, scale: 18 },
    );
  const ts = (name: string, v: (i: number) => Date) =>
    add(
      name,
      Array.from({ length: rows }, (_, i) => v(i)),
      { type: "INT64", converted_type: "TIMESTAMP_MILLIS" },
    );
  // 0.000000000000000001 * (i + 1) and -0.25: exact only if read without a float.
  dec("BilledCost", (i) => BigInt(i + 1));
  dec("EffectiveCost", (i) => BigInt(i + 1));
  dec("ContractedCost", () => -250000000000000000n);
  dec("ListCost", (i) => BigInt(i + 1) * 10n ** 18n + 1n);
  add(
    "PricingQuantity",
    Array.from({ length: rows }, () => 12345n),
    { type: "INT64", converted_type: "DECIMAL", precision: 18, scale: 3 },
  );
  str("BillingAccountId", () => "pq-acct");
  str("BillingAccountName", () => "PQ");
  str("BillingAccountType", () => "Account");
  str("BillingCurrency", () => "USD");
  ts("BillingPeriodStart", () => new Date("2026-10-01T00:00:00Z"));
  ts("BillingPeriodEnd", () => new Date("2026-11-01T00:00:00Z"));
  str("ChargeCategory", () => "Usage");
  str("ChargeClass", () => null);
  str("ChargeDescription", () => null);
  ts("ChargePeriodStart", (i) => new Date(Date.UTC(2026, 9, 1, i % 24)));
  ts("ChargePeriodEnd", (i) => new Date(Date.UTC(2026, 9, 1, (i % 24) + 1)));
  str("InvoiceIssuerName", () => "Cloud");
  str("PricingUnit", () => "Hours");
  str("ProviderName", () => "Cloud");
  str("PublisherName", () => "Cloud");
  str("ServiceCategory", () => "Storage");
  str("ServiceName", () => "Blob");
  str("SubAccountId", (i) => `sub-${i % 3}`);
  add(
    "Tags",
    Array.from({ length: rows }, (_, i) => tags(i)),
    { type: "BYTE_ARRAY", converted_type: "JSON" },
  );
  const writer = new ByteWriter();
  parquetWrite({
    writer,
    columnData: columns.map((c) => ({ name: c.name, data: c.data as never })),
    schema: [{ name: "root", num_children: columns.length }, ...columns.map((c) => c.element)] as never,
    rowGroupSize: 2000,
  });
  return writer.getBuffer();
}

/**
 * A FOCUS Parquet file of `rows` alike rows (costs as text, periods as timestamps), written as
 * `rowGroupSize` rows per row group and one page per column chunk unless `pageSize` says otherwise:
 * a few kilobytes whatever `rows` is. `resourceName` (one value, kept once in the column's
 * dictionary) and `tags` (JSON) add those columns.
 */
export function alikeFocusParquet(
  rows: number,
  options: { rowGroupSize?: number; pageSize?: number; resourceName?: string; tags?: Record<string, unknown> } = {},
): ArrayBuffer {
  const columns: Array<{ name: string; data: unknown[]; element: Record<string, unknown> }> = [];
  const add = (name: string, value: unknown, element: Record<string, unknown>) =>
    columns.push({ name, data: new Array(rows).fill(value), element: { name, repetition_type: "OPTIONAL", ...element } });
  const text = { type: "BYTE_ARRAY", converted_type: "UTF8" };
  const time = { type: "INT64", converted_type: "TIMESTAMP_MILLIS" };
  for (const [name, value] of Object.entries(FOCUS_ROW)) {
    if (name.endsWith("PeriodStart") || name.endsWith("PeriodEnd")) add(name, new Date(value), time);
    else add(name, value === "" ? null : value, text);
  }
  if (options.resourceName !== undefined) add("ResourceName", options.resourceName, text);
  if (options.tags !== undefined) add("Tags", options.tags, { type: "BYTE_ARRAY", converted_type: "JSON" });
  const writer = new ByteWriter();
  parquetWrite({
    writer,
    columnData: columns.map((c) => ({ name: c.name, data: c.data as never })),
    schema: [{ name: "root", num_children: columns.length }, ...columns.map((c) => c.element)] as never,
    rowGroupSize: options.rowGroupSize ?? rows,
    pageSize: options.pageSize ?? 1 << 30,
    // Statistics triple the time to write a large file, and no reader here needs them.
    statistics: false,
  });
  return writer.getBuffer();
}
