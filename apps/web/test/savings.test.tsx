import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RealizedSavingsItem, RecommendationItem, RecommendationSummary } from "@cloudcost/contracts";
import { savingsByMonth } from "../src/features/savings/savings";
import Recommendations from "../src/features/recommendations/components/Recommendations";
import Savings from "../src/features/savings/components/Savings";

const me = (role: string) => meAs(role, ["ten_1"], { id: `usr_${role}`, email: `${role}@acme.example`, name: role });

/** A followed DOWNSIZE measured on the bill (November) and a retired TERMINATE priced from the catalog (October). */
const SAVED: RealizedSavingsItem[] = [
  {
    resource_id: "vm-idle",
    recommendation: { action: "TERMINATE", recommended_instance_type: "", savings_monthly_usd: 70.08, analyzed_at: "2026-10-20T00:00:00.000Z" },
    change: { at: "2026-10-21T09:00:00.000Z", from: { instance_type: "m5.large", cpu_cores: 2, ram_gb: 8 }, to: null },
    followed: true,
    before_monthly_usd: 70.08,
    after_monthly_usd: 0,
    realized_savings_monthly_usd: 70.08,
    basis: "catalog",
    days_observed: 0,
  },
  {
    resource_id: "vm-web",
    recommendation: { action: "DOWNSIZE", recommended_instance_type: "m5.xlarge", savings_monthly_usd: 140.16, analyzed_at: "2026-11-01T00:00:00.000Z" },
    change: {
      at: "2026-11-13T00:00:00.000Z",
      from: { instance_type: "m5.2xlarge", cpu_cores: 8, ram_gb: 32 },
      to: { instance_type: "m5.xlarge", cpu_cores: 4, ram_gb: 16 },
    },
    followed: true,
    before_monthly_usd: 280.32,
    after_monthly_usd: 150.01,
    realized_savings_monthly_usd: 130.31,
    basis: "bill",
    days_observed: 14,
  },
];

const ITEM: RecommendationItem = {
  resource_id: "vm-web",
  name: "web",
  resource_type: "virtual_machine",
  provider: "aws",
  region: "us-east-1",
  availability_zone: null,
  instance_type: "m5.2xlarge",
  architecture: "x86_64",
  operating_system: "linux",
  cpu_cores: 8,
  ram_gb: 32,
  labels: {},
  purchase_option: "on_demand",
  active: true,
  action: "DOWNSIZE",
  current_instance_type: "m5.2xlarge",
  recommended_instance_type: "m5.xlarge",
  current_monthly_cost_usd: 280.32,
  recommended_monthly_cost_usd: 140.16,
  savings_monthly_usd: 140.16,
  stats: null,
  finding_reasons: ["cpu_over_provisioned"],
  options: [],
  price: null,
  analyzed_at: "2026-11-27T00:00:00.000Z",
  state: "open",
  state_reason: null,
  snoozed_until: null,
  retired_at: null,
};
const SUMMARY: RecommendationSummary = {
  total_resources: 1,
  analyzed_resources: 1,
  analysis_coverage: 1,
  action_counts: { downsize: 1, upsize: 0, terminate: 0, noop: 0, no_recommendation: 0, pending: 0 },
  actionable_count: 1,
  potential_savings_monthly_usd: 140.16,
  potential_savings_annual_usd: 1681.92,
  top_savers: [],
};

let requests: { url: URL; method: string; body: unknown }[] = [];
// Realized counts the bill's figure only (130.31); the catalog's 70.08 is projected.
let savingsAnswer: { items: RealizedSavingsItem[]; totals: { estimated: number; realized: number; projected: number } } = {
  items: SAVED,
  totals: { estimated: 210.24, realized: 130.31, projected: 70.08 },
};

