import {
  AnalyzeResponse,
  ComputeResourceInput,
  HeartbeatsRequest,
  IngestMetricsRequest,
  RecommendationItem,
  RecommendationSummary,
  RecommendationsPage,
  RecommendationsQuery,
  SummaryQuery,
  UpsertResourcesRequest,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const resource = {
  resource_id: "i-0abc123def456",
  name: "web-1",
  resource_type: "virtual_machine",
  provider: "aws",
  region: "us-east-1",
  availability_zone: "us-east-1a",
  instance_type: "m5.xlarge",
  architecture: "x86_64",
  operating_system: "linux",
  cpu_cores: 4,
  ram_gb: 16,
  labels: { team: "web", env: "prod" },
};

describe("inventory", () => {
  it("accepts a full resource and defaults resource_type", () => {
    accept(UpsertResourcesRequest, { resources: [resource] });
    expect(accept(ComputeResourceInput, { resource_id: "node-1" }).resource_type).toBe("virtual_machine");
    expect(accept(ComputeResourceInput, { resource_id: "node-1" }).purchase_option).toBe("on_demand");
  });
  it.each([
    [{ ...resource, resource_id: undefined }, ["resource_id"]],
    [{ ...resource, resource_id: "x".repeat(257) }, ["resource_id"]],
    [{ ...resource, resource_type: "VirtualMachine" }, ["resource_type"]],
    [{ ...resource, architecture: "amd64" }, ["architecture"]],
    [{ ...resource, operating_system: "Linux" }, ["operating_system"]],
    [{ ...resource, cpu_cores: 0 }, ["cpu_cores"]],
    [{ ...resource, ram_gb: -1 }, ["ram_gb"]],
    [{ ...resource, labels: { team: 1 } }, ["labels", "team"]],
    [{ ...resource, purchase_option: "Spot" }, ["purchase_option"]],
  ])("rejects an invalid resource (%#)", (body, path) => {
    reject(ComputeResourceInput, body, path);
  });
  it("takes 1 to 1000 distinct resources", () => {
    reject(UpsertResourcesRequest, { resources: [] }, ["resources"]);
    const many = Array.from({ length: 1001 }, (_, i) => ({ resource_id: `vm-${i}` }));
    reject(UpsertResourcesRequest, { resources: many }, ["resources"]);
    accept(UpsertResourcesRequest, { resources: many.slice(0, 1000) });
    reject(UpsertResourcesRequest, { resources: [resource, resource] }, ["resources", 1, "resource_id"]);
  });
});

describe("metrics and heartbeats", () => {
  const sample = { resource_id: "i-0abc123def456", timestamp: "2026-11-21T23:00:00+01:00", cpu_utilization: 12.5 };
  it("accepts samples and normalises their timestamps", () => {
    const body = accept(IngestMetricsRequest, { samples: [sample, { ...sample, memory_utilization: 100 }] });
    expect(body.samples[0].timestamp).toBe("2026-11-21T22:00:00.000Z");
  });
  it.each([
    [{ ...sample, cpu_utilization: 100.1 }, ["samples", 0, "cpu_utilization"]],
    [{ ...sample, cpu_utilization: -1 }, ["samples", 0, "cpu_utilization"]],
    [{ ...sample, memory_utilization: 101 }, ["samples", 0, "memory_utilization"]],
    [{ ...sample, timestamp: "2026-11-21" }, ["samples", 0, "timestamp"]],
    [{ ...sample, cpu_utilization: undefined }, ["samples", 0, "cpu_utilization"]],
  ])("rejects an invalid sample (%#)", (bad, path) => {
    reject(IngestMetricsRequest, { samples: [bad] }, path);
  });
  it("limits samples to 1..10000", () => {
    reject(IngestMetricsRequest, { samples: [] }, ["samples"]);
    reject(IngestMetricsRequest, { samples: Array(10001).fill(sample) }, ["samples"]);
  });
  it("heartbeats take resource ids and an optional timestamp", () => {
    accept(HeartbeatsRequest, { resource_ids: ["i-0abc123def456"] });
    accept(HeartbeatsRequest, { resource_ids: ["a", "b"], timestamp: "2026-11-21T22:47:22Z" });
    reject(HeartbeatsRequest, { resource_ids: [] }, ["resource_ids"]);
    reject(HeartbeatsRequest, { resource_ids: ["a"], timestamp: "now" }, ["timestamp"]);
  });
});

describe("SummaryQuery", () => {
  it("defaults resource_type and leaves filters out", () => {
    expect(accept(SummaryQuery, {})).toEqual({ resource_type: "virtual_machine" });
  });
  it("accepts comma-separated, repeated and mixed array parameters", () => {
    expect(
      accept(SummaryQuery, {
        resource_type: "kubernetes_node",
        provider: "aws, gcp",
        region: ["us-east-1", "eu-west-1,europe-west1"],
        architecture: "arm64",
        operating_system: ["linux"],
        active: "TRUE",
      }),
    ).toEqual({
      resource_type: "kubernetes_node",
      provider: ["aws", "gcp"],
      region: ["us-east-1", "eu-west-1", "europe-west1"],
      architecture: ["arm64"],
      operating_system: ["linux"],
      active: true,
    });
  });
  it.each([
    [{ resource_type: "database" }, ["resource_type"]],
    [{ resource_type: ["virtual_machine", "kubernetes_node"] }, ["resource_type"]],
    [{ active: "yes" }, ["active"]],
    [{ architecture: "x86_64,amd64" }, ["architecture", 1]],
    [{ operating_system: "macos" }, ["operating_system", 0]],
  ])("rejects %j", (query, path) => {
    reject(SummaryQuery, query, path);
  });
});

describe("RecommendationsQuery", () => {
  it("adds action filters (PENDING included) and pagination", () => {
    expect(accept(RecommendationsQuery, { action: "DOWNSIZE,PENDING", limit: "50", cursor: "abc" })).toEqual({
      resource_type: "virtual_machine",
      action: ["DOWNSIZE", "PENDING"],
      limit: 50,
      cursor: "abc",
    });
    expect(accept(RecommendationsQuery, {}).limit).toBe(100);
  });
  it("rejects unknown actions and out-of-range limits", () => {
    reject(RecommendationsQuery, { action: "downsize" }, ["action", 0]);
    reject(RecommendationsQuery, { action: ["DOWNSIZE", "SHUTDOWN"] }, ["action", 1]);
    reject(RecommendationsQuery, { limit: "501" }, ["limit"]);
  });
});

describe("RecommendationSummary", () => {
  const summary = {
    total_resources: 5,
    analyzed_resources: 4,
    analysis_coverage: 0.8,
    action_counts: { downsize: 1, upsize: 1, terminate: 1, noop: 1, no_recommendation: 0, pending: 1 },
    actionable_count: 3,
    potential_savings_monthly_usd: 150.42,
    potential_savings_annual_usd: 1805.04,
    top_savers: [
      {
        resource_id: "i-0abc123def456",
        name: "web-1",
        resource_type: "virtual_machine",
        current_instance_type: "m5.xlarge",
        recommended_instance_type: "m5.large",
        savings_monthly_usd: 70.08,
      },
    ],
  };
  it("accepts a realistic summary", () => {
    accept(RecommendationSummary, summary);
  });
  it("rejects missing counts, coverage above 1 and more than 10 top savers", () => {
    reject(RecommendationSummary, { ...summary, action_counts: { ...summary.action_counts, pending: undefined } }, ["action_counts", "pending"]);
    reject(RecommendationSummary, { ...summary, action_counts: null }, ["action_counts"]);
    reject(RecommendationSummary, { ...summary, analysis_coverage: 1.2 }, ["analysis_coverage"]);
    reject(RecommendationSummary, { ...summary, total_resources: 2.5 }, ["total_resources"]);
    reject(RecommendationSummary, { ...summary, top_savers: Array(11).fill(summary.top_savers[0]) }, ["top_savers"]);
    const { potential_savings_annual_usd: _omitted, ...incomplete } = summary;
    reject(RecommendationSummary, incomplete, ["potential_savings_annual_usd"]);
  });
});

describe("RecommendationItem", () => {
  const analyzed = {
    ...resource,
    purchase_option: "spot",
    active: true,
    action: "DOWNSIZE",
    current_instance_type: "m5.xlarge",
    recommended_instance_type: "m5.large",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 70.08,
    savings_monthly_usd: 70.08,
    stats: {
      cpu_p95: 21.4,
      cpu_max: 38.9,
      memory_p95: null,
      samples: 2016,
      window_start: "2026-11-07T22:50:00.000Z",
      window_end: "2026-11-21T22:45:00.000Z",
    },
    finding_reasons: ["cpu_over_provisioned", "memory_unknown"],
    options: [
      {
        instance_type: "m5.large",
        cpu_cores: 2,
        ram_gb: 8,
        monthly_cost_usd: 70.08,
        savings_monthly_usd: 70.08,
        projected_cpu_p95: 42.8,
        projected_memory_p95: null,
        performance_risk: "low",
        migration_effort: "low",
      },
    ],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    analyzed_at: "2026-11-21T22:47:22.123Z",
    state: "dismissed",
    state_reason: "kept for the quarter-end batch",
    snoozed_until: null,
    retired_at: null,
  };
  const pending = {
    resource_id: "node-7",
    name: null,
    resource_type: "kubernetes_node",
    provider: null,
    region: null,
    availability_zone: null,
    instance_type: null,
    architecture: null,
    operating_system: null,
    cpu_cores: null,
    ram_gb: null,
    labels: {},
    purchase_option: "on_demand",
    active: false,
    action: null,
    current_instance_type: null,
    recommended_instance_type: null,
    current_monthly_cost_usd: null,
    recommended_monthly_cost_usd: null,
    savings_monthly_usd: null,
    stats: null,
    finding_reasons: [],
    options: [],
    price: null,
    analyzed_at: null,
    state: "open",
    state_reason: null,
    snoozed_until: null,
    retired_at: null,
  };
  it("accepts analyzed and pending items in a page", () => {
    accept(RecommendationsPage, { items: [analyzed, pending], next_cursor: null });
  });
  it("rejects PENDING as an action value, missing stats fields and a missing field", () => {
    reject(RecommendationItem, { ...analyzed, action: "PENDING" }, ["action"]);
    reject(RecommendationItem, { ...analyzed, stats: { ...analyzed.stats, samples: undefined } }, ["stats", "samples"]);
    reject(RecommendationItem, { ...pending, analyzed_at: undefined }, ["analyzed_at"]);
    reject(RecommendationItem, { ...analyzed, state: "ignored" }, ["state"]);
    reject(RecommendationItem, { ...analyzed, finding_reasons: ["bored"] }, ["finding_reasons", 0]);
    reject(RecommendationItem, { ...analyzed, options: [...analyzed.options, ...analyzed.options, ...analyzed.options, ...analyzed.options] }, ["options"]);
  });
  it("AnalyzeResponse holds integer counts", () => {
    accept(AnalyzeResponse, { analyzed_resources: 12, duration_ms: 842 });
    reject(AnalyzeResponse, { analyzed_resources: -1, duration_ms: 842 }, ["analyzed_resources"]);
  });
});
