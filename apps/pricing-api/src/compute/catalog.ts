import { Decimal } from "@cloudcost/decimal";
import type { ComputePrice, ComputeUsageType, InstanceTypeRow, OperatingSystem } from "@cloudcost/contracts";
import type { CatalogRow } from "./catalog-file";
import { attributeRules, committedAttributeRules, type AttributeRules } from "./catalog-attributes";

export const HOURS_PER_MONTH = 730;

export interface FittedRate {
  provider: string;
  region: string;
  cpuRate: string;
  ramRate: string;
  sampleRows: number;
  method: "least_squares" | "opencost_default";
}

/** A catalog row with what every answer needs computed once, at build time. */
export interface IndexedRow {
  row: CatalogRow;
  hourly: Decimal;
  pricePerHour: number;
  pricePerMonth: number;
  cpuCores: number;
  ramGb: number;
  /** What the row's type is, where its price came from and how old it is, as every answer carries it. */
  attributes: RowAttributes;
  listing: InstanceTypeRow;
  /** The JSON answer for the default service, serialised on first use (compute/service.ts). */
  answerJson?: string;
}

export type RowAttributes = Required<
  Pick<ComputePrice, "current_generation" | "accelerator" | "burst_baseline_percent" | "local_storage_gb" | "capabilities" | "price_date" | "price_source">
>;

/** `github:<owner>/<repo>@<commit>` names a repository snapshot; anything else (`import`) has no address. */
export function priceSource(source: string): RowAttributes["price_source"] {
  const github = /^github:([\w.-]+\/[\w.-]+)@([0-9a-f]{7,40})$/.exec(source);
  return { name: source, url: github ? `https://github.com/${github[1]}/tree/${github[2]}` : null };
}

function rowAttributes(row: CatalogRow, rules: AttributeRules): RowAttributes {
  const a = rules(row);
  return {
    current_generation: a.currentGeneration,
    accelerator: a.accelerator,
    burst_baseline_percent: a.burstBaselinePercent,
    local_storage_gb: a.localStorageGb,
    capabilities: a.capabilities,
    price_date: row.priceDate,
    price_source: priceSource(row.source),
  };
}

const SEP = "\u0000";
const regionKey = (provider: string, region: string) => provider + SEP + region;
const exactKey = (provider: string, region: string, instanceType: string, os: string, usage: string) =>
  provider + SEP + region + SEP + instanceType + SEP + os + SEP + usage;

/** Decisions.md: "ascending" on strings is byte order; instance type names are ASCII, where UTF-16 order is byte order. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const monthly = (hourly: Decimal) => hourly.mul(HOURS_PER_MONTH).toDecimalPlaces(10, Decimal.ROUND_HALF_UP);

/**
 * The compute catalog held in process: immutable once built, swapped as a whole after an import.
 * Lookups are Map gets; nothing here touches the database.
 */
export class ComputeCatalog {
  private readonly exact = new Map<string, IndexedRow>();
  private readonly byRegion = new Map<string, IndexedRow[]>();
  private readonly rates = new Map<string, FittedRate>();

  /** Attributes are derived here, once per build, so no answer derives anything per request. */
  constructor(
    rows: CatalogRow[],
    rates: FittedRate[],
    readonly version: string | null,
    rules: AttributeRules = committedAttributeRules(),
  ) {
    const byType = new Map<string, RowAttributes>();
    for (const row of rows) {
      const hourly = new Decimal(row.pricePerHour);
      // Rows of one type share their attributes object unless their price source or date differ.
      const typeKey = row.provider + SEP + row.instanceType + SEP + row.source + SEP + row.priceDate;
      let attributes = byType.get(typeKey);
      if (!attributes) {
        attributes = rowAttributes(row, rules);
        byType.set(typeKey, attributes);
      }
      const indexed: IndexedRow = {
        row,
        hourly,
        pricePerHour: hourly.toNumber(),
        pricePerMonth: monthly(hourly).toNumber(),
        cpuCores: Number(row.cpuCores),
        ramGb: Number(row.ramGb),
        attributes,
        listing: {
          instance_type: row.instanceType,
          family: row.family,
          cpu_cores: Number(row.cpuCores),
          ram_gb: Number(row.ramGb),
          gpu_count: row.gpuCount,
          burstable: row.burstable,
          architecture: row.architecture,
          operating_system: row.operatingSystem,
          usage_type: row.usageType,
          price_per_hour: hourly.toNumber(),
          list_price_per_hour: hourly.toNumber(),
          currency: row.currency,
          source: "catalog",
          pricing_id: null,
          ...attributes,
        },
      };
      this.exact.set(exactKey(row.provider, row.region, row.instanceType, row.operatingSystem, row.usageType), indexed);
      const key = regionKey(row.provider, row.region);
      const list = this.byRegion.get(key);
      if (list) list.push(indexed);
      else this.byRegion.set(key, [indexed]);
    }
    for (const list of this.byRegion.values()) list.sort((a, b) => byteOrder(a.row.instanceType, b.row.instanceType));
    for (const rate of rates) this.rates.set(regionKey(rate.provider, rate.region), rate);
  }

  static empty(): ComputeCatalog {
    return new ComputeCatalog([], [], null, attributeRules(new Map()));
  }

  get size(): number {
    return this.exact.size;
  }

  find(provider: string, region: string, instanceType: string, os: OperatingSystem, usage: ComputeUsageType): IndexedRow | undefined {
    return this.exact.get(exactKey(provider, region, instanceType, os, usage));
  }

  /** Rows of one provider and region, sorted by instance type (byte order). */
  region(provider: string, region: string): readonly IndexedRow[] {
    return this.byRegion.get(regionKey(provider, region)) ?? [];
  }

  rate(provider: string, region: string): FittedRate | undefined {
    return this.rates.get(regionKey(provider, region));
  }
}

/** Holds the current catalog; `swap` replaces it atomically for every later request. */
export class ComputeCatalogStore {
  private catalog: ComputeCatalog;
  private built: boolean;

  /** Without `initial` the store is empty and not loaded until the first `swap`. */
  constructor(initial?: ComputeCatalog) {
    this.catalog = initial ?? ComputeCatalog.empty();
    this.built = initial !== undefined;
  }

  get current(): ComputeCatalog {
    return this.catalog;
  }

  /** true once a catalog was built from the database (readiness: see health/routes.ts). */
  get loaded(): boolean {
    return this.built;
  }

  swap(next: ComputeCatalog): void {
    this.catalog = next;
    this.built = true;
  }

  private building: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** true while a rebuild is queued or running: the current catalog may be about to change. */
  get refreshing(): boolean {
    return this.pending > 0;
  }

  /**
   * Builds a catalog with `build` and swaps it in, one build at a time: a build starts after the
   * previous one swapped, so it reads a state at least as recent and a slow, older read never
   * replaces a newer catalog (refreshes come from the start, the change feed and the poll).
   */
  rebuild(build: () => Promise<ComputeCatalog>): Promise<ComputeCatalog> {
    this.pending++;
    const next = this.building
      .then(build)
      .then((catalog) => {
        this.swap(catalog);
        return catalog;
      })
      .finally(() => this.pending--);
    this.building = next.catch(() => undefined);
    return next;
  }
}
