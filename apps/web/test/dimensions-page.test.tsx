import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Dimensions from "../src/features/settings/components/Dimensions";
import { envelope, meAs, renderInShell, signedIn, signedOut, stubFetch, teamDimension } from "./console-harness";

const me = (role: string) => meAs(role, []);
const TEAM = teamDimension("2026-11-20T00:00:00.000Z", {
  version: 2,
  rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
  splits: [{ id: "spl_1", source: "platform", targets: "*", method: "proportional" }],
  status: "processing",
  applied_at: null,
});
// The worked example of docs/api.md: 540 before and after the splits.
const PREVIEW = {
  start: "2026-10-01T00:00:00.000Z",
  end: "2026-10-03T00:00:00.000Z",
  currency: "USD",
  metric: "billed_cost",
  coverage: { allocated: "510", unallocated: "30", percent: "94.44" },
  values: [
    { value: "__unallocated__", direct_cost: "30", shared_in: "0", shared_out: "30", cost: "0" },
    { value: "web", direct_cost: "310", shared_in: "100", shared_out: "0", cost: "410" },
  ],
  rules: [
    { index: 0, lines: 5, cost: "510" },
    { index: 1, lines: 0, cost: "0" },
  ],
  unused_rules: [1],
};

let role = "admin";
let calls: { method: string; url: URL; body: unknown }[] = [];
beforeEach(() => {
  signedIn();
  role = "admin";
  calls = [];
  stubFetch(async ({ url, method, body }) => {
    calls.push({ method, url, body });
    if (method === "POST" && url.pathname.endsWith("/preview")) return envelope(url.pathname, PREVIEW);
    if (method === "PUT") return envelope(url.pathname, { ...TEAM, version: 3 });
    const routes: Record<string, unknown> = {
      "/api/v1/me": me(role),
      "/api/v1/organizations/org_1/tenants": { items: [], next_cursor: null },
      "/api/v1/organizations/org_1/dimensions": { items: [TEAM] },
      "/api/v1/organizations/org_1/dimensions/team/versions": { items: [TEAM, { ...TEAM, version: 1, effective_from: "2025-06" }] },
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
});
afterEach(signedOut);

const render = () => renderInShell("/settings/dimensions", <Route path="settings/dimensions" element={<Dimensions />} />);

describe("the Dimensions page", () => {
  it("lists the dimensions with their versions, previews a draft (saving nothing) and saves it as a new version", async () => {
    render();
    const row = await screen.findByTestId("dimension");
    expect(within(row).getByRole("cell", { name: "team" })).toBeTruthy();
    expect(within(row).getByText("unallocated")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: "Versions of team" }));
    expect(await screen.findByText(/Version 1: effective from 2025-06/)).toBeTruthy();

    fireEvent.click(within(row).getByRole("button", { name: "Edit team" }));
    expect(screen.getByRole("heading", { name: "New version of team" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2026-10-01" } });
    fireEvent.change(screen.getByLabelText(/^To/), { target: { value: "2026-10-03" } });
    fireEvent.click(screen.getByRole("button", { name: "Preview (saves nothing)" }));
    const preview = await screen.findByTestId("dimension-preview");
    expect(preview.textContent).toContain("94.44 % of the cost is allocated");
    expect(within(preview).getByRole("row", { name: /web \$310\.00 \$0\.00 \$100\.00 \$410\.00/ })).toBeTruthy();
    expect(within(preview).getByText(/Rules that matched no line first: 2/)).toBeTruthy();
    const previewCall = calls.find((c) => c.method === "POST");
    expect(Object.fromEntries(previewCall?.url.searchParams ?? [])).toEqual({ start: "2026-10-01", end: "2026-10-03" });
    // The stored splits go back without their ids; the stored rules as they were.
    expect(previewCall?.body).toEqual({
      name: "Team",
      rules: TEAM.rules,
      splits: [{ source: "platform", targets: "*", method: "proportional" }],
      default_value: null,
      effective_from: "2025-11",
    });
    expect(calls.some((c) => c.method === "PUT")).toBe(false);

    fireEvent.click(screen.getByRole("button", { name: "Save version" }));
    expect((await screen.findByTestId("dimension-saved")).textContent).toBe("Saved team version 3, effective from 2025-11.");
    expect(calls.find((c) => c.method === "PUT")?.url.pathname).toBe("/api/v1/organizations/org_1/dimensions/team");
  });

  it("names the box whose JSON does not parse, sending nothing", async () => {
    render();
    await screen.findByTestId("dimension");
    fireEvent.change(screen.getByLabelText(/^Key/), { target: { value: "cost_center" } });
    fireEvent.change(screen.getByLabelText(/^Rules/), { target: { value: "[{" } });
    fireEvent.click(screen.getByRole("button", { name: "Preview (saves nothing)" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/^Rules is not JSON/);
    expect(calls.some((c) => c.method !== "GET")).toBe(false);
  });

  it("shows a member the dimensions without the editor", async () => {
    role = "member";
    render();
    await screen.findByTestId("dimension");
    expect(screen.queryByRole("button", { name: "Edit team" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "New dimension" })).toBeNull();
    await waitFor(() => expect(screen.getByRole("button", { name: "Versions of team" })).toBeTruthy());
  });
});
