import {
  DeleteByIdQuery,
  ExactAmount,
  DeleteModelsResponse,
  ListModelsResponse,
  MarketplaceError,
  ModelListQuery,
  ModelPricingEntry,
  ModelPricingEntryInput,
  RegisterModelsRequest,
  RegisterModelsResponse,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const entry = {
  provider: "alibaba",
  publisher: "Alibaba",
  model: "Qwen Max",
  model_id: "qwen-max",
  token_bucket: "input",
  unit_price_per_mtok: 1.6,
  effective_from: "2026-11-21T23:00:00+01:00",
  context_limit: 32768,
  output_limit: 8192,
  modalities_input: ["text"],
  modalities_output: ["text"],
  open_weights: false,
  reasoning: true,
  structured_output: null,
  tool_call: true,
  raw_pricing_data: { input: 1.6, output: 6.4 },
  tags: { team: "ml" },
};

const stored = {
  id: "mpr_01JD8X3ZK2QH7V9W4M5N6P7R8S",
  provider: "alibaba",
  publisher: "Alibaba",
  host: null,
  model: "Qwen Max",
  model_id: "qwen-max",
  region: null,
  token_bucket: "input",
  unit_price_per_mtok: 1.6,
  currency: "USD",
  effective_from: "2026-11-21T22:00:00.000Z",
  effective_to: null,
  fetched_at: null,
  sku_price_id: null,
  source: null,
  source_url: null,
  context_limit: 32768,
  output_limit: 8192,
  modalities_input: ["text"],
  modalities_output: ["text"],
  open_weights: false,
  reasoning: true,
  structured_output: null,
  tool_call: true,
  raw_pricing_data: {},
  tags: {},
};

describe("ModelPricingEntryInput", () => {
  it("accepts a realistic entry, defaults currency and normalises timestamps", () => {
    const parsed = accept(ModelPricingEntryInput, entry);
    expect(parsed.currency).toBe("USD");
    expect(parsed.effective_from).toBe("2026-11-21T22:00:00.000Z");
  });
  it("needs only provider, model, token_bucket and unit_price_per_mtok", () => {
    accept(ModelPricingEntryInput, { provider: "openai", model: "gpt-4o", token_bucket: "cache_read", unit_price_per_mtok: 0 });
  });
  it("accepts a stored entry echoed back (nulls for absent fields)", () => {
    accept(ModelPricingEntryInput, stored);
  });
  it.each(["provider", "model", "token_bucket", "unit_price_per_mtok"])("requires %s", (field) => {
    reject(ModelPricingEntryInput, { ...entry, [field]: undefined }, [field]);
  });
  it.each([
    [{ unit_price_per_mtok: -0.01 }, ["unit_price_per_mtok"]],
    [{ unit_price_per_mtok: "1.6" }, ["unit_price_per_mtok"]],
    [{ token_bucket: "prompt" }, ["token_bucket"]],
    [{ token_bucket: "INPUT" }, ["token_bucket"]],
    [{ currency: "usd" }, ["currency"]],
    [{ context_limit: -1 }, ["context_limit"]],
    [{ output_limit: 1.5 }, ["output_limit"]],
    [{ modalities_input: "text" }, ["modalities_input"]],
    [{ tags: ["a"] }, ["tags"]],
    [{ effective_from: "tomorrow" }, ["effective_from"]],
    [{ provider: "" }, ["provider"]],
  ])("rejects %j", (change, path) => {
    reject(ModelPricingEntryInput, { ...entry, ...change }, path);
  });
});

describe("RegisterModelsRequest", () => {
  it("takes 1 to 1000 entries", () => {
    accept(RegisterModelsRequest, { entries: [entry, { ...entry, token_bucket: "output", unit_price_per_mtok: 6.4 }] });
    accept(RegisterModelsRequest, { entries: Array(1000).fill(entry) });
    reject(RegisterModelsRequest, { entries: [] }, ["entries"]);
    reject(RegisterModelsRequest, { entries: Array(1001).fill(entry) }, ["entries"]);
    reject(RegisterModelsRequest, {}, ["entries"]);
    reject(RegisterModelsRequest, { entries: [{ ...entry, unit_price_per_mtok: -1 }] }, ["entries", 0, "unit_price_per_mtok"]);
  });
});

describe("model responses", () => {
  it("accept stored entries with their status", () => {
    accept(RegisterModelsResponse, { entries: [stored], status: "Registered" });
    accept(ListModelsResponse, { entries: [stored], status: "OK" });
    accept(DeleteModelsResponse, { entries: [{ ...stored, effective_to: "2026-11-22T08:00:00.000Z" }], status: "Deleted" });
  });
  it("reject a wrong status and entries missing a field", () => {
    reject(RegisterModelsResponse, { entries: [stored], status: "OK" }, ["status"]);
    reject(ListModelsResponse, { entries: [{ ...stored, host: undefined }], status: "OK" }, ["entries", 0, "host"]);
    reject(ModelPricingEntry, { ...stored, modalities_input: null }, ["modalities_input"]);
    reject(ModelPricingEntry, { ...stored, id: "mpr 1" }, ["id"]);
  });
  it("MarketplaceError is {error}", () => {
    accept(MarketplaceError, { error: "entries must contain at least 1 element" });
    reject(MarketplaceError, { message: "x" }, ["error"]);
  });
});

describe("queries", () => {
  it("ModelListQuery filters by identity and parses include_closed", () => {
    expect(accept(ModelListQuery, { provider: "alibaba", model_id: "qwen-max", include_closed: "True" })).toEqual({
      provider: "alibaba",
      model_id: "qwen-max",
      include_closed: true,
    });
    reject(ModelListQuery, { include_closed: "1" }, ["include_closed"]);
    reject(ModelListQuery, { token_bucket: "prompt" }, ["token_bucket"]);
    reject(ModelListQuery, { provider: ["a", "b"] }, ["provider"]);
  });
  it("DeleteByIdQuery needs a well-formed id", () => {
    accept(DeleteByIdQuery, { id: "mpr_01JD8X3ZK2" });
    reject(DeleteByIdQuery, {}, ["id"]);
    reject(DeleteByIdQuery, { id: "x".repeat(65) }, ["id"]);
    reject(DeleteByIdQuery, { id: "../etc" }, ["id"]);
  });
});

describe("ExactAmount", () => {
  it("accepts 0 to 1e15, including float noise (stored to 12 decimals)", () => {
    for (const value of [0, 0.15, 0.1 + 0.2, 1e-7, 1e15]) accept(ExactAmount, value);
  });
  it("rejects negative, too large, non-finite and non-number amounts", () => {
    for (const value of [-0.000001, 1e15 + 1, Infinity, NaN, "0.15", null]) reject(ExactAmount, value);
  });
  it("bounds context and output limits to 32-bit integers", () => {
    reject(ModelPricingEntryInput, { ...entry, context_limit: 2 ** 31 }, ["context_limit"]);
    accept(ModelPricingEntryInput, { ...entry, context_limit: 2 ** 31 - 1 });
  });
});
