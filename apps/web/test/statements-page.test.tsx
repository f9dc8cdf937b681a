import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Recipient from "../src/features/statements/components/Recipient";
import StatementDetail from "../src/features/statements/components/StatementDetail";
import Statements from "../src/features/statements/components/Statements";
import { envelope, invalidRequest, meAs, renderInShell, signedIn, signedOut, stubFetch, teamDimension } from "./console-harness";

const me = (role: string) => meAs(role, []);
const TEAM = teamDimension("2026-11-20T00:00:00.000Z");
// docs/api.md's worked example: web 390, data 130, platform 0, unallocated 12, bill 532.
const FIRST = {
  id: "stm_1",
  number: "2026-10-0001",
  period: "2026-10",
  by: "dimension:team",
  metric: "effective_cost",
  currency: "EUR",
  status: "final",
  created_at: "2026-11-02T09:00:00.000Z",
  finalized_at: "2026-11-02T10:00:00.000Z",
  supersedes: null,
  changes: null,
  recipients: [
    { value: "data", total: "120" },
    { value: "web", total: "390" },
  ],
  reconciliation: { bill_total: "522", allocated_total: "510", unallocated_total: "12", difference: "0" },
};
const SECOND = {
  ...FIRST,
  id: "stm_2",
  number: "2026-10-0002",
  status: "draft",
  created_at: "2026-11-20T09:00:00.000Z",
  finalized_at: null,
  supersedes: "stm_1",
  changes: [
    { value: "data", previous_total: "120", total: "130", difference: "10" },
    { value: "platform", previous_total: "0", total: "0", difference: "0" },
    { value: "web", previous_total: "390", total: "390", difference: "0" },
  ],
  recipients: [
    { value: "data", total: "130" },
    { value: "platform", total: "0" },
    { value: "web", total: "390" },
  ],
  reconciliation: { bill_total: "532", allocated_total: "520", unallocated_total: "12", difference: "0" },
};
const line = (description: string, amount: string) => ({ description, source: null, method: null, ratio: null, amount });
const WEB = {
  statement_id: "stm_2",
  organization: { id: "org_1", name: "Acme" },
  number: "2026-10-0002",
  period: "2026-10",
  by: "dimension:team",
  metric: "effective_cost",
  currency: "EUR",
  status: "draft",
  recipient: "web",
  sections: {
    usage: [line("AmazonEC2", "335.123456")],
    shared: [
      { description: "Shared from platform", source: "platform", method: "proportional", ratio: "0.75", amount: "30" },
      { description: "Unallocated cost", source: null, method: "even", ratio: "0.75", amount: "60" },
    ],
    commitment_fees: [],
    credits: [line("Credit", "-15")],
    tax: [],
    adjustments: [line("Adjustment", "-20.123456")],
    corrections: [],
  },
  total: "390",
};

let role = "admin";
let statements: Record<string, unknown>[] = [];
let createAnswer: Response | undefined;
let calls: { method: string; url: URL; body: unknown }[] = [];
beforeEach(() => {
  signedIn();
  role = "admin";
  statements = [SECOND, FIRST];
  createAnswer = undefined;
  calls = [];
  stubFetch(async ({ url, method, raw, body }) => {
    calls.push({ method, url, body });
    const base = "/api/v1/organizations/org_1/statements";
    if (method === "POST" && url.pathname === base) {
      if (createAnswer) return createAnswer;
      const body = JSON.parse(raw ?? "{}");
      const made = { ...SECOND, id: "stm_3", number: `${body.period}-0001`, ...body, status: "draft", supersedes: null, changes: null };
      statements = [made, ...statements];
      return new Response(JSON.stringify({ status: "success", message: "ok", data: made }), { status: 201, headers: { "content-type": "application/json" } });
    }
    if (method === "POST" && url.pathname === `${base}/stm_2/finalize`) {
      statements = statements.map((s) => (s.id === "stm_2" ? { ...s, status: "final", finalized_at: "2026-11-28T12:00:00.000Z" } : s));
      return envelope(
        url.pathname,
        statements.find((s) => s.id === "stm_2"),
      );
    }
    if (method === "DELETE") {
      statements = statements.filter((s) => `${base}/${s.id}` !== url.pathname);
      return new Response(null, { status: 204 });
    }
    if (url.pathname.endsWith("/recipients/web.csv"))
      return new Response("section,description,source,method,ratio,amount\n", { status: 200, headers: { "content-type": "text/csv" } });
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": { items: [], next_cursor: null },
      "/api/v1/organizations/org_1/dimensions": { items: [TEAM] },
      "/api/v1/organizations/org_1/settings": {
        default_currency: "EUR",
        rightsizing: { lookback_days: 14, cpu_target_percent: 60, memory_target_percent: 70 },
      },
      [base]: { items: statements },
      [`${base}/stm_2/recipients/web`]: WEB,
    };
    for (const s of statements) routes[`${base}/${s.id}`] = s;
    return envelope(url.pathname, routes[url.pathname]);
  });
});
afterEach(() => {
  signedOut();
  vi.restoreAllMocks();
});

