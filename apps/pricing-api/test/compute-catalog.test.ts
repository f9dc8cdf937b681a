import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { createChangeFeed, type Database } from "@cloudcost/db";
import { eventually } from "@cloudcost/testing";
import request from "supertest";
import { CatalogFileError, formatSeed, PRICE_FILE_COLUMNS, parsePriceFile } from "../src/compute/catalog-file";
import { ComputeCatalogStore } from "../src/compute/catalog";
import { followCatalogChanges, importPriceFile, loadSeedCatalog, SEED_FILE } from "../src/compute/catalog-loader";
import { CATALOG_CHANGED, readCatalogVersion } from "../src/compute/catalog-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

const SEED_ROWS = 19882;

let ctx: TestContext;
let key: string;
let tmp: string;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  key = await createApiKey(ctx);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "compute-catalog-test-"));
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const deps = () => ({ db: ctx.db, prisma: ctx.prisma });
const count = async () => Number((await ctx.db.sql.query<{ n: string }>("SELECT count(*)::text AS n FROM compute_prices"))[0].n);
const m5Large = async () =>
  (await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).send({ provider: "aws", region: "us-east-1", instance_type: "m5.large" })).body
    .price_per_hour;

/** A price file in the shared format: m5.large at `m5Price` plus `extra` synthetic types in us-east-1. */
function priceFile(m5Price: string, extra: number): string {
  const lines = [PRICE_FILE_COLUMNS.join(","), `aws,us-east-1,m5.large,m5,2,8,0,x86_64,linux,on_demand,${m5Price},2026-11-01`];
  for (let i = 0; i < extra; i++) lines.push(`aws,us-east-1,zz${i}.large,zz${i},2,8,0,x86_64,linux,on_demand,0.1,2026-11-01`);
  return `${lines.join("\n")}\n`;
}

async function until(condition: () => boolean): Promise<void> {
  await eventually(condition, (met) => met, { everyMs: 10 });
}

/**
 * Waits for the in-process catalog to reach `version` (the change feed's promise is about 1 s on an
 * idle machine; the bound is generous for a loaded one). No poll runs here: only the notification
 * can bring the version, so a dropped one still fails.
 */
async function expectInMemoryCatalog(version: string): Promise<void> {
  await eventually(
    () => ctx.computeCatalog.current.version,
    (current) => current === version,
    { what: `the in-memory catalog at ${version}` },
  );
}

describe("compute catalog seed", () => {
  it("is loaded once: a second load of the same seed changes nothing", async () => {
    expect(await count()).toBe(SEED_ROWS);
    const before = await readCatalogVersion(ctx.db);
    expect(before).toMatchObject({ rowCount: SEED_ROWS, source: "seed" });
    expect(await loadSeedCatalog(deps())).toEqual({ replaced: false, version: before!.version, rows: SEED_ROWS });
    expect(await count()).toBe(SEED_ROWS);
    expect(ctx.computeCatalog.current.size).toBe(SEED_ROWS);
    expect(ctx.computeCatalog.current.version).toBe(before!.version);
  });

  it("fits rates per region, falling back to OpenCost's defaults where a region has too few rows", async () => {
    const rates = await ctx.db.sql.query<{ provider: string; method: string; cpu: string; ram: string; n: number }>(
      "SELECT provider, method, cpu_rate::text AS cpu, ram_rate::text AS ram, sample_rows AS n FROM compute_rates",
    );
    expect(rates).toHaveLength(14);
    for (const r of rates) {
      expect(Number(r.cpu)).toBeGreaterThan(0);
      expect(Number(r.ram)).toBeGreaterThan(0);
      if (r.method === "least_squares") expect(r.n).toBeGreaterThanOrEqual(10);
      else expect(r).toMatchObject({ cpu: "0.0316110000", ram: "0.0042370000" });
    }
  });

  it("replaces the catalog when the seed file changes", async () => {
    const rows = parsePriceFile(priceFile("0.2", 3));
    const seed = path.join(tmp, "seed.csv.gz");
    fs.writeFileSync(seed, gzipSync(formatSeed(rows)));
    expect(await loadSeedCatalog(deps(), seed)).toMatchObject({ replaced: true, rows: 4 });
    expect(await count()).toBe(4);
    // too few rows for a fit: the region falls back to the defaults
    expect(await ctx.db.sql.query("SELECT method FROM compute_rates")).toEqual([{ method: "opencost_default" }]);
    expect(await loadSeedCatalog(deps(), seed)).toMatchObject({ replaced: false });
    // back to the committed seed
    expect(await loadSeedCatalog(deps())).toMatchObject({ replaced: true, rows: SEED_ROWS });
    expect(await count()).toBe(SEED_ROWS);
    // Replaced and restored in quick succession: the second notification names the version still in
    // memory while the first rebuild is pending, and must not be dropped (it once was, on PostgreSQL).
    await expectInMemoryCatalog((await readCatalogVersion(ctx.db))!.version);
    expect(await m5Large()).toBe(0.096);
  });

  it("follows a catalog replaced and restored while the first rebuild is still swapping in", async () => {
    const restored = (await readCatalogVersion(ctx.db))!.version;
    const store = new ComputeCatalogStore(ctx.computeCatalog.current);
    // A replica whose rebuild is slow after its read: it holds what it read until `release`.
    let reads = 0;
    let returned = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowDb = {
      ...ctx.db,
      sql: {
        ...ctx.db.sql,
        query: async (text: string, params?: unknown[]) => {
          const result = await ctx.db.sql.query(text, params);
          reads++;
          await gate;
          returned++;
          return result;
        },
      },
    } as unknown as Database;
    const feed = createChangeFeed(ctx.db);
    await feed.start();
    const heard: (string | null)[] = [];
    followCatalogChanges({ db: slowDb, prisma: ctx.prisma }, store, feed, () => undefined);
    feed.subscribe(CATALOG_CHANGED, (version) => heard.push(version));
    try {
      const seed = path.join(tmp, "seed-race.csv.gz");
      fs.writeFileSync(seed, gzipSync(formatSeed(parsePriceFile(priceFile("0.3", 2)))));
      await loadSeedCatalog(deps(), seed);
      await until(() => reads === 1);
      await loadSeedCatalog(deps());
      await until(() => heard.includes(restored));
      release();
      await until(() => returned === reads && !store.refreshing);
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.current.version).toBe(restored);
      expect(store.current.size).toBe(SEED_ROWS);
    } finally {
      release();
      await feed.close();
    }
  });
});

