import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { ChangeFeed, Database } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Prisma } from "../db";
import { ComputeCatalog, type ComputeCatalogStore } from "./catalog";
import { parsePriceFile, parseSeed, type CatalogRow } from "./catalog-file";
import { CATALOG_CHANGED, readCatalog, readCatalogVersion, replaceCatalog } from "./catalog-repository";

export const SEED_FILE = path.resolve(__dirname, "../../prisma/seed/compute-prices.csv.gz");

interface CatalogDeps {
  db: Database;
  prisma: Prisma;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export interface SeedLoadResult {
  /** false when the database already held this seed (one SELECT). */
  replaced: boolean;
  version: string;
  rows: number;
}

/**
 * Makes the database hold the committed seed: the seed's sha256 is compared with the one recorded
 * at the last load; only a changed seed replaces the catalog. An operator import records the seed
 * it superseded, so a restart keeps the imported catalog until a new seed ships.
 */
export async function loadSeedCatalog(deps: CatalogDeps, seedFile = SEED_FILE): Promise<SeedLoadResult> {
  const bytes = fs.readFileSync(seedFile);
  const seedSha = sha256(bytes);
  const current = await readCatalogVersion(deps.db);
  if (current?.seedSha256 === seedSha) return { replaced: false, version: current.version, rows: current.rowCount };
  const rows = parseSeed(gunzipSync(bytes).toString("utf8"));
  await replaceCatalog(deps.prisma, rows, { version: seedSha, seedSha256: seedSha, rowCount: rows.length, source: "seed" });
  return { replaced: true, version: seedSha, rows: rows.length };
}

/** Builds the in-process catalog from the database and swaps it in (after any transaction committed). */
export function refreshCatalogStore(deps: CatalogDeps, store: ComputeCatalogStore): Promise<ComputeCatalog> {
  return store.rebuild(async () => {
    const { rows, rates, version } = await readCatalog(deps.db);
    return new ComputeCatalog(rows, rates, version);
  });
}

/**
 * Rebuilds the in-process catalog when any process (a replica, the `catalog:import` command)
 * announces a replaced catalog, or when notifications may have been missed. Before the first load
 * (the server's, at start) there is nothing to refresh.
 */
export function followCatalogChanges(deps: CatalogDeps, store: ComputeCatalogStore, changes: ChangeFeed, onError: (err: unknown) => void): () => void {
  return changes.subscribe(CATALOG_CHANGED, (version) => {
    // While a rebuild is pending, the version in memory is not the one it will swap in: a notified
    // version equal to it (a catalog replaced and then restored) still needs a rebuild after it.
    if (!store.loaded || (!store.refreshing && version === store.current.version)) return;
    refreshCatalogStore(deps, store).catch(onError);
  });
}

/**
 * Replaces the catalog with a price file in the shared format (see catalog-file.ts): every row is
 * validated first, so a bad file imports nothing; then one transaction replaces rows and rates.
 */
export async function importPriceFile(
  deps: CatalogDeps,
  text: string,
  options: { name: string; seedFile?: string },
): Promise<{ version: string; rows: number }> {
  const rows: CatalogRow[] = parsePriceFile(text);
  const version = sha256(Buffer.from(text, "utf8"));
  const seedFile = options.seedFile ?? SEED_FILE;
  const seedSha = fs.existsSync(seedFile) ? sha256(fs.readFileSync(seedFile)) : null;
  await replaceCatalog(deps.prisma, rows, { version, seedSha256: seedSha, rowCount: rows.length, source: `import:${options.name}` });
  return { version, rows: rows.length };
}

/**
 * Another process (a replica, the `catalog:import` command against PostgreSQL) may replace the
 * catalog: besides the change feed, poll its version (one small SELECT), the safety net for a
 * missed notification, and rebuild the in-process catalog when it changed. On the shared periodic
 * runner: a poll whose rebuild overruns delays the next (a full interval after it ends), polls
 * never overlap, and stop() waits for the one in flight.
 */
export function watchCatalogVersion(deps: CatalogDeps, store: ComputeCatalogStore, intervalMs: number, onError: (err: unknown) => void): Periodic {
  return startPeriodic({
    intervalMs,
    onError,
    run: async () => {
      const current = await readCatalogVersion(deps.db);
      if (current && current.version !== store.current.version) await refreshCatalogStore(deps, store);
    },
  });
}
