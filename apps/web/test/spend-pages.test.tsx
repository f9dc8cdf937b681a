import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { checkboxLayout, envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch, teamDimension, withConsoleStyles } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Budgets from "../src/features/budgets/components/Budgets";
import Allocation from "../src/features/settings/components/Allocation";
import Spend from "../src/features/spend/components/Spend";

const me = (role: string) => meAs(role, ["ten_1"], { id: `usr_${role}`, email: `${role}@acme.example`, name: role });
const REPORT = {
  start: "2026-10-01T00:00:00.000Z",
  end: "2026-11-01T00:00:00.000Z",
  granularity: "none",
  metric: "billed_cost",
  group_by: ["service_name"],
  rows: [
    {
      period_start: "2026-10-01T00:00:00.000Z",
      period_end: "2026-11-01T00:00:00.000Z",
      group: { service_name: "Amazon EC2" },
      currency: "USD",
      cost: "1234.5678901234",
    },
    { period_start: "2026-10-01T00:00:00.000Z", period_end: "2026-11-01T00:00:00.000Z", group: { service_name: null }, currency: "USD", cost: "0.1" },
  ],
  totals: [{ currency: "USD", cost: "1234.6678901234" }],
  unpriced: { lines: 3, by_reason: { bucket_not_priced: 2, no_pricing_label: 1 } },
};
const BUDGET = {
  id: "bud_1",
  tenant_id: "ten_1",
  name: "Prod monthly",
  period: "monthly",
  amount: "1000",
  currency: "USD",
  metric: "billed_cost",
  filters: {},
  thresholds: [{ percent: 100, kind: "forecast" }],
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
  status: {
    period_start: "2026-11-01T00:00:00.000Z",
    period_end: "2026-12-01T00:00:00.000Z",
    spent: "600",
    forecast: "1150",
    percent_used: "60",
    state: "warning",
    crossed: [{ percent: 100, kind: "forecast" }],
  },
};

const PART = {
  id: "imp_1",
  created_at: "2026-11-27T08:00:00.000Z",
  file_name: "export-00001.csv.gz",
  focus_version: "1.2",
  rows: 120,
  allocated_rows: 100,
  unallocated_rows: 20,
  billing_account_ids: ["111111111111"],
  billing_periods: [{ start: "2026-11-01T00:00:00.000Z", end: "2026-12-01T00:00:00.000Z" }],
  totals: [{ currency: "USD", billed_cost: "12.5", effective_cost: "12.5" }],
  superseded_import_ids: [],
  session: "nov-run-7",
  part: 1,
  parts: 3,
  state: "pending",
};
/** A session as the sessions list answers it: without its manifest's data files. */
const SESSION = {
  id: "nov-run-7",
  parts: 3,
  execution_id: "exec-7",
  state: "pending",
  created_at: "2026-11-27T08:00:00.000Z",
  expires_at: "2026-11-28T08:00:00.000Z",
  completed_at: null,
  received_parts: [{ part: 1, import_id: "imp_1", file_name: "export-00001.csv.gz", rows: 120, received_at: "2026-11-27T08:00:00.000Z" }],
  rows: 120,
  totals: [{ currency: "USD", billed_cost: "12.5", effective_cost: "12.5" }],
  superseded_import_ids: [],
};

/** A 3-day anomaly of one service in USD (with feedback `yes`), a new one of the tenant's total in EUR, and one of a dimension's value. */
const ANOMALIES = [
  {
    id: "ano_1",
    monitor: { kind: "service", service_name: "Amazon EC2" },
    currency: "USD",
    start: "2026-11-24",
    end: "2026-11-26",
    days: 3,
    day: "2026-11-24",
    service_name: "Amazon EC2",
    cost: "900",
    expected: "120",
    impact: "780",
    score: "12.5",
    reason: "spike",
    feedback: "yes",
  },
  {
    id: "ano_2",
    monitor: { kind: "total", service_name: null },
    currency: "EUR",
    start: "2026-11-20",
    end: "2026-11-20",
    days: 1,
    day: "2026-11-20",
    service_name: null,
    cost: "450",
    expected: "300",
    impact: "150",
    score: "4",
    reason: "new_service",
    feedback: null,
  },
  {
    id: "ano_3",
    monitor: { kind: "dimension", service_name: null, dimension: "team", value: "web" },
    currency: "USD",
    start: "2026-11-18",
    end: "2026-11-18",
    days: 1,
    day: "2026-11-18",
    service_name: null,
    cost: "320",
    expected: "120",
    impact: "200",
    score: "20000",
    reason: "spike",
    feedback: null,
  },
];

