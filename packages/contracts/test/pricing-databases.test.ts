import {
  DATABASE_NUMBER_FIELDS,
  DATABASE_OPTIONAL_KEY_FIELDS,
  DatabaseListQuery,
  DatabasePricingEntry,
  DatabasePricingEntryInput,
  DeleteDatabasesResponse,
  RegisterDatabasesRequest,
  RegisterDatabasesResponse,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const entry = {
  provider: "aws",
  service: "rds",
  region: "eu-west-1",
  engine: "PostgreSQL",
  deployment_option: "single_az",
  storage_type: "gp3",
  instance_type: "db.r6g.large",
  architecture: "arm64",
  cost_per_hour: 0.258,
  cost_per_storage_gb_hour: 0.000158,
  cost_per_io_request: 0,
  cpu_cores: 2,
  ram_gb: 16,
  min_storage_gb: 20,
  max_storage_gb: 65536,
  tags: { team: "data" },
};

const stored = {
  id: "dpr_01JD8X3ZK2",
  provider: "aws",
  service: "rds",
  region: "eu-west-1",
  ...Object.fromEntries(DATABASE_OPTIONAL_KEY_FIELDS.map((field) => [field, null])),
  ...Object.fromEntries(DATABASE_NUMBER_FIELDS.map((field) => [field, null])),
  engine: "PostgreSQL",
  period_billing_hours: 730,
  currency: "USD",
  capacity_unit: null,
  cost_per_hour: 0.258,
  created_at: "2026-11-21T22:47:22.123Z",
  updated_at: "2026-11-21T22:47:22.123Z",
  raw_pricing_data: {},
  tags: {},
};

describe("DatabasePricingEntryInput", () => {
  it("accepts a realistic entry and fills the defaults", () => {
    const parsed = accept(DatabasePricingEntryInput, entry);
    expect(parsed.period_billing_hours).toBe(730);
    expect(parsed.currency).toBe("USD");
    expect(parsed.engine).toBe("PostgreSQL");
  });
  it("needs only provider, service and region, and accepts an echoed stored entry", () => {
    accept(DatabasePricingEntryInput, { provider: "gcp", service: "cloudsql", region: "europe-west1" });
    accept(DatabasePricingEntryInput, stored);
  });
  it.each(["provider", "service", "region"])("requires %s", (field) => {
    reject(DatabasePricingEntryInput, { ...entry, [field]: undefined }, [field]);
  });
  it.each([
    [{ cost_per_hour: -0.1 }, ["cost_per_hour"]],
    [{ native_cost_per_storage_gb_hour: -1 }, ["native_cost_per_storage_gb_hour"]],
    [{ max_iops: "3000" }, ["max_iops"]],
    [{ period_billing_hours: 0 }, ["period_billing_hours"]],
    [{ currency: "EURO" }, ["currency"]],
    [{ engine: 5 }, ["engine"]],
    [{ min_storage_gb: 100, max_storage_gb: 20 }, ["min_storage_gb"]],
    [{ raw_pricing_data: "text" }, ["raw_pricing_data"]],
  ])("rejects %j", (change, path) => {
    reject(DatabasePricingEntryInput, { ...entry, ...change }, path);
  });
  it("RegisterDatabasesRequest takes 1 to 1000 entries", () => {
    accept(RegisterDatabasesRequest, { entries: [entry] });
    reject(RegisterDatabasesRequest, { entries: [] }, ["entries"]);
    reject(RegisterDatabasesRequest, { entries: Array(1001).fill(entry) }, ["entries"]);
  });
});

describe("database responses", () => {
  it("returns every field, absent ones null", () => {
    accept(RegisterDatabasesResponse, { entries: [stored], status: "Registered" });
    accept(DeleteDatabasesResponse, { entries: [stored], status: "Deleted" });
    reject(DatabasePricingEntry, { ...stored, edition: undefined }, ["edition"]);
    reject(DatabasePricingEntry, { ...stored, tags: null }, ["tags"]);
    reject(DeleteDatabasesResponse, { entries: [stored], status: "Removed" }, ["status"]);
  });
});

describe("DatabaseListQuery", () => {
  it("filters by the natural key", () => {
    expect(accept(DatabaseListQuery, { provider: "aws", engine: "PostgreSQL", period_billing_hours: "730" })).toEqual({
      provider: "aws",
      engine: "PostgreSQL",
      period_billing_hours: 730,
    });
    reject(DatabaseListQuery, { period_billing_hours: "monthly" }, ["period_billing_hours"]);
    reject(DatabaseListQuery, { region: ["a", "b"] }, ["region"]);
  });
});
