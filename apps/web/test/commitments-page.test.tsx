import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Commitments from "../src/features/commitments/components/Commitments";

const me = (role: string) => meAs(role, ["ten_1"], { id: `usr_${role}`, email: `${role}@acme.example`, name: role });
// on-demand equivalent 510.00 - committed 420.00 = net savings 90.00; 90 / 510 = 17.65 %
const FIGURES = {
  on_demand_equivalent: "510.00",
  committed_cost: "420.00",
  used_cost: "357.00",
  unused_cost: "63.00",
  utilization_percent: "85.00",
  net_savings: "90.00",
  savings_percent: "17.65",
};
const COMMITMENTS = {
  items: [
    {
      commitment_discount_id: "arn:aws:savingsplans::123456789012:savingsplan/3c6f8e2a-demo",
      category: "Spend",
      type: "Compute Savings Plan",
      provider: "AWS",
      currency: "USD",
      billing_account_id: "123456789012",
      ...FIGURES,
    },
    {
      // A plan mostly unused: on-demand equivalent 100.00 - committed 300.00 = -200.00, -200 %.
      commitment_discount_id: "arn:aws:savingsplans::123456789012:savingsplan/idle-plan",
      category: "Spend",
      type: "Compute Savings Plan",
      provider: "AWS",
      currency: "USD",
      billing_account_id: "123456789012",
      on_demand_equivalent: "100.00",
      committed_cost: "300.00",
      used_cost: "70.00",
      unused_cost: "230.00",
      utilization_percent: "23.33",
      net_savings: "-200.00",
      savings_percent: "-200.00",
    },
  ],
  totals: [
    {
      provider: "AWS",
      currency: "USD",
      on_demand_equivalent: "610.00",
      committed_cost: "720.00",
      used_cost: "427.00",
      unused_cost: "293.00",
      utilization_percent: "59.31",
      net_savings: "-110.00",
      savings_percent: "-18.03",
    },
  ],
};
// 510 / (510 + 340) = 60.00 %
const COVERAGE_FIGURES = { provider: "AWS", currency: "USD", covered_on_demand_equivalent: "510.00", on_demand_cost: "340.00", coverage_percent: "60.00" };
const COVERAGE = {
  group_by: "service_name",
  rows: [{ group: "Amazon EC2", ...COVERAGE_FIGURES }],
  totals: [COVERAGE_FIGURES],
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
      family: null,
      hourly_commitment: "5.60",
      monthly_savings: "1752.00",
      break_even_utilization_percent: "70.00",
      upfront_cost: "0.00",
      monthly_commitment_cost: "4088.00",
      roi_percent: "42.86",
      hours_above_break_even_percent: "100.00",
      expected_utilization_percent: "100.00",
      expected_coverage_percent: "66.67",
      lookback: { start: "2026-10-28T00:00:00.000Z", end: "2026-11-27T00:00:00.000Z", hours: 720, data_through: "2026-11-27T00:00:00.000Z" },
      warnings: [],
      savings_curve: curve,
    },
    {
      // Usage 12 hours a day only, under the 70 % break-even: nothing to buy. All upfront, 3 years: the upfront of 0.00 x 26,280 h is 0.00.
      rate_id: "cmr_2",
      commitment_type: "savings_plan",
      term_months: 36,
      payment_option: "all_upfront",
      discount_percent: 30,
      family: "m5",
      hourly_commitment: "0.00",
      monthly_savings: "0.00",
      reason: "no_savings",
      break_even_utilization_percent: "70.00",
      upfront_cost: "0.00",
      monthly_commitment_cost: "0.00",
      roi_percent: null,
      hours_above_break_even_percent: null,
      expected_utilization_percent: null,
      expected_coverage_percent: "0.00",
      lookback: { start: "2026-08-01T00:00:00.000Z", end: "2026-08-29T00:00:00.000Z", hours: 672, data_through: "2026-08-29T00:00:00.000Z" },
      warnings: ["stale_data"],
      savings_curve: curve.map((p) => ({ ...p, monthly_savings: (-Number(p.hourly_commitment) * 100).toFixed(2) })),
    },
  ],
};

let requests: URL[] = [];

function answer(role: string) {
  requests = [];
  stubFetch(async ({ url }) => {
    requests.push(url);
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/organizations/org_1/commitments": COMMITMENTS,
      "/api/v1/organizations/org_1/commitments/coverage": COVERAGE,
      "/api/v1/organizations/org_1/commitments/recommendations": RECOMMENDATIONS,
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
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
    expect(row.textContent).toContain("$90.00 (17.65 %)");
    // The plan mostly unused loses money, and the page says so.
    const idle = within(table).getByRole("row", { name: /idle-plan/ });
    expect(idle.textContent).toContain("-$200.00 (-200.00 %)");
    expect(idle.textContent).toContain("a loss");
    expect(screen.getByTestId("commitment-total").textContent).toContain("All AWS (USD)");
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

  it("shows break-even and upfront cost beside the curve, and says plainly when buying nothing is right", async () => {
    answer("owner");
    renderPage();
    const [buy, nothing] = (await screen.findAllByRole("listitem")).filter((li) => li.querySelector("h3")) as HTMLElement[];
    expect(within(buy).getByTestId("break-even").textContent).toBe("70.00 %");
    expect(within(buy).getByTestId("upfront").textContent).toBe("$0.00");
    expect(
      within(buy)
        .getByRole("img", { name: /Savings curve/ })
        .closest(".curve-beside"),
    ).toBe(within(buy).getByTestId("break-even").closest(".curve-beside"));
    expect(within(buy).queryByTestId("stale-data")).toBeNull();
    expect(within(buy).getByText("$4,088.00")).toBeTruthy();
    expect(within(nothing).getByTestId("buy-nothing").textContent).toContain("Buy nothing at this rate.");
    expect(within(nothing).queryByTestId("hourly-commitment")).toBeNull();
    expect(within(nothing).getByRole("heading").textContent).toContain("m5 family");
    expect(within(nothing).getByTestId("stale-data").textContent).toContain("2026-08-29 00:00 UTC");
  });

  it("takes any range of days, an older imported bill's included, and refuses one that ends before it starts", async () => {
    answer("admin");
    renderPage();
    await screen.findByRole("table", { name: /^Commitments, / });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2025-03-01" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2025-03-31" } });
    // March 2025, both days included: end 2025-04-01 (exclusive).
    await waitFor(() =>
      expect(
        requests.some(
          (u) =>
            u.pathname === "/api/v1/organizations/org_1/commitments" &&
            u.searchParams.get("start") === "2025-03-01" &&
            u.searchParams.get("end") === "2025-04-01",
        ),
      ).toBe(true),
    );
    expect(requests.some((u) => u.pathname.endsWith("/coverage") && u.searchParams.get("start") === "2025-03-01")).toBe(true);
    const asked = requests.length;
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2025-02-01" } });
    expect(screen.getByRole("alert").textContent).toBe("The last day is before the first.");
    expect(requests.slice(asked).some((u) => u.searchParams.get("end") === "2025-02-02")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Last 7 days" }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
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
