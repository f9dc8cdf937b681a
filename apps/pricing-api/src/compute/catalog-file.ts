import { CsvError, parse } from "csv-parse/sync";
import { z } from "zod";
import { Architecture, ComputeUsageType, MAX_CPU_CORES, MAX_GPU_COUNT, MAX_RAM_GB, OperatingSystem } from "@cloudcost/contracts";

/** One catalog row as stored; decimals are kept as their exact decimal text. */
export interface CatalogRow {
  provider: string;
  region: string;
  instanceType: string;
  family: string;
  cpuCores: string;
  ramGb: string;
  gpuCount: number;
  burstable: boolean;
  generalPurpose: boolean;
  architecture: Architecture;
  operatingSystem: OperatingSystem;
  usageType: ComputeUsageType;
  pricePerHour: string;
  currency: string;
  source: string;
  priceDate: string;
}

/** A file that cannot be imported: names the first bad line (1-based, the header is line 1). */
export class CatalogFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

/** The columns of the catalog CSV format `catalog:import` reads (docs/compute-pricing.md, "The catalog"). */
export const PRICE_FILE_COLUMNS = [
  "provider",
  "region",
  "instance_type",
  "family",
  "vcpu",
  "memory_gib",
  "gpu_count",
  "architecture",
  "operating_system",
  "purchase_option",
  "price_per_hour_usd",
  "price_date",
] as const;

/** The columns of the committed seed (prisma/seed/compute-prices.csv.gz): the catalog as stored. */
export const SEED_COLUMNS = [
  "provider",
  "region",
  "instance_type",
  "family",
  "cpu_cores",
  "ram_gb",
  "gpu_count",
  "burstable",
  "general_purpose",
  "architecture",
  "operating_system",
  "usage_type",
  "price_per_hour",
  "currency",
  "source",
  "price_date",
] as const;

const Name = z.string().min(1).max(256);
const Decimal = (what: string) => z.string().regex(/^\d{1,10}(\.\d{1,10})?$/, `${what} must be a non-negative decimal number`);
const Positive = (what: string) => Decimal(what).refine((v) => Number(v) > 0, `${what} must be greater than 0`);
/** A machine's size, bounded as every input of both APIs bounds it (@cloudcost/contracts). */
const AtMost = (what: string, max: number) => Positive(what).refine((v) => Number(v) <= max, `${what} must be at most ${max}`);
const GpuCount = z
  .string()
  .regex(/^\d{1,4}$/, "gpu_count must be a non-negative integer")
  .refine((v) => Number(v) <= MAX_GPU_COUNT, `gpu_count must be at most ${MAX_GPU_COUNT}`);
const IsoDate = z.iso.date();

const PriceFileRow = z.object({
  provider: Name,
  region: Name,
  instance_type: Name,
  family: Name,
  vcpu: AtMost("vcpu", MAX_CPU_CORES),
  memory_gib: AtMost("memory_gib", MAX_RAM_GB),
  gpu_count: GpuCount,
  architecture: Architecture,
  operating_system: OperatingSystem,
  purchase_option: z.enum(["on_demand", "spot", "spot_avg"]),
  price_per_hour_usd: Decimal("price_per_hour_usd"),
  price_date: IsoDate,
});

const SeedRow = z.object({
  provider: Name,
  region: Name,
  instance_type: Name,
  family: Name,
  cpu_cores: AtMost("cpu_cores", MAX_CPU_CORES),
  ram_gb: AtMost("ram_gb", MAX_RAM_GB),
  gpu_count: GpuCount,
  burstable: z.enum(["true", "false"]),
  general_purpose: z.enum(["true", "false"]),
  architecture: Architecture,
  operating_system: OperatingSystem,
  usage_type: ComputeUsageType,
  price_per_hour: Decimal("price_per_hour"),
  currency: z.string().regex(/^[A-Z]{3}$/),
  source: Name,
  price_date: IsoDate,
});

