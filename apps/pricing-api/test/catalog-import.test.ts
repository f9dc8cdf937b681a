import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import request from "supertest";
import { ensureEmptyPgliteCluster } from "@cloudcost/db/testing";
import { eventually } from "@cloudcost/testing";
import { CatalogFileError } from "../src/compute/catalog-file";
import { refreshCatalogStore, watchCatalogVersion } from "../src/compute/catalog-loader";
import { readCatalogVersion } from "../src/compute/catalog-repository";
import { type ImportFile, type ImportFormat, importProviderFiles } from "../src/compute/importers/import-files";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

const FIXTURES = path.resolve(__dirname, "fixtures/catalog-import");
const fixture = (name: string): ImportFile => ({ name, text: fs.readFileSync(path.join(FIXTURES, name), "utf8") });

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  key = await createApiKey(ctx);
});
afterAll(() => ctx.close());

const deps = () => ({ db: ctx.db, prisma: ctx.prisma });
const importFiles = (format: ImportFormat, ...names: string[]) => importProviderFiles(deps(), format, names.map(fixture));

interface StoredRow {
  region: string;
  instance_type: string;
  operating_system: string;
  usage_type: string;
  cpu_cores: string;
  ram_gb: string;
  gpu_count: number;
  architecture: string;
  price_per_hour: string;
  price_date: string;
}
const rowsOf = (provider: string, region: string) =>
  ctx.db.sql.query<StoredRow>(
    `SELECT region, instance_type, operating_system, usage_type, cpu_cores::float8::text AS cpu_cores, ram_gb::float8::text AS ram_gb, gpu_count,
            architecture, price_per_hour::float8::text AS price_per_hour, to_char(price_date, 'YYYY-MM-DD') AS price_date
     FROM compute_prices WHERE provider = $1 AND region = $2 ORDER BY instance_type, operating_system, usage_type`,
    [provider, region],
  );
const counts = async () =>
  Object.fromEntries(
    (await ctx.db.sql.query<{ k: string; n: number }>("SELECT provider || '/' || region AS k, count(*)::int AS n FROM compute_prices GROUP BY 1")).map((r) => [
      r.k,
      r.n,
    ]),
  );
const snapshot = () =>
  ctx.db.sql.query(
    "SELECT provider, region, instance_type, operating_system, usage_type, price_per_hour::text, price_date::text FROM compute_prices ORDER BY 1, 2, 3, 4, 5",
  );