const TEAM = teamDimension("2026-11-28T00:00:00.000Z", { rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }] });
const teamRow = (team: string | null, cost: string, direct: string, sharedIn: string, sharedOut: string) => ({
  period_start: "2026-10-01T00:00:00.000Z",
  period_end: "2026-11-01T00:00:00.000Z",
  group: { "dimension:team": team },
  currency: "USD",
  cost,
  direct_cost: direct,
  shared_in: sharedIn,
  shared_out: sharedOut,
});
const BY_TEAM = {
  ...REPORT,
  group_by: ["dimension:team"],
  rows: [teamRow("web", "410", "310", "100", "0"), teamRow(null, "0", "30", "0", "30")],
  totals: [{ currency: "USD", cost: "410" }],
  unpriced: { lines: 0, by_reason: {} },
};

let requests: { url: URL; tenant: string | null; method: string; body: unknown }[] = [];

/** The main API as the browser sees it: one answer per path, every request recorded. */
function answer(role: string) {
  requests = [];
  stubFetch(async ({ url, method, headers, body }) => {
    requests.push({
      url,
      tenant: headers["X-Service-Tenant-ID"] ?? null,
      method,
      body,
    });
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/organizations/org_1/spend": REPORT,
      "/api/v1/tenant/spend": REPORT,
      "/api/v1/tenant/budgets": { items: [BUDGET] },
      "/api/v1/organizations/org_1/spend/allocation-rules": { rules: [] },
      "/api/v1/organizations/org_1/spend/imports": { items: [PART], next_cursor: null },
      "/api/v1/organizations/org_1/spend/import-sessions": { items: [SESSION], next_cursor: null },
      "/api/v1/tenant/spend/anomalies": {
        start: "2026-10-28",
        end: "2026-11-28",
        items: ANOMALIES,
      },
      "/api/v1/tenant/spend/anomalies/ano_1": { ...ANOMALIES[0], feedback: "no" },
      "/api/v1/organizations/org_1/dimensions": { items: [TEAM] },
    };
    if (url.pathname === "/api/v1/organizations/org_1/spend" && url.searchParams.get("group_by") === "dimension:team") return envelope(url.pathname, BY_TEAM);
    if (url.pathname.endsWith("/spend/export")) {
      return new Response("BilledCost\r\n", { status: 200, headers: { "content-type": "text/csv", "x-unpriced-lines": "3" } });
    }
    return envelope(url.pathname, routes[url.pathname]);
  });
}

function renderAt(path: string) {
  renderInShell(
    path,
    <>
      <Route path="spend" element={<Spend />} />
      <Route path="budgets" element={<Budgets />} />
      <Route path="allocation" element={<Allocation />} />
    </>,
  );
}

beforeEach(signedIn);
afterEach(signedOut);

