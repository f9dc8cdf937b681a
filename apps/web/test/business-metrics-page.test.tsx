import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import BusinessMetrics from "../src/features/settings/components/BusinessMetrics";
import { envelope, invalidRequest, meAs, renderInShell, signedIn, signedOut, stubFetch, teamDimension } from "./console-harness";

const me = (role: string) => meAs(role, []);
const TEAM = teamDimension("2026-11-20T00:00:00.000Z");
const ORDERS = {
  name: "orders",
  unit: "orders",
  description: "Orders placed, per team",
  dimension: "team",
  created_at: "2026-11-20T00:00:00.000Z",
  updated_at: "2026-11-20T00:00:00.000Z",
};
const USERS = { ...ORDERS, name: "active_users", unit: "users", description: null, dimension: null };
// docs/api.md's worked example: October 1 web 50, data 150; October 2 web 100, data 0.
const VALUES = {
  name: "orders",
  unit: "orders",
  start: "2026-10-01",
  end: "2026-10-03",
  rows: [
    { date: "2026-10-01", label: "data", amount: "150" },
    { date: "2026-10-01", label: "web", amount: "50" },
    { date: "2026-10-02", label: null, amount: "7.5" },
  ],
};

let role = "admin";
let metrics: unknown[] = [];
let csvAnswer: Response | undefined;
let calls: { method: string; url: URL; body: unknown; contentType?: string }[] = [];
beforeEach(() => {
  signedIn();
  role = "admin";
  metrics = [ORDERS, USERS];
  csvAnswer = undefined;
  calls = [];
  stubFetch(async ({ url, method, headers, raw, body }) => {
    const contentType = headers["Content-Type"];
    calls.push({ method, url, contentType, body });
    if (method === "PUT") {
      const body = JSON.parse(raw ?? "{}");
      return envelope(url.pathname, { ...ORDERS, ...body, name: url.pathname.split("/").pop() });
    }
    if (method === "POST" && url.pathname.endsWith("/values"))
      return (
        csvAnswer ??
        envelope(url.pathname, {
          name: "orders",
          mode: url.searchParams.get("mode"),
          received: 3,
          stored: 2,
          first_date: "2026-11-01",
          last_date: "2026-11-02",
        })
      );
    if (url.pathname === "/api/v1/organizations/org_1/business-metrics/orders/values")
      return envelope(
        url.pathname,
        url.searchParams.get("start") === "2026-10-01"
          ? VALUES
          : { ...VALUES, start: url.searchParams.get("start"), end: url.searchParams.get("end"), rows: [] },
      );
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": { items: [], next_cursor: null },
      "/api/v1/organizations/org_1/dimensions": { items: [TEAM] },
      "/api/v1/organizations/org_1/business-metrics": { items: metrics },
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
});
afterEach(signedOut);

const render = () => renderInShell("/settings/business-metrics", <Route path="settings/business-metrics" element={<BusinessMetrics />} />);

describe("the Business metrics page", () => {
  it("lists the metrics with their unit, description and labelling dimension, and shows the values of a range", async () => {
    render();
    const rows = await screen.findAllByTestId("business-metric");
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining("ordersordersOrders placed, per teamTeam (dimension)"),
      expect.stringContaining("active_usersusersnoneno dimension: amounts are totals"),
    ]);
    const values = await screen.findByTestId("metric-values");
    expect(within(values).getByRole("heading", { name: "Values of orders" })).toBeTruthy();
    // The last 30 days hold nothing: said in words.
    expect((await within(values).findByText(/No amount of orders is stored from 2026-10-28 to 2026-11-28/)).textContent).toContain(
      "Unit costs of those days show",
    );
    fireEvent.change(within(values).getByLabelText("From"), { target: { value: "2026-10-01" } });
    fireEvent.change(within(values).getByLabelText(/^To/), { target: { value: "2026-10-03" } });
    const table = await within(values).findByRole("table");
    expect(
      within(table)
        .getAllByRole("row")
        .map((r) => r.textContent),
    ).toEqual(["DateLabelAmount (orders)", "2026-10-01data150", "2026-10-01web50", "2026-10-02no label7.5"]);
    const read = calls.filter((c) => c.url.pathname.endsWith("/values")).pop();
    expect(Object.fromEntries(read?.url.searchParams ?? [])).toEqual({ start: "2026-10-01", end: "2026-10-03" });
  });

  it("creates a metric labelled by a dimension and edits another (its name fixed)", async () => {
    render();
    await screen.findAllByTestId("business-metric");
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "gb_stored" } });
    fireEvent.change(screen.getByLabelText(/^Unit/), { target: { value: "GB" } });
    fireEvent.change(screen.getByLabelText(/^Labelled by/), { target: { value: "team" } });
    fireEvent.click(screen.getByRole("button", { name: "Create metric" }));
    expect((await screen.findByTestId("metric-saved")).textContent).toBe("Saved gb_stored (GB, labelled by Team). Its values are kept.");
    const put = calls.find((c) => c.method === "PUT");
    expect(put?.url.pathname).toBe("/api/v1/organizations/org_1/business-metrics/gb_stored");
    expect(put?.body).toEqual({ unit: "GB", description: null, dimension: "team" });

    fireEvent.click(screen.getByRole("button", { name: "Edit active_users" }));
    expect(screen.getByRole("heading", { name: "Edit active_users" })).toBeTruthy();
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Description/), { target: { value: "Daily active users" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.filter((c) => c.method === "PUT")).toHaveLength(2));
    expect(calls.filter((c) => c.method === "PUT")[1]?.body).toEqual({ unit: "users", description: "Daily active users", dimension: null });
  });

  it("uploads pasted CSV rows in the chosen mode and says what was stored", async () => {
    render();
    await screen.findByRole("heading", { name: "Upload values of orders" });
    const csv = "date,amount,label\n2026-11-01,1250,web\n2026-11-01,310,data\n2026-11-02,1180,web\n";
    fireEvent.change(screen.getByLabelText(/^Or paste the rows/), { target: { value: csv } });
    fireEvent.click(screen.getByLabelText(/replace them/));
    fireEvent.click(screen.getByRole("button", { name: "Upload values" }));
    expect((await screen.findByTestId("values-stored")).textContent).toBe(
      "Stored 3 rows of orders as 2 day and label amounts (replacing what was stored), from 2026-11-01 to 2026-11-02.",
    );
    const post = calls.find((c) => c.method === "POST");
    expect(post?.url.pathname).toBe("/api/v1/organizations/org_1/business-metrics/orders/values");
    expect(post?.url.searchParams.get("mode")).toBe("replace");
    expect(post?.contentType).toBe("text/csv");
    expect(post?.body).toBe(csv);
  });

  it("reads a chosen CSV file and shows the API's 400 naming the line and column", async () => {
    csvAnswer = invalidRequest("Invalid CSV: line 3, column amount: must be a decimal >= 0", "line.3.amount", "must be a decimal >= 0");
    render();
    await screen.findByRole("heading", { name: "Upload values of orders" });
    fireEvent.change(screen.getByLabelText("Metric"), { target: { value: "active_users" } });
    const file = new File(["date,amount\n2026-11-01,12\n2026-11-02,-3\n"], "users.csv", { type: "text/csv" });
    fireEvent.change(screen.getByLabelText("CSV file"), { target: { files: [file] } });
    await waitFor(() => expect((screen.getByLabelText(/^Or paste the rows/) as HTMLTextAreaElement).value).toContain("2026-11-02,-3"));
    expect(screen.getByText(/now: users\.csv/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Upload values" }));
    const error = await screen.findByTestId("upload-error");
    expect(error.textContent).toContain("Nothing was stored: Invalid CSV: line 3, column amount: must be a decimal >= 0");
    const post = calls.find((c) => c.method === "POST");
    expect(post?.url.pathname).toBe("/api/v1/organizations/org_1/business-metrics/active_users/values");
    expect(post?.url.searchParams.get("mode")).toBe("sum");
  });

  it("shows a member the metrics and values read-only", async () => {
    role = "member";
    render();
    await screen.findAllByTestId("business-metric");
    await screen.findByTestId("metric-values");
    expect(screen.getByText(/Only owners and admins create metrics/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Edit orders" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "New business metric" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Upload values" })).toBeNull();
  });

  it("explains an organization without metrics", async () => {
    metrics = [];
    role = "viewer";
    render();
    expect((await screen.findByText(/No business metric yet/)).textContent).toContain("An owner or admin of the organization can create one.");
    expect(screen.queryByTestId("metric-values")).toBeNull();
  });
});