describe("AWS Price List offer files", () => {
  it("imports the on-demand Linux and Windows shared-tenancy rows of a JSON offer file, replacing only its regions", async () => {
    const before = await counts();
    const result = await importFiles("aws", "aws-ec2-offer.json");
    expect(result.scopes).toEqual([
      { provider: "aws", region: "us-east-1" },
      { provider: "aws", region: "eu-west-1" },
    ]);
    expect(result.rows).toBe(6);
    expect(result.skipped).toMatchObject({
      "tenancy other than Shared (Dedicated, Host ...)": 1,
      "bring your own license": 1,
      "operating system other than Linux or Windows": 1,
      "pre-installed software": 1,
      "capacity status other than Used": 1,
      "term other than OnDemand (Reserved ...)": 2,
    });
    expect(await rowsOf("aws", "us-east-1")).toEqual([
      { ...row("g5.xlarge", "linux", "4", "16", "1.006"), gpu_count: 1 },
      row("m5.large", "linux", "2", "8", "0.096"),
      row("m5.large", "windows", "2", "8", "0.188"),
      { ...row("m7g.large", "linux", "2", "8", "0.0816"), architecture: "arm64" },
      row("x2iedn.32xlarge", "linux", "128", "4096", "26.68"),
    ]);
    expect(await rowsOf("aws", "eu-west-1")).toEqual([{ ...row("m5.large", "linux", "2", "8", "0.107"), region: "eu-west-1" }]);
    const after = await counts();
    expect(after).toEqual({ ...before, "aws/us-east-1": 5, "aws/eu-west-1": 1 });
    expect(await readCatalogVersion(ctx.db)).toMatchObject({ version: result.version, source: "import:aws:aws-ec2-offer.json" });
    expect(result.catalogRows).toBe(Object.values(after).reduce((a, b) => a + b, 0));

    function row(instance_type: string, operating_system: string, cpu_cores: string, ram_gb: string, price_per_hour: string): StoredRow {
      return {
        region: "us-east-1",
        instance_type,
        operating_system,
        usage_type: "on_demand",
        cpu_cores,
        ram_gb,
        gpu_count: 0,
        architecture: "x86_64",
        price_per_hour,
        price_date: "2026-11-20",
      };
    }
  });

  it("reads the CSV variant (five metadata lines, then the header) to the same rows, with its own publication date", async () => {
    const json = await rowsOf("aws", "us-east-1");
    const result = await importFiles("aws", "aws-ec2-offer.csv");
    expect(result.rows).toBe(6);
    expect(await rowsOf("aws", "us-east-1")).toEqual(json.map((r) => ({ ...r, price_date: "2026-11-21" })));
  });

  it("the running API answers with the new prices once the catalog version poll sees the import", async () => {
    await refreshCatalogStore(deps(), ctx.computeCatalog);
    const m5 = async () =>
      (await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).send({ provider: "aws", region: "eu-west-1", instance_type: "m5.large" })).body;
    expect((await m5()).price_per_hour).toBe(0.107);
    const watch = watchCatalogVersion(deps(), ctx.computeCatalog, 20, (err) => {
      throw err;
    });
    try {
      const changed = fixture("aws-ec2-offer.json");
      changed.text = changed.text.replaceAll('"0.1070000000"', '"0.1111000000"');
      await importProviderFiles(deps(), "aws", [changed]);
      await eventually(m5, (body) => body.price_per_hour === 0.1111, { what: "the imported price served" });
      expect(await m5()).toMatchObject({ price_per_hour: 0.1111, price_date: "2026-11-20" });
    } finally {
      await watch.stop();
    }
  });
});

describe("Azure Retail Prices API pages", () => {
  it("imports consumption and spot meters of Virtual Machines from several pages, sizes from the catalog's rows of the type", async () => {
    const before = await counts();
    const result = await importFiles("azure", "azure-retail-prices-page1.json", "azure-retail-prices-page2.json");
    expect(result.skipped).toEqual({
      "type other than Consumption (Reservation ...)": 1,
      DevTest: 1,
      "Low Priority": 1,
      "service other than Virtual Machines": 1,
      "type without known sizes": 1,
    });
    expect(result.warnings).toEqual(["1 Azure type(s) skipped, the catalog has no sizes for them: Standard_Zz99_v9"]);
    const base = { region: "eastus", gpu_count: 0, architecture: "x86_64", price_date: "2026-10-01", usage_type: "on_demand" };
    expect(await rowsOf("azure", "eastus")).toEqual([
      { ...base, instance_type: "Standard_D2s_v5", operating_system: "linux", cpu_cores: "2", ram_gb: "8", price_per_hour: "0.0961" },
      {
        ...base,
        instance_type: "Standard_D2s_v5",
        operating_system: "linux",
        usage_type: "spot",
        cpu_cores: "2",
        ram_gb: "8",
        price_per_hour: "0.01922",
        price_date: "2026-11-02",
      },
      { ...base, instance_type: "Standard_D2s_v5", operating_system: "windows", cpu_cores: "2", ram_gb: "8", price_per_hour: "0.1881" },
      { ...base, instance_type: "Standard_NC6s_v3", operating_system: "linux", cpu_cores: "6", ram_gb: "112", gpu_count: 1, price_per_hour: "3.06" },
    ]);
    expect(await counts()).toEqual({ ...before, "azure/eastus": 4, "azure/westeurope": 1 });
  });
});

