import { CatalogFileError, type CatalogRow, isBurstable, isGeneralPurpose } from "../catalog-file";

/** What a provider file yields: the rows to store and the (provider, region) pairs whose rows they replace. */
export interface ImportedCatalog {
  rows: CatalogRow[];
  scopes: { provider: string; region: string }[];
  /** Counted reasons for rows left out on purpose (another term, tenancy, service ...). */
  skipped: Record<string, number>;
  warnings: string[];
}

/** The fields a provider importer extracts for one row; the catalog's derived columns are added here. */
export type ImportedRow = Omit<CatalogRow, "burstable" | "generalPurpose" | "currency" | "source"> & { place: string };

/** A file that cannot be imported, naming the place (item index, field). */
export const importError = (place: string, message: string) => new CatalogFileError(`${place}: ${message}`);

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw importError(what, `not valid JSON (${(err as Error).message})`);
  }
}

export class SkipCounter {
  readonly counts: Record<string, number> = {};
  skip(reason: string, n = 1): void {
    this.counts[reason] = (this.counts[reason] ?? 0) + n;
  }
}

const DECIMAL = /^\d{1,10}(\.\d{1,10})?$/;

/**
 * Completes the rows (burstable, general purpose, currency, source), rejects a duplicate key or a
 * value outside the catalog's columns, and lists the (provider, region) pairs the file covers.
 */
export function finishImport(rows: ImportedRow[], source: string, skipped: SkipCounter, warnings: string[] = []): ImportedCatalog {
  if (rows.length === 0) throw new CatalogFileError("the file has no row the catalog can import");
  const seen = new Map<string, string>();
  const scopes = new Map<string, { provider: string; region: string }>();
  const out: CatalogRow[] = [];
  for (const { place, ...r } of rows) {
    const key = [r.provider, r.region, r.instanceType, r.operatingSystem, r.usageType].join(" ");
    const first = seen.get(key);
    if (first !== undefined) throw importError(place, `duplicate of ${first} (${key})`);
    seen.set(key, place);
    for (const [field, value] of [
      ["vcpu", r.cpuCores],
      ["memory", r.ramGb],
      ["price", r.pricePerHour],
    ] as const) {
      if (!DECIMAL.test(value)) throw importError(place, `${field} "${value}" is not a non-negative decimal number`);
    }
    if (Number(r.cpuCores) <= 0 || Number(r.ramGb) <= 0) throw importError(place, "vcpu and memory must be greater than 0");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(r.priceDate)) throw importError(place, `price date "${r.priceDate}" is not a date`);
    scopes.set(`${r.provider} ${r.region}`, { provider: r.provider, region: r.region });
    out.push({
      ...r,
      burstable: isBurstable(r.provider, r.family, r.instanceType),
      generalPurpose: isGeneralPurpose(r.provider, r.family),
      currency: "USD",
      source,
    });
  }
  return { rows: out, scopes: [...scopes.values()], skipped: skipped.counts, warnings };
}

/** Trims trailing zeros of a decimal text ("16.000" -> "16"). */
export const stripZeros = (value: string) => (value.includes(".") ? value.replace(/\.?0+$/, "") : value);
