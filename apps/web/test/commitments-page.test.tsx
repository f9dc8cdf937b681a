import { screen, within } from "@testing-library/react";
import { Route } from "react-router";
import { envelope, renderInShell, signedIn, signedOut } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Commitments from "../src/features/commitments/components/Commitments";

const ORG = { id: "org_1", name: "Acme", slug: "acme" };
const me = (role: string) => ({
  organization: ORG,
  user: {
    id: `usr_${role}`,
    organization_id: "org_1",
    email: `${role}@acme.example`,
    name: role,
    role,
    active: true,
    joined_at: "2026-11-01T00:00:00.000Z",
    tenant_ids: ["ten_1"],
  },
  role,
  tenant_ids: ["ten_1"],
  api_key_id: null,
});
const FIGURES = {
  committed_cost: "420.00",
  used_cost: "357.00",
  unused_cost: "63.00",
  utilization_percent: "85.00",
  covered_list_cost: "510.00",
  savings: "153.00",
};
const COMMITMENTS = {
  items: [
    {
      commitment_discount_id: "arn:aws:savingsplans::123456789012:savingsplan/3c6f8e2a-demo",
      category: "Spend",
      type: "Compute Savings Plan",
      provider: "AWS",
      billing_account_id: "123456789012",
      ...FIGURES,
    },
  ],
  totals: FIGURES,
};
const COVERAGE = {
  group_by: "service_name",
  rows: [{ group: "Amazon EC2", eligible_list_cost: "850.00", covered_list_cost: "510.00", on_demand_cost: "340.00", coverage_percent: "60.00" }],
  totals: { eligible_list_cost: "850.00", covered_list_cost: "510.00", on_demand_cost: "340.00", coverage_percent: "60.00" },
};
const curve = Array.from({ length: 21 }, (_, i) => ({
  hourly_commitment: (i * 0.56).toFixed(2),
  monthly_savings: (i <= 10 ? i * 175.2 : 1752 - (i - 10) * 200).toFixed(2),
}));
const RECOMMENDATIONS = {
  items: [
    {
      rate_id: "cmr_1",
      commitment_type: "savings_plan",
      term_months: 12,
      payment_option: "no_upfront",
      discount_percent: 30,
      hourly_commitment: "5.60",
      monthly_savings: "1752.00",
      expected_utilization_percent: "100.00",
      expected_coverage_percent: "66.67",
      lookback: { start: "2026-10-28T00:00:00.000Z", end: "2026-11-27T00:00:00.000Z", hours: 720 },
      savings_curve: curve,
    },
  ],
};

let requests: URL[] = [];

function answer(role: string) {
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(input, "http://console");
      requests.push(url);
      const routes: Record<string, unknown> = {
        "/api/v1/me": me(role),
        "/api/v1/organizations/org_1/tenants": { items: [{ id: "ten_1", name: "Prod", organization_id: "org_1" }], next_cursor: null },
        "/api/v1/organizations/org_1/commitments": COMMITMENTS,
        "/api/v1/organizations/org_1/commitments/coverage": COVERAGE,
        "/api/v1/organizations/org_1/commitments/recommendations": RECOMMENDATIONS,
      };
      return envelope(url.pathname, routes[url.pathname]);
    }),
  );
}

function renderPage() {
  renderInShell("/commitments", <Route path="commitments" element={<Commitments />} />);
}

beforeEach(signedIn);
afterEach(signedOut);

describe("the commitments page", () => {
  it("shows an admin each commitment's utilization, coverage by service and the recommendation with its savings curve", async () => {
    answer("admin");
    renderPage();
    const table = await screen.findByRole("table", { name: /^Commitments, / });
    const row = within(table).getByRole("row", { name: /3c6f8e2a-demo/ });
    expect(within(row).getByRole("meter", { name: "Utilization 85.00 %" })).toBeTruthy();
    expect(row.textContent).toContain("$63.00");
    expect((await screen.findByTestId("coverage-total")).textContent).toBe("60.00 %");
    expect((await screen.findByTestId("hourly-commitment")).textContent).toBe("$5.60 / hour");
    expect(screen.getByRole("img", { name: "Savings curve: the most savings at 5.60 USD per hour" })).toBeTruthy();
    // The last 30 complete days (2026-10-28 to 2026-11-26) and today: start 2026-10-28, end 2026-11-28 (exclusive), 31 days.
    const list = requests.find((u) => u.pathname === "/api/v1/organizations/org_1/commitments");
    expect(Object.fromEntries(list?.searchParams ?? [])).toEqual({ start: "2026-10-28", end: "2026-11-28" });
    const recommendations = requests.find((u) => u.pathname.endsWith("/recommendations"));
    expect(recommendations?.searchParams.get("include_curve")).toBe("true");
    expect(screen.getByRole("link", { name: "Commitments" }).getAttribute("aria-current")).toBe("page");
  });

  it("shows a member the coverage of their tenants only, and asks for no owner-only figure", async () => {
    answer("member");
    renderPage();
    expect((await screen.findByTestId("coverage-total")).textContent).toBe("60.00 %");
    expect(screen.getByText(/You see the usage of your own tenants/)).toBeTruthy();
    expect(requests.some((u) => u.pathname === "/api/v1/organizations/org_1/commitments" || u.pathname.endsWith("/recommendations"))).toBe(false);
    expect(screen.queryByRole("heading", { name: "What to buy" })).toBeNull();
  });
});