describe("Google Cloud Billing Catalog SKUs with machine types", () => {
  it("prices each machine type as vCPU x core rate + GB x RAM rate per region, on demand and spot", async () => {
    const before = await counts();
    const result = await importFiles("gcp", "gcp-compute-skus.json", "gcp-machine-types.json");
    expect(result.skipped).toMatchObject({
      "usage type other than OnDemand or Preemptible (commitments ...)": 1,
      "resource family other than Compute": 1,
      "shared-core type (priced by its own SKUs)": 1,
    });
    const central = await rowsOf("gcp", "us-central1");
    const pick = (type: string, usage: string) => central.find((r) => r.instance_type === type && r.usage_type === usage);
    // 2 x 0.031611 + 8 x 0.004237
    expect(pick("n2-standard-2", "on_demand")).toMatchObject({ cpu_cores: "2", ram_gb: "8", price_per_hour: "0.097118", price_date: "2026-11-15" });
    // 2 x 0.00765 + 8 x 0.001025
    expect(pick("n2-standard-2", "spot")).toMatchObject({ price_per_hour: "0.0235", price_date: "2026-11-18" });
    expect(pick("t2a-standard-1", "on_demand")).toMatchObject({ architecture: "arm64", price_per_hour: "0.0411" });
    expect(central.map((r) => `${r.instance_type}/${r.usage_type}`)).toEqual([
      "e2-standard-2/on_demand",
      "n2-highmem-4/on_demand",
      "n2-highmem-4/spot",
      "n2-standard-2/on_demand",
      "n2-standard-2/spot",
      "t2a-standard-1/on_demand",
    ]);
    expect(await rowsOf("gcp", "us-east1")).toEqual([expect.objectContaining({ instance_type: "n2-standard-4", price_per_hour: "0.194236" })]);
    expect(await counts()).toEqual({ ...before, "gcp/us-central1": 6, "gcp/us-east1": 1 });
  });
});

describe("concurrent imports", () => {
  it("take turns: two imports of the same regions both commit, the later one's rows stand", async () => {
    const later = fixture("aws-ec2-offer.json");
    later.text = later.text.replaceAll('"0.0960000000"', '"0.0999000000"').replace('"2026-11-20T00:00:00Z"', '"2026-11-22T00:00:00Z"');
    await Promise.all([importFiles("aws", "aws-ec2-offer.csv"), importProviderFiles(deps(), "aws", [later])]);
    const m5 = (await rowsOf("aws", "us-east-1")).find((r) => r.instance_type === "m5.large" && r.operating_system === "linux");
    expect(["2026-11-21", "2026-11-22"]).toContain(m5?.price_date);
    expect((await rowsOf("aws", "us-east-1")).length).toBe(5);
  });
});