describe("the spend page", () => {
  it("asks the organization view for the URL's range and grouping, shows the total and the unpriced reasons, and offers an admin the reprice", async () => {
    answer("admin");
    renderAt("/spend?preset=last-month&group_by=service_name&provider=aws");
    expect((await screen.findByTestId("spend-total")).textContent).toContain("$1,234.67");
    const spendCalls = requests.filter((r) => r.url.pathname === "/api/v1/organizations/org_1/spend").map((r) => Object.fromEntries(r.url.searchParams));
    expect(spendCalls).toContainEqual({
      start: "2026-10-01",
      end: "2026-11-01",
      granularity: "none",
      metric: "billed_cost",
      group_by: "service_name",
      provider: "aws",
    });
    expect(spendCalls).toContainEqual({
      start: "2026-10-01",
      end: "2026-11-01",
      granularity: "day",
      metric: "billed_cost",
      group_by: "service_name",
      provider: "aws",
    });
    expect(screen.getByTestId("spend-total").querySelector("dd")?.getAttribute("title")).toBe("1234.6678901234 USD");
    expect(screen.getByText("bucket_not_priced")).toBeTruthy();
    expect(screen.getByText(/3 usage lines have no price/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /Reprice Prod's unpriced usage/ })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "(none)" })).toBeTruthy();
  });

  it("groups by a dimension of the organization with its direct and shared columns, and asks for each value's own lines when told", async () => {
    answer("admin");
    renderAt("/spend?preset=last-month&group_by=dimension:team");
    expect(await screen.findByRole("columnheader", { name: "Shared in" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "Unallocated" })).toBeTruthy();
    const webRow = screen.getByRole("cell", { name: "web" }).closest("tr") as HTMLElement;
    expect(
      within(webRow)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["web", "$410.00", "$310.00", "$100.00", "$0.00", "USD"]);
    const groupBy = screen.getByRole("combobox", { name: /Group by/ });
    expect(within(groupBy).getByRole("option", { name: "Team (dimension)" })).toBeTruthy();
    fireEvent.change(screen.getByRole("combobox", { name: /Shared costs/ }), { target: { value: "direct" } });
    await waitFor(() =>
      expect(requests.some((r) => r.url.pathname === "/api/v1/organizations/org_1/spend" && r.url.searchParams.get("allocation") === "direct")).toBe(true),
    );
    fireEvent.change(screen.getByRole("combobox", { name: "Dimensions in the file" }), { target: { value: "team" } });
    fireEvent.click(screen.getByRole("button", { name: "Download FOCUS CSV" }));
    await waitFor(() => {
      const exported = requests.find((r) => r.url.pathname === "/api/v1/organizations/org_1/spend/export");
      expect([exported?.url.searchParams.get("dimensions"), exported?.url.searchParams.get("allocation")]).toEqual(["team", "split"]);
    });
  });

  it("downloads the FOCUS file, says how many unpriced usage lines were left out, and includes them with zero costs when asked", async () => {
    answer("admin");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: vi.fn(() => "blob:focus"), revokeObjectURL: vi.fn() }));
    renderAt("/spend?preset=last-month");
    await screen.findByTestId("spend-total");
    fireEvent.click(screen.getByRole("button", { name: "Download FOCUS CSV" }));
    expect((await screen.findByRole("status")).textContent).toContain("3 unpriced usage lines were left out of the file");
    const exports = () => requests.filter((r) => r.url.pathname === "/api/v1/organizations/org_1/spend/export");
    expect(exports()[0].url.searchParams.has("include_unpriced")).toBe(false);
    fireEvent.click(screen.getByRole("checkbox", { name: /include unpriced usage/ }));
    fireEvent.click(screen.getByRole("button", { name: "Download FOCUS CSV" }));
    expect((await screen.findByText(/The file includes 3 unpriced usage lines with zero costs/)).getAttribute("role")).toBe("status");
    expect(exports()[1].url.searchParams.get("include_unpriced")).toBe("true");
  });

  it("draws 'include unpriced usage' as a checkbox beside its label: clicking the label's text ticks it and the download asks for them", async () => {
    answer("admin");
    withConsoleStyles();
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: vi.fn(() => "blob:focus"), revokeObjectURL: vi.fn() }));
    renderAt("/spend?preset=last-month");
    await screen.findByTestId("spend-total");
    const box = screen.getByRole("checkbox", { name: /include unpriced usage/ }) as HTMLInputElement;
    expect(checkboxLayout(box)).toEqual({ label: "row", width: "1rem", height: "1rem", minHeight: "0" });
    fireEvent.click(screen.getByText("include unpriced usage"));
    expect(box.checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Download FOCUS CSV" }));
    await screen.findByText(/The file includes 3 unpriced usage lines with zero costs/);
    const exports = requests.filter((r) => r.url.pathname === "/api/v1/organizations/org_1/spend/export");
    expect(exports.map((r) => r.url.searchParams.get("include_unpriced"))).toEqual(["true"]);
  });

  it("shows a viewer the tenant view without the reprice", async () => {
    answer("viewer");
    renderAt("/spend");
    await screen.findByTestId("spend-total");
    const tenantCalls = requests.filter((r) => r.url.pathname === "/api/v1/tenant/spend");
    expect(tenantCalls.length).toBe(2);
    expect(tenantCalls.every((r) => r.tenant === "ten_1" && r.url.searchParams.get("start") === "2026-11-01" && !r.url.searchParams.has("end"))).toBe(true);
    expect(requests.some((r) => r.url.pathname.endsWith("/organizations/org_1/spend"))).toBe(false);
    expect(screen.queryByRole("button", { name: /Reprice/ })).toBeNull();
  });
});

