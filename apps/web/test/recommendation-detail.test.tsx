import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Recommendation } from "../src/features/recommendations/recommendation";
import { RecommendationDetail } from "../src/features/recommendations/components/RecommendationDetail";

const base: Recommendation = {
  resource_id: "vm-1",
  name: "web-1",
  resource_type: "virtual_machine",
  provider: "aws",
  region: "us-east-1",
  availability_zone: null,
  instance_type: "m5.xlarge",
  architecture: "x86_64",
  operating_system: "linux",
  cpu_cores: 4,
  ram_gb: 16,
  labels: {},
  active: true,
  action: "DOWNSIZE",
  current_instance_type: "m5.xlarge",
  recommended_instance_type: "m5.large",
  current_monthly_cost_usd: 140.16,
  recommended_monthly_cost_usd: 70.08,
  savings_monthly_usd: 70.08,
  stats: { cpu_p95: 12.5, cpu_max: 40, memory_p95: 30, samples: 336, window_start: "2026-11-11T00:00:00.000Z", window_end: "2026-11-25T00:00:00.000Z" },
  purchase_option: "on_demand",
  finding_reasons: [],
  options: [],
  price: null,
  analyzed_at: "2026-11-25T01:00:00.000Z",
  state: "open",
  state_reason: null,
  snoozed_until: null,
  retired_at: null,
};

afterEach(cleanup);

describe("recommendation detail panel", () => {
  it("shows the statistics and window, and no reasons or options sections when the item has none", () => {
    render(<RecommendationDetail open item={base} loading={false} onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "web-1" })).toBeTruthy();
    expect(screen.getByText("336")).toBeTruthy();
    expect(screen.getByText(/12.5 % \/ 40 %/)).toBeTruthy();
    expect(screen.getByText(/2026-11-11 00:00 UTC to 2026-11-25 00:00 UTC/)).toBeTruthy();
    expect(screen.queryByText("Why")).toBeNull();
    expect(screen.queryByText("Options, best first")).toBeNull();
  });

  it("shows finding reasons, ranked options with risk and effort, and price provenance when present", () => {
    const item: Recommendation = {
      ...base,
      finding_reasons: ["cpu_over_provisioned", "memory_unknown"],
      options: [
        {
          instance_type: "m5.large",
          cpu_cores: 2,
          ram_gb: 8,
          monthly_cost_usd: 70.08,
          savings_monthly_usd: 70.08,
          projected_cpu_p95: 25,
          projected_memory_p95: 60,
          performance_risk: "low",
          migration_effort: "low",
        },
        {
          instance_type: "c6g.large",
          cpu_cores: 2,
          ram_gb: 4,
          monthly_cost_usd: 49.64,
          savings_monthly_usd: 90.52,
          projected_cpu_p95: 25,
          projected_memory_p95: 120,
          performance_risk: "high",
          migration_effort: "high",
        },
      ],
      price: { basis: "effective", source: "negotiated", price_date: "2026-11-20T00:00:00.000Z" },
    };
    render(<RecommendationDetail open item={item} loading={false} onClose={() => {}} />);
    expect(screen.getByText("More vCPU than the CPU need")).toBeTruthy();
    const rows = screen.getAllByRole("row").map((row) => row.textContent);
    expect(rows[1]).toMatch(/^m5\.large.*\$70\.08.*low.*low$/);
    expect(rows[2]).toMatch(/^c6g\.large.*\$49\.64.*\$90\.52.*high.*high$/);
    expect(screen.getByText(/Your effective prices from negotiated, dated 2026-11-20/)).toBeTruthy();
  });

  it("explains a burstable type that would run out of credits (rule version 4)", () => {
    const item: Recommendation = {
      ...base,
      instance_type: "t3.large",
      action: "UPSIZE",
      current_instance_type: "t3.large",
      recommended_instance_type: "c6a.large",
      finding_reasons: ["cpu_under_provisioned", "burst_credits_exhausted"],
    };
    render(<RecommendationDetail open item={item} loading={false} onClose={() => {}} />);
    expect(screen.getByText("Fewer vCPU than the CPU need")).toBeTruthy();
    // Its words, not the code.
    expect(screen.getByText(/would run out of CPU credits/)).toBeTruthy();
    expect(screen.queryByText("burst_credits_exhausted")).toBeNull();
  });

  it("says so when the resource is not on the page", () => {
    render(<RecommendationDetail open item={undefined} loading={false} onClose={() => {}} />);
    expect(screen.getByText(/not on the current page/)).toBeTruthy();
  });
});