describe("catalog import", () => {
  it("rejects a file with a bad row, naming its line, and leaves the old catalog", async () => {
    const bad = priceFile("0.2", 5).replace("zz3.large,zz3,2,8,0,x86_64,linux,on_demand,0.1", "zz3.large,zz3,2,8,0,x86_64,linux,on_demand,-0.1");
    await expect(importPriceFile(deps(), bad, { name: "bad.csv" })).rejects.toThrow(/^line 6: price_per_hour_usd/);
    await expect(importPriceFile(deps(), bad.replace(",on_demand,", ",reserved,"), { name: "bad.csv" })).rejects.toThrow(/^line 2: purchase_option/);
    await expect(importPriceFile(deps(), priceFile("0.2", 1) + priceFile("0.2", 0).split("\n")[1], { name: "dup.csv" })).rejects.toThrow(
      /^line 4: duplicate of line 2/,
    );
    await expect(importPriceFile(deps(), "provider,region\naws,x\n", { name: "header.csv" })).rejects.toBeInstanceOf(CatalogFileError);
    await expect(importPriceFile(deps(), `${PRICE_FILE_COLUMNS.join(",")}\naws,us-east-1,x\n`, { name: "short.csv" })).rejects.toThrow(
      /^line 2: expected 12 fields, found 3/,
    );
    expect(await count()).toBe(SEED_ROWS);
    expect(await m5Large()).toBe(0.096);
  });

  it("replaces the catalog atomically, and the in-process catalog only after the commit (announced by the change feed)", async () => {
    const NEW_ROWS = 6001;
    const importing = importPriceFile(deps(), priceFile("0.5", NEW_ROWS - 1), { name: "new.csv" });
    const counts: number[] = [];
    const prices: number[] = [];
    let done = false;
    void importing.finally(() => (done = true)).catch(() => undefined);
    while (!done) {
      const [n, price] = await Promise.all([count(), m5Large()]);
      counts.push(n);
      prices.push(price);
    }
    await importing;
    expect(counts.length).toBeGreaterThan(0);
    for (const n of counts) expect([SEED_ROWS, NEW_ROWS]).toContain(n);
    // The HTTP answers come from memory: the old catalog until the commit's notification swaps in
    // the new one (never a mix, never back).
    const firstNew = prices.indexOf(0.5);
    expect(prices.slice(0, firstNew === -1 ? undefined : firstNew).every((p) => p === 0.096)).toBe(true);
    if (firstNew !== -1) expect(prices.slice(firstNew).every((p) => p === 0.5)).toBe(true);
    expect(await count()).toBe(NEW_ROWS);
    await eventually(m5Large, (price) => price === 0.5, { what: "the new catalog's m5.large price" });
    expect(await m5Large()).toBe(0.5);
    expect(ctx.computeCatalog.current.size).toBe(NEW_ROWS);
    expect(await readCatalogVersion(ctx.db)).toMatchObject({ rowCount: NEW_ROWS, source: "import:new.csv" });
  });

  it("survives a restart: the unchanged seed does not overwrite an imported catalog", async () => {
    expect(await loadSeedCatalog(deps())).toMatchObject({ replaced: false, rows: 6001 });
    expect(await count()).toBe(6001);
  });

  it("ships a seed derived from the shared price file", () => {
    expect(fs.statSync(SEED_FILE).size).toBeLessThan(1024 * 1024);
  });
});