function answer(role: string) {
  requests = [];
  stubFetch(async ({ url, method, body }) => {
    requests.push({ url, method, body });
    const decision = body as { state?: string; reason?: string; snoozed_until?: string } | undefined;
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/tenant/compute/savings": savingsAnswer,
      "/api/v1/tenant/compute/recommendations/summary": SUMMARY,
      "/api/v1/tenant/compute/recommendations": { items: [ITEM], next_cursor: null },
      "/api/v1/tenant/compute/recommendations/vm-web": {
        resource_id: "vm-web",
        action: "DOWNSIZE",
        recommended_instance_type: "m5.xlarge",
        state: decision?.state,
        state_reason: decision?.reason ?? null,
        snoozed_until: decision?.snoozed_until ?? null,
      },
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
}

function renderAt(path: string) {
  renderInShell(
    path,
    <>
      <Route path="savings" element={<Savings />} />
      <Route path="recommendations" element={<Recommendations />} />
    </>,
  );
}

beforeEach(signedIn);
afterEach(signedOut);

describe("the savings page", () => {
  it("is in the navigation, asks for the last 3 months, and shows estimated, realized and projected per month and per resource with each figure's basis", async () => {
    answer("viewer");
    renderAt("/savings");
    expect((await screen.findByTestId("savings-realized")).textContent).toContain("$130.31");
    expect(screen.getByTestId("savings-projected").textContent).toContain("$70.08");
    expect(screen.getByRole("link", { name: "Savings" }).getAttribute("href")).toBe("/savings");
    expect(screen.getByTestId("savings-estimated").textContent).toContain("$210.24");
    const call = requests.find((r) => r.url.pathname === "/api/v1/tenant/compute/savings");
    // 3 months back from 2026-11-27: from 2026-09-01 to now (whole minutes)
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({ start: "2026-09-01", end: "2026-11-27T09:30:00.000Z" });

    const months = within(screen.getByRole("table", { name: "Estimated, realized and projected savings per month" })).getAllByRole("row");
    const cells = (row: HTMLElement) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent);
    // The retirement priced from the catalog is projected (70.08), not realized; the bill's resize is realized (130.31).
    expect(months.slice(1).map(cells)).toEqual([
      ["2026-10", "1", "$70.08", "$0.00", "$70.08", "0 from the bill, 1 from prices"],
      ["2026-11", "1", "$140.16", "$130.31", "$0.00", "1 from the bill, 0 from prices"],
    ]);
    const resources = within(screen.getByRole("table", { name: /per resource/ })).getAllByRole("row");
    expect(resources[1].textContent).toContain("m5.large retired");
    expect(resources[1].textContent).toContain("Catalog prices");
    expect(resources[1].textContent).toContain("$70.08 (projected)");
    expect(resources[2].textContent).toContain("m5.2xlarge → m5.xlarge");
    expect(resources[2].textContent).toContain("$280.32 → $150.01");
    expect(resources[2].textContent).toContain("Bill, 14 days after");
  });

  it("adds months in integer cents", () => {
    const twice = savingsByMonth([SAVED[1], { ...SAVED[1], realized_savings_monthly_usd: 0.1 }, { ...SAVED[1], realized_savings_monthly_usd: 0.2 }]);
    // 130.31 + 0.10 + 0.20 = 130.61 (as floats 0.1 + 0.2 would not be 0.3)
    expect(twice).toEqual([{ month: "2026-11", changes: 3, estimatedCents: 3 * 14016, realizedCents: 13061, projectedCents: 0, byBill: 3 }]);
  });

  it("shows a resize under a commitment as realizing nothing, and says why", async () => {
    const covered: RealizedSavingsItem = {
      ...(SAVED[1] as RealizedSavingsItem),
      resource_id: "vm-plan",
      recommendation: { ...(SAVED[1] as RealizedSavingsItem).recommendation, savings_monthly_usd: 0 },
      realized_savings_monthly_usd: 0,
      reason: "commitment_covered",
    };
    savingsAnswer = { items: [covered], totals: { estimated: 0, realized: 0, projected: 0 } };
    try {
      answer("viewer");
      renderAt("/savings");
      expect((await screen.findByTestId("savings-realized")).textContent).toContain("$0.00");
      const row = within(screen.getByRole("table", { name: /per resource/ })).getAllByRole("row")[1] as HTMLElement;
      expect(row.textContent).toContain("under a commitment");
      expect(within(row).getByTitle(/paid either way/)).toBeTruthy();
    } finally {
      savingsAnswer = { items: SAVED, totals: { estimated: 210.24, realized: 130.31, projected: 70.08 } };
    }
  });
});

describe("deciding about a recommendation", () => {
  it("lets a member dismiss a recommendation with a reason from its panel", async () => {
    answer("member");
    renderAt("/recommendations?resource=vm-web");
    const dialog = await screen.findByRole("dialog", { name: "web" });
    expect(within(dialog).getByRole("status").textContent).toBe("Open");
    fireEvent.change(within(dialog).getByLabelText("Reason (optional)"), { target: { value: "batch runs at month end" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(within(dialog).getByRole("status").textContent).toBe("Dismissed: batch runs at month end"));
    const patch = requests.find((r) => r.method === "PATCH");
    expect(patch?.url.pathname).toBe("/api/v1/tenant/compute/recommendations/vm-web");
    expect(patch?.body).toEqual({ state: "dismissed", reason: "batch runs at month end" });
  });

  it("snoozes until the chosen day", async () => {
    answer("owner");
    renderAt("/recommendations?resource=vm-web");
    const dialog = await screen.findByRole("dialog", { name: "web" });
    fireEvent.change(within(dialog).getByLabelText("Snooze until"), { target: { value: "2026-12-15" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Snooze" }));
    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({ state: "snoozed", snoozed_until: "2026-12-15T00:00:00.000Z" });
  });

  it("shows a viewer the decision but no buttons", async () => {
    answer("viewer");
    renderAt("/recommendations?resource=vm-web");
    const dialog = await screen.findByRole("dialog", { name: "web" });
    expect(within(dialog).getByRole("heading", { name: "Decision" })).toBeTruthy();
    await screen.findByTitle("viewer");
    expect(within(dialog).queryByRole("button", { name: "Dismiss" })).toBeNull();
  });
});