const render = (path: string) =>
  renderInShell(
    path,
    <>
      <Route path="statements" element={<Statements />} />
      <Route path="statements/:id" element={<StatementDetail />} />
      <Route path="statements/:id/recipients/:value" element={<Recipient />} />
    </>,
  );

describe("the Statements page", () => {
  it("lists the statements newest first, with the superseded one's number", async () => {
    render("/statements");
    const rows = await screen.findAllByTestId("statement");
    expect(rows.map((r) => Array.from(r.querySelectorAll("td")).map((td) => td.textContent))).toEqual([
      ["2026-10-0002", "2026-10", "Team", "Amortized cost", "EUR", "draft", "2026-11-20 09:00 UTC", "2026-10-0001"],
      ["2026-10-0001", "2026-10", "Team", "Amortized cost", "EUR", "final", "2026-11-02 09:00 UTC", "none"],
    ]);
    expect(screen.getByRole("link", { name: "Statements" })).toBeTruthy();
  });

  it("creates last month's statement by a dimension in the organization's currency", async () => {
    render("/statements");
    await screen.findAllByTestId("statement");
    const period = screen.getByLabelText("Period (UTC month)") as HTMLSelectElement;
    const now = new Date();
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    expect(period.value).toBe(last);
    const by = screen.getByLabelText(/^By/) as HTMLSelectElement;
    expect(Array.from(by.options).map((o) => [o.value, o.textContent])).toEqual([
      ["tenant", "Tenant"],
      ["dimension:team", "Team"],
    ]);
    fireEvent.change(by, { target: { value: "dimension:team" } });
    expect((screen.getByLabelText("Metric") as HTMLSelectElement).value).toBe("effective_cost");
    await waitFor(() => expect((screen.getByLabelText("Currency") as HTMLInputElement).value).toBe("EUR"));
    fireEvent.click(screen.getByRole("button", { name: "Create statement" }));
    expect((await screen.findByTestId("statement-created")).textContent).toBe(`Created statement ${last}-0001 (draft).`);
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ period: last, by: "dimension:team", metric: "effective_cost", currency: "EUR" });
    await waitFor(() => expect(screen.getAllByTestId("statement")).toHaveLength(3));
  });

  it("shows the API's 400 naming the field", async () => {
    createAnswer = invalidRequest("Invalid request body", "period", "may not be in the future");
    render("/statements");
    await screen.findAllByTestId("statement");
    fireEvent.click(screen.getByRole("button", { name: "Create statement" }));
    expect((await screen.findByRole("alert")).textContent).toContain("period: may not be in the future");
    expect(screen.queryByTestId("statement-created")).toBeNull();
  });

  it("opens a superseding draft: reconciliation, recipients, changes; finalizes it after a confirmation", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    render("/statements/stm_2");
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("Statement 2026-10-0002");
    const rec = screen.getByTestId("reconciliation");
    expect(Array.from(rec.querySelectorAll("dd")).map((d) => [d.textContent, d.querySelector("span")?.title])).toEqual([
      ["€532.00", "532 EUR"],
      ["€520.00", "520 EUR"],
      ["€12.00", "12 EUR"],
      ["€0.00", "0 EUR"],
    ]);
    expect(screen.getByTestId("reconciled").textContent).toContain("totals plus the unallocated cost equal the bill");
    expect(screen.getAllByTestId("recipient").map((r) => r.textContent)).toEqual(["data€130.00", "platform€0.00", "web€390.00"]);
    expect(screen.getAllByTestId("change").map((r) => r.textContent)).toEqual([
      "data€120.00€130.00€10.00",
      "platform€0.00€0.00€0.00",
      "web€390.00€390.00€0.00",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Finalize" }));
    expect(confirm.mock.calls[0]?.[0]).toContain("A final statement never changes");
    expect((await screen.findByTestId("final-note")).textContent).toContain("never changes and cannot be deleted");
    expect(screen.queryByRole("button", { name: "Finalize" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Delete draft" })).toBeNull();
    expect(calls.some((c) => c.method === "POST" && c.url.pathname.endsWith("/stm_2/finalize"))).toBe(true);
  });

  it("shows a non-zero difference as an error, and a final statement without its buttons", async () => {
    statements = [SECOND, { ...FIRST, reconciliation: { ...FIRST.reconciliation, difference: "0.01" } }];
    render("/statements/stm_1");
    expect((await screen.findByTestId("not-reconciled")).textContent).toContain("differ from the bill by 0.01 EUR");
    expect(screen.getByTestId("final-note")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Finalize" })).toBeNull();
    expect(screen.queryByTestId("changes")).toBeNull();
  });

  it("deletes a draft after a confirmation and goes back to the list", async () => {
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    render("/statements/stm_2");
    fireEvent.click(await screen.findByRole("button", { name: "Delete draft" }));
    expect(confirm.mock.calls[0]?.[0]).toBe("Delete the draft statement 2026-10-0002?");
    await waitFor(() => expect(screen.getAllByTestId("statement")).toHaveLength(1));
    expect(calls.some((c) => c.method === "DELETE" && c.url.pathname.endsWith("/statements/stm_2"))).toBe(true);
  });

  it("shows a recipient's sections and total, and downloads its CSV with the session", async () => {
    const createObjectURL = vi.fn(() => "blob:statement");
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    render("/statements/stm_2/recipients/web");
    expect((await screen.findByRole("heading", { level: 1 })).textContent).toBe("web: statement 2026-10-0002");
    const usage = screen.getByTestId("section-usage");
    const usageRows = within(usage).getAllByRole("row");
    expect(usageRows.map((r) => r.textContent)).toEqual(["DescriptionAmount", "AmazonEC2€335.12"]);
    expect(within(usage).getByTitle("335.123456 EUR")).toBeTruthy();
    const shared = within(screen.getByTestId("section-shared")).getAllByRole("row");
    expect(shared.map((r) => r.textContent)).toEqual([
      "DescriptionSourceMethodRatioAmount",
      "Shared from platformplatformproportional0.75€30.00",
      "Unallocated costunallocatedeven0.75€60.00",
    ]);
    expect(within(screen.getByTestId("section-credits")).getAllByRole("row")[1]?.textContent).toBe("Credit-€15.00");
    expect(within(screen.getByTestId("section-tax")).getByText("None.")).toBeTruthy();
    expect(screen.getByTestId("recipient-total").textContent).toBe("Total €390.00");
    fireEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const csv = calls.find((c) => c.url.pathname.endsWith(".csv"));
    expect(csv?.url.pathname).toBe("/api/v1/organizations/org_1/statements/stm_2/recipients/web.csv");
  });

  it("tells a viewer statements are for owners and admins, hides the nav link and asks the API nothing", async () => {
    role = "viewer";
    render("/statements");
    expect((await screen.findByText(/Statements are for owners and admins/)).textContent).toContain("ask one of them");
    expect(screen.queryByRole("link", { name: "Statements" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Create statement" })).toBeNull();
    expect(calls.some((c) => c.url.pathname.includes("/statements"))).toBe(false);
  });
});