describe("a malformed file changes nothing", () => {
  const mutate = (name: string, edit: (body: Record<string, any>) => void): ImportFile => {
    const body = JSON.parse(fixture(name).text);
    edit(body);
    return { name, text: JSON.stringify(body) };
  };
  const cases: [string, ImportFormat, () => ImportFile[], RegExp][] = [
    ["bad JSON", "aws", () => [{ name: "x.json", text: '{"offerCode": "AmazonEC2",' }], /^offer file: not valid JSON/],
    [
      "an offer file of another service",
      "aws",
      () => [mutate("aws-ec2-offer.json", (b) => (b.offerCode = "AmazonRDS"))],
      /^offerCode: "AmazonRDS" is not AmazonEC2/,
    ],
    [
      "a kept row without its memory",
      "aws",
      () => [mutate("aws-ec2-offer.json", (b) => delete b.products.AAAA3333.attributes.memory)],
      /^terms\.OnDemand\["AAAA3333"\]\["AAAA3333\.JRTCKXETXF"\]\.priceDimensions\["AAAA3333\.JRTCKXETXF\.6YS6EN2CT7"\]: memory is missing/,
    ],
    [
      "a CSV line with a bad memory figure",
      "aws",
      () => [{ name: "o.csv", text: fixture("aws-ec2-offer.csv").text.replace('"8 GiB"', '"8 GB"') }],
      /^line 7: memory "8 GB" is not "<number> GiB"/,
    ],
    [
      "an Azure item without a price",
      "azure",
      () => [mutate("azure-retail-prices-page1.json", (b) => delete b.Items[3].retailPrice)],
      /^azure-retail-prices-page1\.json Items\[3\]\.retailPrice: not a non-negative number/,
    ],
    [
      "the same Azure meter on two pages",
      "azure",
      () => [fixture("azure-retail-prices-page2.json"), { ...fixture("azure-retail-prices-page2.json"), name: "again.json" }],
      /^again\.json Items\[0\]: duplicate of azure-retail-prices-page2\.json Items\[0\]/,
    ],
    [
      "a GCP SKU without nanos in range",
      "gcp",
      () => [
        mutate("gcp-compute-skus.json", (b) => (b.skus[1].pricingInfo[0].pricingExpression.tieredRates[0].unitPrice.nanos = -1)),
        fixture("gcp-machine-types.json"),
      ],
      /^skus\[1\]\.pricingInfo\[0\]\.pricingExpression\.tieredRates\[0\]\.unitPrice\.nanos: not an integer/,
    ],
    [
      "a machine type without memoryMb",
      "gcp",
      () => [fixture("gcp-compute-skus.json"), mutate("gcp-machine-types.json", (b) => delete b.items[2].memoryMb)],
      /^machine types items\[2\]\.memoryMb: not a positive integer/,
    ],
  ];
  it.each(cases)("%s: names the place and imports nothing", async (_, format, files, message) => {
    const before = await snapshot();
    const version = await readCatalogVersion(ctx.db);
    const attempt = importProviderFiles(deps(), format, files());
    await expect(attempt).rejects.toBeInstanceOf(CatalogFileError);
    await expect(attempt).rejects.toThrow(message);
    expect(await snapshot()).toEqual(before);
    expect(await readCatalogVersion(ctx.db)).toEqual(version);
  });
});

// The command runs from the build (`pnpm test` builds first through turbo; a bare `jest` after a
// fresh checkout skips this), against its own embedded database.
const cli = path.resolve(__dirname, "../dist/cli/import-catalog.js");
const withBuild = fs.existsSync(cli) ? it : it.skip;

describe("catalog:import command", () => {
  withBuild(
    "exits 0 on a good file, 1 on a malformed one (naming the place), 2 on bad usage",
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-import-cli-"));
      // An initialised, empty cluster that the command migrates: its initdb (seconds) is not what is tested here.
      const dataDir = path.join(dir, "db");
      fs.cpSync(await ensureEmptyPgliteCluster(), dataDir, { recursive: true });
      const env = { ...process.env, PRICING_API_DATA_DIR: dataDir, LOG_LEVEL: "warn", INIT_CWD: FIXTURES };
      delete env.PRICING_API_DATABASE_URL;
      const run = (args: string[]) =>
        promisify(execFile)(process.execPath, [cli, ...args], { env, cwd: FIXTURES }).then(
          (r) => ({ code: 0, ...r }),
          (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
        );
      try {
        const good = await run(["--format", "aws", "aws-ec2-offer.json"]);
        expect(good).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Imported 6 rows \(aws\) .* replacing aws\/us-east-1, aws\/eu-west-1; /) });
        const broken = path.join(dir, "broken.json");
        fs.writeFileSync(broken, fixture("azure-retail-prices-page2.json").text.replace('"1 Hour"', '"1/Month"'));
        const bad = await run(["--format", "azure", broken]);
        expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining("Nothing imported: broken.json Items[0].unitOfMeasure") });
        expect(await run(["--format", "oracle", "x.json"])).toMatchObject({ code: 2, stderr: expect.stringContaining("usage:") });
        expect(await run(["--format", "gcp"])).toMatchObject({ code: 2 });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    // Three runs of the CLI, each starting node: seconds on a quiet machine, a minute or more on a busy one.
    240_000,
  );
});
