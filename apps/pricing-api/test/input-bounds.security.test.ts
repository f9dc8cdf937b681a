// Issue 47 finding 10 on the pricing API: a machine's cores at most 1024, its memory at most 65536
// GB and its GPUs at most 64 wherever they are taken (a vm shape to price, a database rate, the
// catalog file), with a positive minimum where zero means nothing; numeric query parameters are
// plain decimal digits (no exponent, hex, sign or spaces), a 400 naming the parameter.
import request from "supertest";
import { parsePriceFile, PRICE_FILE_COLUMNS } from "../src/compute/catalog-file";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, databaseEntry, type Client } from "./helpers/pricing";

let ctx: TestContext;
let key: string;
let account: Client;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  key = await createApiKey(ctx);
  account = client(ctx, key);
});
afterAll(async () => {
  await ctx.close();
});

const compute = (body: unknown) =>
  request(ctx.app)
    .post("/v1/pricing/compute")
    .set("X-API-Key", key)
    .send(body as object);

describe("a vm shape to price", () => {
  it.each([
    ["cpu_cores", 5e-324],
    ["cpu_cores", 1025],
    ["cpu_cores", 1e308],
    ["ram_gb", 5e-324],
    ["ram_gb", 65537],
    ["ram_gb", 1e308],
  ])("%s = %d is a 400 naming it", async (field, value) => {
    const res = await compute({ provider: "aws", region: "us-east-1", vm: { cpu_cores: 2, ram_gb: 8, [field]: value } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(`vm.${field}`);
  });

  it("prices the largest shape allowed", async () => {
    await compute({ provider: "aws", region: "us-east-1", vm: { cpu_cores: 1024, ram_gb: 65536 } }).expect(200);
  });
});

describe("a database rate", () => {
  it("refuses cpu_cores above 1024 and ram_gb above 65536, naming them", async () => {
    for (const [field, value] of [
      ["cpu_cores", 1025],
      ["ram_gb", 65537],
    ] as const) {
      const res = await account.post("/marketplace/providers/databases", { entries: [databaseEntry({ service: `bounds-${field}`, [field]: value })] });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    await account.post("/marketplace/providers/databases", { entries: [databaseEntry({ service: "bounds-ok", cpu_cores: 128, ram_gb: 4096 })] }).expect(201);
  });

  it("period_billing_hours in the list's query is plain decimal digits", async () => {
    for (const hours of ["7.3e2", "0x2DA", "+730", " 730", "Infinity"]) {
      const res = await account.get(`/marketplace/providers/databases?period_billing_hours=${encodeURIComponent(hours)}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain("period_billing_hours");
    }
    await account.get("/marketplace/providers/databases?period_billing_hours=730").expect(200);
    await account.get("/marketplace/providers/databases?period_billing_hours=730.5").expect(200);
  });
});

describe("the catalog file", () => {
  const file = (vcpu: string, memory: string, gpus: string) =>
    `${PRICE_FILE_COLUMNS.join(",")}\naws,us-east-1,zz.huge,zz,${vcpu},${memory},${gpus},x86_64,linux,on_demand,1,2026-11-01\n`;

  it("refuses more than 1024 vCPUs, 65536 GiB or 64 GPUs, naming the column", () => {
    expect(() => parsePriceFile(file("1025", "8", "0"))).toThrow(/vcpu/);
    expect(() => parsePriceFile(file("2", "65537", "0"))).toThrow(/memory_gib/);
    expect(() => parsePriceFile(file("2", "8", "65"))).toThrow(/gpu_count/);
    expect(parsePriceFile(file("1024", "65536", "64"))).toHaveLength(1);
  });
});