// Shared-core and burstable families (docs/api.md, "The right-sizing rule"): right-sizing only offers them to
// resources that are burstable already.
const AWS_BURSTABLE = new Set(["t2", "t3", "t3a", "t4g"]);
const GCP_SHARED_CORE = new Set(["e2-micro", "e2-small", "e2-medium", "f1-micro", "g1-small"]);
// Azure's B-series SKU families: standardBSFamily, standardBsv2Family, standardBasv2Family, standardBpsv2Family.
const AZURE_BURSTABLE = /^standardB[a-z]*(v\d+)?Family$/i;

export function isBurstable(provider: string, family: string, instanceType: string): boolean {
  if (provider === "aws") return AWS_BURSTABLE.has(family);
  if (provider === "azure") return AZURE_BURSTABLE.test(family);
  if (provider === "gcp") return GCP_SHARED_CORE.has(instanceType);
  return false;
}

// General-purpose families fit the per-vCPU and per-GB rates used for estimates: AWS m*, Azure D*,
// GCP e2/n1/n2/n2d/n4/n4d (shared-core and burstable types are excluded by the caller).
const GCP_GENERAL_PURPOSE = new Set(["e2", "n1", "n2", "n2d", "n4", "n4d"]);

export function isGeneralPurpose(provider: string, family: string): boolean {
  if (provider === "aws") return /^m\d/.test(family);
  if (provider === "azure") return /^standardD/i.test(family);
  if (provider === "gcp") return GCP_GENERAL_PURPOSE.has(family);
  return false;
}

// The source files carry two known spec gaps (see prisma/seed/PROVENANCE.md): GCP's shared-core E2
// types are listed with their fractional CPU share rounded down (0, 0, 1), while the VM has 2 vCPUs;
// Azure's Standard_B1ls has no memory figure in the spec list (it has 0.5 GiB).
const SPEC_FIXES: Record<string, { vcpu?: string; memory_gib?: string }> = {
  "gcp|e2-micro": { vcpu: "2" },
  "gcp|e2-small": { vcpu: "2" },
  "gcp|e2-medium": { vcpu: "2" },
  "azure|Standard_B1ls": { memory_gib: "0.5" },
};

// Where each (provider, price_date) of the shared price file came from; other rows are "import".
const SOURCES: Record<string, string> = {
  "aws|2026-07-20": "github:aws/karpenter-provider-aws@1d92708",
  "aws|2024-04-04": "github:vantage-sh/ec2instances.info@a19cd85",
  "azure|2026-06-18": "github:Azure/karpenter-provider-azure@352646f",
  "gcp|2026-07-30": "github:Cyclenerd/google-cloud-pricing-cost-calculator@fd66b26",
};

