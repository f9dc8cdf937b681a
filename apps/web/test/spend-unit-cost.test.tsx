import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Spend from "../src/features/spend/components/Spend";
import { exportQuery, perOf, spendQuery, unitCostQuery, unitMoney } from "../src/features/spend/spend";
import { envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch, teamDimension } from "./console-harness";

const me = meAs("admin");
const TEAM = teamDimension("2026-11-28T00:00:00.000Z");
const ORDERS = {
  name: "orders",
  unit: "orders",
  description: null,
  dimension: "team",
  created_at: "2026-11-20T00:00:00.000Z",
  updated_at: "2026-11-20T00:00:00.000Z",
};
const RANGE = { start: "2026-10-01T00:00:00.000Z", end: "2026-10-03T00:00:00.000Z" };
const row = (group: Record<string, string | null>, cost: string, metric: string | null, unit: string | null, start = RANGE.start, end = RANGE.end) => ({
  period_start: start,
  period_end: end,
  group,
  currency: "USD",
  cost,
  metric_amount: metric,
  unit_cost: unit,
});
const base = { ...RANGE, metric: "billed_cost", unpriced: { lines: 0, by_reason: {} } };
// docs/api.md's worked example: web 522.5 / 150 orders, data 267.5 / 150, platform without orders; ml (added here) with 0 orders.
const BY_TEAM = {
  ...base,
  granularity: "none",
  group_by: ["dimension:team"],
  rows: [
    { ...row({ "dimension:team": "web" }, "522.5", "150", "3.4833333333"), direct_cost: "500", shared_in: "22.5", shared_out: "0" },
    { ...row({ "dimension:team": "data" }, "267.5", "150", "1.7833333333"), direct_cost: "200", shared_in: "67.5", shared_out: "0" },
    { ...row({ "dimension:team": "ml" }, "12", "0", null), direct_cost: "12", shared_in: "0", shared_out: "0" },
    { ...row({ "dimension:team": "platform" }, "0", null, null), direct_cost: "90", shared_in: "0", shared_out: "90" },
  ],
  totals: [{ currency: "USD", cost: "802", metric_amount: "300", unit_cost: "2.6733333333" }],
  per: { metric: "orders", unit: "orders", scale: 1, labelled_by: "dimension:team" },
};
const day = (d: number) => `2026-10-0${d}T00:00:00.000Z`;
/** The unit-cost line's periods: October 1 2.45, October 2 3, October 3 (a third day) no orders. */
const BY_DAY = {
  ...base,
  end: "2026-10-04T00:00:00.000Z",
  granularity: "day",
  group_by: [],
  rows: [row({}, "490", "200", "2.45", day(1), day(2)), row({}, "300", "100", "3", day(2), day(3)), row({}, "12", null, null, day(3), day(4))],
  totals: [{ currency: "USD", cost: "802", metric_amount: "300", unit_cost: "2.6733333333" }],
  per: { metric: "orders", unit: "orders", scale: 1, labelled_by: null },
};

