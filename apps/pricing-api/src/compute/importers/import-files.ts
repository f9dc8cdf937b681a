import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Database } from "@cloudcost/db";
import type { Prisma } from "../../db";
import { CatalogFileError, parsePriceFile } from "../catalog-file";
import { SEED_FILE } from "../catalog-loader";
import { readCatalog, replaceCatalogScopes } from "../catalog-repository";
import { parseAwsOfferCsv, parseAwsOfferJson } from "./aws";
import { azureSizes, parseAzureRetailPages } from "./azure";
import { parseGcpSkus } from "./gcp";
import type { ImportedCatalog } from "./imported-catalog";

export const IMPORT_FORMATS = ["aws", "azure", "gcp", "csv"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportFile {
  name: string;
  text: string;
}

/** What an import did: rows written, the (provider, region) pairs replaced, what was left out. */
export interface ImportSummary {
  version: string;
  rows: number;
  catalogRows: number;
  scopes: { provider: string; region: string }[];
  skipped: Record<string, number>;
  warnings: string[];
}

/**
 * Reads one provider's file(s) (aws: one offer file, JSON or CSV; azure: one or more Retail Prices
 * pages; gcp: the SKU list then the machine types list; csv: the project's price file) and replaces,
 * in one transaction, exactly the rows of the (provider, region) pairs they cover. Any malformed
 * input throws a CatalogFileError naming the place before the database is touched.
 */
export async function importProviderFiles(
  deps: { db: Database; prisma: Prisma },
  format: ImportFormat,
  files: ImportFile[],
  options: { seedFile?: string } = {},
): Promise<ImportSummary> {
  const imported = await parseFiles(deps.db, format, files);
  const hash = createHash("sha256").update(format);
  for (const f of files) hash.update("\u0000").update(f.text);
  const version = hash.digest("hex");
  const seedFile = options.seedFile ?? SEED_FILE;
  const seedSha = fs.existsSync(seedFile) ? createHash("sha256").update(fs.readFileSync(seedFile)).digest("hex") : null;
  const source = `import:${format}:${files.map((f) => f.name).join("+")}`;
  const catalogRows = await replaceCatalogScopes(deps.prisma, imported.rows, imported.scopes, { version, seedSha256: seedSha, source });
  return { version, rows: imported.rows.length, catalogRows, scopes: imported.scopes, skipped: imported.skipped, warnings: imported.warnings };
}

async function parseFiles(db: Database, format: ImportFormat, files: ImportFile[]): Promise<ImportedCatalog> {
  const one = () => {
    if (files.length !== 1) throw new CatalogFileError(`--format ${format} reads exactly one file`);
    return files[0];
  };
  switch (format) {
    case "aws": {
      const { text } = one();
      return text.trimStart().startsWith("{") ? parseAwsOfferJson(text) : parseAwsOfferCsv(text);
    }
    case "azure": {
      if (files.length === 0) throw new CatalogFileError("--format azure reads one or more page files");
      const { rows } = await readCatalog(db);
      return parseAzureRetailPages(files, azureSizes(rows));
    }
    case "gcp": {
      if (files.length !== 2) throw new CatalogFileError("--format gcp reads the SKU list file, then the machine types file");
      return parseGcpSkus(files[0].text, files[1].text);
    }
    case "csv": {
      const rows = parsePriceFile(one().text);
      const scopes = new Map(rows.map((r) => [`${r.provider} ${r.region}`, { provider: r.provider, region: r.region }]));
      return { rows, scopes: [...scopes.values()], skipped: {}, warnings: [] };
    }
  }
}
