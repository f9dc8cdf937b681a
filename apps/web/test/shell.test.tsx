import { cleanup, screen } from "@testing-library/react";
import { Route } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Users from "../src/features/settings/components/Users";
import { renderInShell } from "./console-harness";

const ORG = { id: "org_1", name: "Acme", slug: "acme" };
const user = (id: string, role: string) => ({
  id,
  organization_id: "org_1",
  name: `User ${id}`,
  email: `${id}@acme.example`,
  role,
  active: true,
  joined_at: "2026-11-01T00:00:00.000Z",
  tenant_ids: ["ten_1"],
});

/** The main API as the browser sees it: one answer per path (the envelope), anything else a 404. */
function answer(routes: Record<string, [number, unknown]>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const path = new URL(url, "http://console").pathname;
      const [status, data] = routes[path] ?? [404, undefined];
      const body = status < 300 ? { message: "ok", status: "success", data } : { message: `refused ${path}`, status: "error" };
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
}

function renderAt(path: string) {
  renderInShell(
    path,
    <>
      <Route index element={<p>home page</p>} />
      <Route path="settings/users" element={<Users />} />
    </>,
    <>
      <Route path="/welcome" element={<p>welcome page</p>} />
      <Route path="/sign-in" element={<p>sign-in page</p>} />
    </>,
  );
}

beforeEach(() => sessionStorage.setItem("cloudcost.token", "header.eyJlbWFpbCI6ImFAYWNtZS5leGFtcGxlIn0.sig"));
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe("the signed-in shell", () => {
  it("sends a visitor without a session to the sign-in page", async () => {
    sessionStorage.clear();
    answer({});
    renderAt("/");
    expect(await screen.findByText("sign-in page")).toBeTruthy();
  });

  it("sends an identity without an organization (403 on /me) to the sign-up page", async () => {
    answer({ "/api/v1/me": [403, undefined] });
    renderAt("/");
    expect(await screen.findByText("welcome page")).toBeTruthy();
  });

  it("shows another error of /me in words instead of a page", async () => {
    answer({ "/api/v1/me": [503, undefined] });
    renderAt("/");
    expect((await screen.findByRole("alert")).textContent).toContain("refused /api/v1/me");
  });

  it("a viewer's users page offers no invitation, role change or deactivation", async () => {
    answer({
      "/api/v1/me": [200, { organization: ORG, user: user("usr_v", "viewer"), role: "viewer", tenant_ids: ["ten_1"], api_key_id: null }],
      "/api/v1/organizations/org_1/tenants": [200, { items: [{ id: "ten_1", name: "Prod", organization_id: "org_1" }], next_cursor: null }],
      "/api/v1/organizations/org_1/users": [200, { items: [user("usr_o", "owner"), user("usr_m", "member"), user("usr_v", "viewer")], next_cursor: null }],
    });
    renderAt("/settings/users");
    expect(await screen.findByText("usr_m@acme.example")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Send invitation" })).toBeNull();
    expect(screen.queryByRole("combobox", { name: /Role of/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /Deactivate/ })).toBeNull();
  });

  it("an admin may change members but is not offered owners, nor the owner role", async () => {
    answer({
      "/api/v1/me": [200, { organization: ORG, user: user("usr_a", "admin"), role: "admin", tenant_ids: [], api_key_id: null }],
      "/api/v1/organizations/org_1/tenants": [200, { items: [{ id: "ten_1", name: "Prod", organization_id: "org_1" }], next_cursor: null }],
      "/api/v1/organizations/org_1/users": [200, { items: [user("usr_o", "owner"), user("usr_m", "member"), user("usr_a", "admin")], next_cursor: null }],
      "/api/v1/organizations/org_1/invitations": [200, { items: [], next_cursor: null }],
    });
    renderAt("/settings/users");
    const role = await screen.findByRole("combobox", { name: "Role of User usr_m" });
    expect([...(role as HTMLSelectElement).options].map((o) => o.value)).toEqual(["admin", "member", "viewer"]);
    expect(screen.queryByRole("combobox", { name: "Role of User usr_o" })).toBeNull();
    expect(screen.getAllByRole("button", { name: /Deactivate/ }).map((b) => b.textContent)).toEqual(["Deactivate User usr_m"]);
    expect(screen.getByRole("button", { name: "Send invitation" })).toBeTruthy();
  });
});
