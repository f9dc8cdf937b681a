import {
  ReportPathParams,
  CreateReportRequest,
  DATABASE_QUANTITY_KEYS,
  DATABASE_QUANTITY_RATE_FIELDS,
  MODEL_QUANTITY_KEYS,
  Pin,
  PinList,
  PinPathParams,
  PinRequest,
  Report,
  UsageLine,
  UsageRequest,
  UsageResponse,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const modelLine = {
  resource_id: "chatbot-prod",
  kind: "model",
  timestamp: "2026-11-21T23:00:00+01:00",
  labels: { "costs.example.com/pricing-id.model": "mpr_01JD8X3ZK2" },
  quantities: { input: 1_200_000, output: 300_000, cache_read: 0 },
};
const databaseLine = {
  resource_id: "orders-db",
  kind: "database",
  timestamp: "2026-11-21T22:00:00Z",
  tags: { "costs.example.com/pricing-id.database": "dpr_01JD8X3ZK2" },
  quantities: { hours: 730, storage_gb_hours: 73000, io_requests: 1e6 },
};
const resolvedLine = {
  index: 0,
  resource_id: "chatbot-prod",
  kind: "model",
  resolved: true,
  pricing_id: "mpr_01JD8X3ZK2",
  reason: null,
  currency: "USD",
  unit_prices: { input: 1.6, output: 6.4, cache_read: 0.32 },
  cost: 3.84,
};
const unresolvedLine = {
  index: 1,
  resource_id: "orders-db",
  kind: "database",
  resolved: false,
  pricing_id: "dpr_01JD8X3ZK2",
  reason: "unknown_pricing_id",
  currency: null,
  unit_prices: null,
  cost: null,
};

describe("pins", () => {
  it("accept a pin request, a pin and a pin list", () => {
    accept(PinPathParams, { kind: "database", resource_id: "orders-db" });
    accept(PinRequest, { pricing_id: "dpr_01JD8X3ZK2" });
    const pin = {
      kind: "database",
      resource_id: "orders-db",
      pricing_id: "dpr_01JD8X3ZK2",
      created_at: "2026-11-21T22:47:22.123Z",
      updated_at: "2026-11-21T22:47:22.123Z",
    };
    accept(Pin, pin);
    accept(PinList, { pins: [pin] });
  });
  it("reject another kind and a malformed pricing id", () => {
    reject(PinPathParams, { kind: "vm", resource_id: "x" }, ["kind"]);
    reject(PinRequest, {}, ["pricing_id"]);
    reject(PinRequest, { pricing_id: "dpr 1" }, ["pricing_id"]);
  });
});

describe("usage lines", () => {
  it("accept model and database lines and normalise timestamps", () => {
    const body = accept(UsageRequest, { usage: [modelLine, databaseLine] });
    expect(body.usage[0].timestamp).toBe("2026-11-21T22:00:00.000Z");
  });
  it("accept every quantity key of each kind", () => {
    accept(UsageLine, { ...modelLine, quantities: Object.fromEntries(MODEL_QUANTITY_KEYS.map((key) => [key, 1])) });
    accept(UsageLine, { ...databaseLine, quantities: Object.fromEntries(DATABASE_QUANTITY_KEYS.map((key) => [key, 1])) });
    expect(Object.keys(DATABASE_QUANTITY_RATE_FIELDS).sort()).toEqual([...DATABASE_QUANTITY_KEYS].sort());
  });
  it.each([
    [{ ...modelLine, quantities: { input: 1, tokens: 5 } }, ["quantities", "tokens"]],
    [{ ...modelLine, quantities: { hours: 1 } }, ["quantities", "hours"]],
    [{ ...databaseLine, quantities: { input: 1 } }, ["quantities", "input"]],
    [{ ...databaseLine, quantities: { hours: -1 } }, ["quantities", "hours"]],
    [{ ...databaseLine, quantities: { hours: "730" } }, ["quantities", "hours"]],
    [{ ...databaseLine, quantities: {} }, ["quantities"]],
    [{ ...databaseLine, quantities: undefined }, ["quantities"]],
    [{ ...databaseLine, kind: "compute" }, ["kind"]],
    [{ ...databaseLine, timestamp: undefined }, ["timestamp"]],
    [{ ...databaseLine, tags: { env: 1 } }, ["tags", "env"]],
    [{ ...databaseLine, resource_id: "" }, ["resource_id"]],
  ])("reject an invalid line (%#)", (line, path) => {
    reject(UsageLine, line, path);
    reject(UsageRequest, { usage: [databaseLine, line] }, ["usage", 1, ...path]);
  });
  it("take 1 to 10000 lines", () => {
    reject(UsageRequest, { usage: [] }, ["usage"]);
    reject(UsageRequest, { usage: Array(10001).fill(databaseLine) }, ["usage"]);
    accept(UsageRequest, { usage: Array(10000).fill(databaseLine) });
  });
});

describe("priced usage and reports", () => {
  const totals = [{ currency: "USD", cost: 3.84 }];
  it("accept resolved and unresolved lines", () => {
    accept(UsageResponse, { lines: [resolvedLine, unresolvedLine], totals });
    accept(UsageResponse, { lines: [unresolvedLine], totals: [] });
    accept(Report, {
      id: "rpt_01JD8X3ZK2",
      name: "November",
      created_at: "2026-11-21T22:47:22.123Z",
      lines: [resolvedLine],
      totals,
    });
  });
  it("reject an unknown reason, a missing cost and a missing totals", () => {
    reject(UsageResponse, { lines: [{ ...unresolvedLine, reason: "expired" }], totals }, ["lines", 0, "reason"]);
    reject(UsageResponse, { lines: [{ ...resolvedLine, cost: undefined }], totals }, ["lines", 0, "cost"]);
    reject(UsageResponse, { lines: [] }, ["totals"]);
  });
  it("CreateReportRequest needs a name and usage lines", () => {
    accept(CreateReportRequest, { name: "November", usage: [modelLine] });
    reject(CreateReportRequest, { name: "  ", usage: [modelLine] }, ["name"]);
    reject(CreateReportRequest, { name: "x".repeat(201), usage: [modelLine] }, ["name"]);
    reject(CreateReportRequest, { name: "November", usage: [] }, ["usage"]);
    reject(CreateReportRequest, { name: "November", usage: [{ ...modelLine, quantities: { storage_gb_hours: 1 } }] }, [
      "usage",
      0,
      "quantities",
      "storage_gb_hours",
    ]);
  });
});

describe("ReportPathParams", () => {
  it("takes a service id", () => {
    accept(ReportPathParams, { id: "rpt_01JD8X3ZK2" });
    reject(ReportPathParams, { id: "rpt 1" }, ["id"]);
    reject(ReportPathParams, { id: "r".repeat(65) }, ["id"]);
  });
});