let requests: URL[] = [];
let metrics: unknown[] = [];
beforeEach(() => {
  signedIn();
  requests = [];
  metrics = [ORDERS, { ...ORDERS, name: "active_users", unit: "users", dimension: null }];
  stubFetch(async ({ url }) => {
    requests.push(url);
    if (url.pathname === "/api/v1/organizations/org_1/spend") {
      const q = url.searchParams;
      const scale = Number(q.get("per_scale") ?? 1);
      // Without per: the report without unit costs.
      const scaled = <T extends { per: object; rows: object[] }>(report: T) =>
        q.get("per")
          ? { ...report, per: { ...report.per, scale } }
          : { ...report, per: undefined, rows: report.rows.map((r) => ({ ...r, metric_amount: undefined, unit_cost: undefined })) };
      if (q.get("granularity") === "none" && q.get("group_by") === "dimension:team") return envelope(url.pathname, scaled(BY_TEAM));
      if (q.get("granularity") === "none")
        // Filtered on the labelling dimension without grouping it: rows divide by the values filtered on.
        return envelope(
          url.pathname,
          scaled({
            ...BY_DAY,
            granularity: "none",
            rows: [row({}, "522.5", "150", "3.4833333333")],
            per: { ...BY_DAY.per, labelled_by: q.get("dimension:team") ? "dimension:team" : null },
          }),
        );
      const plain = { ...BY_DAY, rows: BY_DAY.rows.map(({ metric_amount: _m, unit_cost: _u, ...r }) => r), per: undefined };
      return envelope(url.pathname, q.get("per") ? scaled(BY_DAY) : plain);
    }
    const routes: Record<string, unknown> = {
      "/api/v1/me": me,
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/organizations/org_1/dimensions": { items: [TEAM] },
      "/api/v1/organizations/org_1/business-metrics": { items: metrics },
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
});
afterEach(signedOut);

const render = (path: string) => renderInShell(path, <Route path="spend" element={<Spend />} />);
const spendCalls = () => requests.filter((u) => u.pathname === "/api/v1/organizations/org_1/spend").map((u) => Object.fromEntries(u.searchParams));

describe("the spend page's cost per a business metric", () => {
  it("adds the metric and unit cost columns, says which amounts each row divides by, and draws the unit cost per day", async () => {
    render("/spend?preset=custom&start=2026-10-01&end=2026-10-03&group_by=dimension:team&per=orders");
    const table = await screen.findByRole("table");
    const header = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(header).toEqual(["Dimension team", "Cost", "Direct", "Shared in", "Shared out", "Metric (orders)", "Unit cost (per orders)", "Currency"]);
    const cells = (name: string) => within(within(table).getByRole("row", { name: new RegExp(`^${name} `) })).getAllByRole("cell");
    const web = cells("web");
    expect(web[5]?.textContent).toBe("150");
    expect(web[6]?.textContent).toBe("$3.48");
    expect(web[6]?.getAttribute("title")).toBe("3.4833333333");
    // No unit cost: said why, in the title and for screen readers.
    expect(cells("ml")[6]?.getAttribute("title")).toBe("No unit cost: orders amounted to 0 on these days");
    expect(cells("platform")[5]?.textContent).toBe("—");
    expect(cells("platform")[6]?.textContent).toBe("—No unit cost: no amount of orders is stored for these days");

    const note = screen.getByTestId("per-note").textContent;
    expect(note).toContain("Unit cost: cost per orders. Each row divides its cost by the orders labelled with its own Team value over its days");
    expect(note).toContain("Over the range: $2.67 per orders (300 orders).");

    // The table's query has per; the bars' none; the line's the chart's periods without grouping.
    const calls = spendCalls();
    expect(calls).toContainEqual({
      start: "2026-10-01",
      end: "2026-10-04",
      granularity: "none",
      metric: "billed_cost",
      group_by: "dimension:team",
      per: "orders",
    });
    expect(calls).toContainEqual({ start: "2026-10-01", end: "2026-10-04", granularity: "day", metric: "billed_cost", group_by: "dimension:team" });
    expect(calls).toContainEqual({ start: "2026-10-01", end: "2026-10-04", granularity: "day", metric: "billed_cost", per: "orders" });
    const chart = await screen.findByTestId("unit-cost-chart");
    expect(within(chart).getByRole("img").getAttribute("aria-label")).toBe(
      "Cost per orders over 3 periods: from $2.45 to $3.00; 1 period has no unit cost (no amount of the metric, or 0)",
    );
    expect(within(chart).getByTestId("unit-cost-line").getAttribute("d")).toMatch(/^M[\d.]+,[\d.]+ L[\d.]+,[\d.]+$/);
  });

  it("keeps the metric and scale in the URL's query and asks the API for the scale", async () => {
    render("/spend?preset=custom&start=2026-10-01&end=2026-10-03&group_by=dimension:team");
    await screen.findByRole("table");
    expect(screen.queryByRole("columnheader", { name: /Unit cost/ })).toBeNull();
    const per = screen.getByLabelText("Cost per") as HTMLSelectElement;
    await waitFor(() => expect([...per.options].map((o) => o.textContent)).toEqual(["none", "orders (orders)", "active_users (users)"]));
    fireEvent.change(per, { target: { value: "orders" } });
    await screen.findByRole("columnheader", { name: "Unit cost (per orders)" });
    fireEvent.change(screen.getByLabelText("Per how many"), { target: { value: "1000" } });
    await screen.findByRole("columnheader", { name: "Unit cost (per 1,000 orders)" });
    expect(spendCalls()).toContainEqual(expect.objectContaining({ granularity: "none", per: "orders", per_scale: "1000" }));
    fireEvent.change(per, { target: { value: "" } });
    await waitFor(() => expect(screen.queryByRole("columnheader", { name: /Unit cost/ })).toBeNull());
    expect(screen.queryByLabelText("Per how many")).toBeNull();
  });

  it("says rows divide by the values filtered on, or by the metric's total", async () => {
    render("/spend?preset=custom&start=2026-10-01&end=2026-10-03&dimension:team=web&per=orders");
    expect((await screen.findByTestId("per-note")).textContent).toContain(
      "Rows and the total divide by the orders labelled with the Team value filtered on (web).",
    );
  });

  it("says every row divides by the metric's total when no dimension labels it", async () => {
    render("/spend?preset=custom&start=2026-10-01&end=2026-10-03&per=orders&per_scale=100");
    expect((await screen.findByTestId("per-note")).textContent).toContain(
      "Unit cost: cost per 100 orders. Each row divides its cost by orders in total over the row's days (every label and none)",
    );
  });

  it("points to Settings when the organization has no metric", async () => {
    metrics = [];
    render("/spend?preset=custom&start=2026-10-01&end=2026-10-03");
    await screen.findByRole("table");
    const per = screen.getByLabelText("Cost per") as HTMLSelectElement;
    await waitFor(() => expect([...per.options].map((o) => o.textContent)).toEqual(["none", "no business metric yet (Settings > Business metrics)"]));
  });
});

describe("the view's per and per_scale", () => {
  const NOW = new Date("2026-11-27T09:30:00.000Z");
  it("asks for a known scale only, leaves per out of the export and the line's grouping out", () => {
    const q = (text: string) => Object.fromEntries(spendQuery(new URLSearchParams(text), NOW, true));
    expect(q("per=orders&per_scale=1000")).toMatchObject({ per: "orders", per_scale: "1000" });
    expect(q("per=orders&per_scale=7")).not.toHaveProperty("per_scale");
    expect(q("per=orders&per_scale=1")).not.toHaveProperty("per_scale");
    expect(q("per_scale=100")).not.toHaveProperty("per_scale");
    expect(q("per=Orders!")).not.toHaveProperty("per");
    expect(perOf(new URLSearchParams("per=orders&per_scale=1000000"))).toEqual({ metric: "orders", scale: 1_000_000 });
    const exported = Object.fromEntries(exportQuery(new URLSearchParams("per=orders&per_scale=100"), NOW, true));
    expect(exported).not.toHaveProperty("per");
    expect(exported).not.toHaveProperty("per_scale");
    const line = (text: string) => Object.fromEntries(unitCostQuery(spendQuery(new URLSearchParams(text), NOW, true)));
    expect(line("group_by=dimension:team&allocation=direct&per=orders")).toEqual({
      start: "2026-11-01",
      granularity: "day",
      metric: "billed_cost",
      per: "orders",
    });
    expect(line("group_by=dimension:team&dimension:team=web&allocation=direct&per=orders")).toMatchObject({ "dimension:team": "web", allocation: "direct" });
  });

  it("shows small unit costs with three significant digits, never as 0.00", () => {
    expect(unitMoney("0.0023456", "USD")).toBe("$0.00235");
    expect(unitMoney("3.4833333333", "USD")).toBe("$3.48");
    expect(unitMoney("2633.3333333333", "USD")).toBe("$2,633.33");
  });
});