/** Splits CSV text into records (RFC 4180, through csv-parse; the first record is the header), each with its first line. */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  try {
    // With `info`, each record comes with the line it ends on (its only line, in the catalog formats).
    const parsed = parse(text, { info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as { record: string[]; info: { lines: number } }[];
    return parsed.map(({ record, info }) => ({ line: info.lines, fields: record }));
  } catch (err) {
    if (err instanceof CsvError) throw new CatalogFileError(err.message, typeof err.lines === "number" ? err.lines : undefined);
    throw err;
  }
}

function records<C extends readonly string[]>(text: string, columns: C): { line: number; record: Record<C[number], string> }[] {
  const [header, ...rest] = parseCsv(text);
  if (!header) throw new CatalogFileError("the file is empty");
  if (header.fields.join(",") !== columns.join(",")) {
    throw new CatalogFileError(`expected the header ${columns.join(",")}`, header.line);
  }
  if (rest.length === 0) throw new CatalogFileError("the file has no rows");
  return rest.map(({ line, fields }) => {
    if (fields.length !== columns.length) {
      throw new CatalogFileError(`expected ${columns.length} fields, found ${fields.length}`, line);
    }
    return { line, record: Object.fromEntries(columns.map((c, i) => [c, fields[i]])) as Record<C[number], string> };
  });
}

function validate<T>(schema: z.ZodType<T>, value: unknown, line: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new CatalogFileError(`${issue.path.join(".") || "(row)"}: ${issue.message}`, line);
}

const stripZeros = (value: string) => (value.includes(".") ? value.replace(/\.?0+$/, "") : value);

function checkUnique(rows: { line: number; row: CatalogRow }[]): CatalogRow[] {
  const seen = new Map<string, number>();
  for (const { line, row } of rows) {
    const key = [row.provider, row.region, row.instanceType, row.operatingSystem, row.usageType].join("|");
    const first = seen.get(key);
    if (first !== undefined) throw new CatalogFileError(`duplicate of line ${first} (${key.replaceAll("|", " ")})`, line);
    seen.set(key, line);
  }
  return rows.map((r) => r.row);
}

/**
 * Parses a price file in the shared format (PRICE_FILE_COLUMNS) into catalog rows: `spot_avg` and
 * `spot` become `spot`, vcpu/memory_gib become cpu_cores/ram_gb, and the burstable, general-purpose
 * and source columns are derived. Any bad row rejects the whole file.
 */
export function parsePriceFile(text: string): CatalogRow[] {
  const rows = records(text, PRICE_FILE_COLUMNS).map(({ line, record }) => {
    const fix = SPEC_FIXES[`${record.provider}|${record.instance_type}`];
    const r = validate(PriceFileRow, { ...record, ...fix }, line);
    const row: CatalogRow = {
      provider: r.provider,
      region: r.region,
      instanceType: r.instance_type,
      family: r.family,
      cpuCores: stripZeros(r.vcpu),
      ramGb: stripZeros(r.memory_gib),
      gpuCount: Number(r.gpu_count),
      burstable: isBurstable(r.provider, r.family, r.instance_type),
      generalPurpose: isGeneralPurpose(r.provider, r.family),
      architecture: r.architecture,
      operatingSystem: r.operating_system,
      usageType: r.purchase_option === "on_demand" ? "on_demand" : "spot",
      pricePerHour: r.price_per_hour_usd,
      currency: "USD",
      source: SOURCES[`${r.provider}|${r.price_date}`] ?? "import",
      priceDate: r.price_date,
    };
    return { line, row };
  });
  return checkUnique(rows);
}

/** Parses the committed seed (SEED_COLUMNS). */
export function parseSeed(text: string): CatalogRow[] {
  const rows = records(text, SEED_COLUMNS).map(({ line, record }) => {
    const r = validate(SeedRow, record, line);
    const row: CatalogRow = {
      provider: r.provider,
      region: r.region,
      instanceType: r.instance_type,
      family: r.family,
      cpuCores: r.cpu_cores,
      ramGb: r.ram_gb,
      gpuCount: Number(r.gpu_count),
      burstable: r.burstable === "true",
      generalPurpose: r.general_purpose === "true",
      architecture: r.architecture,
      operatingSystem: r.operating_system,
      usageType: r.usage_type,
      pricePerHour: r.price_per_hour,
      currency: r.currency,
      source: r.source,
      priceDate: r.price_date,
    };
    return { line, row };
  });
  return checkUnique(rows);
}

const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Writes rows in the seed format, sorted by their key so the file is stable. */
export function formatSeed(rows: CatalogRow[]): string {
  const key = (r: CatalogRow) => [r.provider, r.region, r.instanceType, r.operatingSystem, r.usageType].join("\u0000");
  const sorted = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const lines = sorted.map((r) =>
    [
      r.provider,
      r.region,
      r.instanceType,
      r.family,
      r.cpuCores,
      r.ramGb,
      String(r.gpuCount),
      String(r.burstable),
      String(r.generalPurpose),
      r.architecture,
      r.operatingSystem,
      r.usageType,
      r.pricePerHour,
      r.currency,
      r.source,
      r.priceDate,
    ]
      .map(csvField)
      .join(","),
  );
  return `${[SEED_COLUMNS.join(","), ...lines].join("\n")}\n`;
}