describe("the budgets page", () => {
  it("shows the burn and a forecast-only warning in words, and offers an owner every action", async () => {
    answer("owner");
    renderAt("/budgets");
    const bar = await screen.findByRole("img", { name: /^Prod monthly: / });
    expect(bar.getAttribute("aria-label")).toBe("Prod monthly: Forecast past 100 %: spent 60 % of the budget, forecast 115 % by the end of the period");
    expect(screen.getByText("Forecast past 100 %")).toBeTruthy();
    expect(screen.getByRole("button", { name: "New budget" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Edit\s*Prod monthly$/ })).toBeTruthy();
    expect(await screen.findAllByRole("button", { name: "Planned activity" })).toHaveLength(3);
  });

  it("narrows a new budget to a dimension's values", async () => {
    answer("owner");
    renderAt("/budgets");
    fireEvent.click(await screen.findByRole("button", { name: "New budget" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Name" }), { target: { value: "Web team" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Amount" }), { target: { value: "500" } });
    fireEvent.change(await screen.findByRole("combobox", { name: "Dimension" }), { target: { value: "team" } });
    fireEvent.change(screen.getByRole("textbox", { name: /Team values/ }), { target: { value: "web, data" } });
    fireEvent.click(screen.getByRole("button", { name: "Create budget" }));
    await waitFor(() => {
      const post = requests.find((r) => r.method === "POST" && r.url.pathname === "/api/v1/tenant/budgets");
      expect((post?.body as { filters: unknown } | undefined)?.filters).toEqual({ "dimension:team": ["web", "data"] });
    });
  });

  it("shows anomalies as ranges with their monitor, reason and currency, and records feedback that mutes the monitor", async () => {
    answer("member");
    renderAt("/budgets");
    const table = await screen.findByRole("table", { name: "Anomalies, latest first" });
    const [, ec2, total, team] = within(table).getAllByRole("row");
    expect(
      within(ec2)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual([
      "2026-11-24 – 2026-11-26 (3 days)",
      "Amazon EC2",
      "spike",
      "USD",
      "$900.00",
      "$120.00",
      "+$780.00",
      "12.5",
      "Was the Amazon EC2 anomaly of 2026-11-24 to 2026-11-26 a real problem?YesNoPlanned activity",
    ]);
    expect(
      within(total)
        .getAllByRole("cell")
        .slice(0, 5)
        .map((c) => c.textContent),
    ).toEqual(["2026-11-20 (1 day)", "Total", "new service", "EUR", "€450.00"]);
    // A dimension's value is named with its key; its cost is after the dimension's splits.
    expect(within(team).getAllByRole("cell")[1].textContent).toBe("team = web");
    // Each anomaly's buttons are a group named after it; the given feedback is pressed; "No" and "Planned activity" say they mute.
    const group = within(ec2).getByRole("group", { name: "Was the Amazon EC2 anomaly of 2026-11-24 to 2026-11-26 a real problem?" });
    expect(within(group).getByRole("button", { name: "Yes" }).getAttribute("aria-pressed")).toBe("true");
    const no = within(group).getByRole("button", { name: "No" });
    expect(no.getAttribute("aria-pressed")).toBe("false");
    const note = document.getElementById(no.getAttribute("aria-describedby") ?? "");
    expect(note?.textContent).toMatch(/ends the anomaly and mutes its monitor .* for 7 days, for days costing up to 1\.2 times the anomaly's largest day/);
    expect(within(total).getByRole("group", { name: "Was the Total anomaly of 2026-11-20 a real problem?" })).toBeTruthy();
    fireEvent.click(no);
    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    const patch = requests.find((r) => r.method === "PATCH");
    expect([patch?.url.pathname, patch?.tenant, patch?.body]).toEqual(["/api/v1/tenant/spend/anomalies/ano_1", "ten_1", { feedback: "no" }]);
  });

  it("offers a viewer no budget action and no anomaly feedback", async () => {
    answer("viewer");
    renderAt("/budgets");
    await screen.findByRole("img", { name: /^Prod monthly: / });
    await screen.findByRole("cell", { name: "2026-11-24 – 2026-11-26 (3 days)" });
    expect(screen.queryByRole("button", { name: /New budget|Edit|Delete|Detect now|Planned|Yes|No/ })).toBeNull();
    expect(screen.getAllByRole("cell", { name: "none yet" })).toHaveLength(2);
    expect(screen.getByRole("cell", { name: "Yes" })).toBeTruthy();
  });
});

describe("the allocation page", () => {
  it("lists import sessions with their parts (part n of N, state, rows, when received), saying pending parts are not counted yet", async () => {
    answer("owner");
    renderAt("/allocation");
    const table = await screen.findByRole("table", { name: /^Session nov-run-7 \(export run exec-7\): 1 of 3 parts received, pending, not counted yet/ });
    expect(table).toBeTruthy();
    for (const name of ["Part", "File", "State", "Rows", "Received"]) expect(screen.getByRole("columnheader", { name })).toBeTruthy();
    expect(screen.getByRole("rowheader", { name: "Part 1 of 3" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "pending (not counted yet)" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "120" })).toBeTruthy();
    expect(screen.getByText(/Parts of a pending session are not counted anywhere/)).toBeTruthy();
    expect(await screen.findByText(/session nov-run-7, part 1 of 3 \(pending: not counted yet\)/)).toBeTruthy();
  });
});
