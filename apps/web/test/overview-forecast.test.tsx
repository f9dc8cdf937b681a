import { screen } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SpendOverview } from "../src/features/overview/components/SpendOverview";
import { envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch } from "./console-harness";

const ME = meAs("member", ["ten_1"], { name: "a" });
const day = (n: number) => `2026-11-${String(n).padStart(2, "0")}`;
// November at 240 a day; seen on Nov 27 with data through Nov 25 (two days late): the API's rows.
const FORECAST = {
  period_start: "2026-11-01T00:00:00.000Z",
  period_end: "2026-12-01T00:00:00.000Z",
  rows: Array.from({ length: 30 }, (_, i) =>
    i < 25
      ? { day: day(i + 1), actual: "240.00", expected: null, expected_low: null, expected_high: null }
      : { day: day(i + 1), actual: null, expected: "240.00", expected_low: "200.00", expected_high: "300.00" },
  ),
  data_through: "2026-11-25",
  spent: "6000.00",
  recurring_remaining: "0.00",
  usage_remaining: "1200.00",
  forecast: "7200.00",
  forecast_low: "7000.00",
  forecast_high: "7500.00",
  currency: "USD",
  basis: "recent_mean",
};
const REPORT = {
  start: "2026-11-01T00:00:00.000Z",
  end: "2026-11-27T09:30:00.000Z",
  granularity: "day",
  metric: "billed_cost",
  group_by: ["service_name"],
  rows: [
    { period_start: "2026-11-01T00:00:00.000Z", period_end: "2026-11-02T00:00:00.000Z", group: { service_name: "Amazon EC2" }, currency: "USD", cost: "6000" },
  ],
  totals: [{ currency: "USD", cost: "6000" }],
  unpriced: { lines: 0, by_reason: {} },
};

beforeEach(() => {
  signedIn();
  stubFetch(async ({ url }) => {
    const routes: Record<string, unknown> = {
      "/api/v1/me": ME,
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/tenant/spend": REPORT,
      "/api/v1/tenant/budgets": { items: [] },
      "/api/v1/tenant/spend/forecast": FORECAST,
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
});
afterEach(signedOut);

describe("the overview's forecast", () => {
  it("draws the API's 80 % interval as a band and says it, with the day the data runs through", async () => {
    renderInShell("/", <Route index element={<SpendOverview tenantId="ten_1" tenantName="Prod" />} />);
    expect(await screen.findByRole("img", { name: /forecast \$7,200\.00, 80 % interval \$7,000\.00 to \$7,500\.00/ })).toBeTruthy();
    expect(screen.getByTestId("forecast-band")).toBeTruthy();
    const note = screen.getByTestId("forecast-explained").textContent ?? "";
    expect(note).toMatch(/80 % interval: \$7,000\.00 to \$7,500\.00/);
    expect(note).toMatch(/Data through 2026-11-25/);
  });
});
