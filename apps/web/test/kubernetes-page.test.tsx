import { fireEvent, screen, waitFor } from "@testing-library/react";
import { Route } from "react-router";
import { checkboxLayout, envelope, renderInShell, signedIn, signedOut, withConsoleStyles } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Kubernetes from "../src/features/kubernetes/components/Kubernetes";
import { nodesWithoutPodsText } from "../src/features/kubernetes/components/NamespaceCosts";

const ME = {
  organization: { id: "org_1", name: "Acme", slug: "acme" },
  user: {
    id: "usr_1",
    organization_id: "org_1",
    email: "a@acme.example",
    name: "A",
    role: "member",
    active: true,
    joined_at: "2026-11-01T00:00:00.000Z",
    tenant_ids: ["ten_1"],
  },
  role: "member",
  tenant_ids: ["ten_1"],
  api_key_id: null,
};
const row = (group: string, total: string, efficiency: number | null) => ({
  group,
  cpu_core_hours: 10,
  ram_gb_hours: 60,
  cpu_cost: total,
  ram_cost: "0.00",
  total_cost: total,
  efficiency,
});
const ALLOCATION = {
  start: "2026-11-14T00:00:00.000Z",
  end: "2026-11-28T00:00:00.000Z",
  aggregate: "namespace",
  share_idle: false,
  rows: [row("web", "0.56", 0.7229), row("__idle__", "1.36", null)],
  totals: { cpu_core_hours: 10, ram_gb_hours: 60, cpu_cost: "1.92", ram_cost: "0.00", total_cost: "1.92" },
  unpriced_nodes: [],
  nodes_without_pods: [] as string[],
  days: [
    {
      date: "2026-11-27",
      rows: [row("web", "0.56", 0.7229), row("__idle__", "1.36", null)],
      totals: { cpu_core_hours: 10, ram_gb_hours: 60, cpu_cost: "1.92", ram_cost: "0.00", total_cost: "1.92" },
    },
  ],
};
const POOLS = {
  lookback_days: 14,
  items: [
    {
      cluster: "prod",
      node_pool: "general",
      current: { instance_type: "m5.2xlarge", nodes: 10, monthly_cost_usd: 2803.2 },
      recommended: { instance_type: "m5.2xlarge", nodes: 2, monthly_cost_usd: 560.64 },
      savings_monthly_usd: 2242.56,
      requests: { cpu_cores: 12, memory_gb: 40 },
      largest_pod: { cpu_cores: 2, memory_gb: 8 },
      hours: 20,
    },
  ],
};

let requests: URL[] = [];
let withoutPods: string[] = [];
beforeEach(() => {
  signedIn();
  requests = [];
  withoutPods = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(input, "http://console");
      requests.push(url);
      const routes: Record<string, unknown> = {
        "/api/v1/me": ME,
        "/api/v1/organizations/org_1/tenants": { items: [{ id: "ten_1", name: "Prod", organization_id: "org_1" }], next_cursor: null },
        "/api/v1/tenant/kubernetes/allocation": { ...ALLOCATION, share_idle: url.searchParams.get("share_idle") === "true", nodes_without_pods: withoutPods },
        "/api/v1/tenant/kubernetes/node-pools/recommendations": POOLS,
      };
      return envelope(url.pathname, routes[url.pathname]);
    }),
  );
});
afterEach(signedOut);

describe("the Kubernetes page", () => {
  it("asks for two weeks by namespace per day, shows idle apart with the efficiency, and the node pools current against recommended", async () => {
    renderInShell("/kubernetes", <Route path="kubernetes" element={<Kubernetes />} />);
    expect((await screen.findByTestId("k8s-total")).textContent).toContain("1.92");
    const calls = requests.filter((r) => r.pathname === "/api/v1/tenant/kubernetes/allocation").map((r) => Object.fromEntries(r.searchParams));
    // 14 days with today: 2026-11-14 to 2026-11-28 (exclusive).
    expect(calls[0]).toEqual({ start: "2026-11-14", end: "2026-11-28", aggregate: "namespace", share_idle: "false", step: "day" });
    expect(screen.getByRole("cell", { name: "Idle (claimed by no pod)" })).toBeTruthy();
    expect(screen.getByRole("cell", { name: "72.3 %" })).toBeTruthy();
    expect(screen.getByRole("img", { name: /Cost by namespace per day: 1 period/ })).toBeTruthy();
    expect((await screen.findByText(/2 × m5\.2xlarge/)).textContent).toContain("560.64");
    expect(screen.getByText(/10 × m5\.2xlarge/)).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox", { name: /Share idle cost/ }));
    await waitFor(() => expect(requests.some((r) => r.searchParams.get("share_idle") === "true")).toBe(true));
    expect(screen.getByRole("link", { name: "Kubernetes" })).toBeTruthy();
  });

  it("draws 'share idle' as a checkbox beside its label: clicking the label's text ticks it and asks for the shared allocation", async () => {
    withConsoleStyles();
    renderInShell("/kubernetes", <Route path="kubernetes" element={<Kubernetes />} />);
    await screen.findByTestId("k8s-total");
    const box = screen.getByRole("checkbox", { name: /Share idle cost/ }) as HTMLInputElement;
    expect(checkboxLayout(box)).toEqual({ label: "row", width: "1rem", height: "1rem", minHeight: "0" });
    expect(box.checked).toBe(false);
    fireEvent.click(screen.getByText("Share idle cost among namespaces"));
    expect(box.checked).toBe(true);
    await waitFor(() => expect(requests.some((r) => r.searchParams.get("share_idle") === "true")).toBe(true));
    fireEvent.click(screen.getByText("Share idle cost among namespaces"));
    expect(box.checked).toBe(false);
  });

  it("names the billed nodes on which no pod was sampled, whose whole cost is idle", async () => {
    withoutPods = ["n-1", "n-2", "n-3", "n-4", "n-5", "n-6", "n-7"];
    renderInShell("/kubernetes", <Route path="kubernetes" element={<Kubernetes />} />);
    expect((await screen.findByTestId("k8s-nodes-without-pods")).textContent).toBe(
      "No pod was sampled on 7 nodes billed in this range, so their whole cost is idle (is an agent sending their pods?): n-1, n-2, n-3, n-4, n-5 and 2 more.",
    );
  });

  it("says so when the API named as many such nodes as it names at most", () => {
    expect(nodesWithoutPodsText(["only"])).toBe(
      "No pod was sampled on 1 node billed in this range, so their whole cost is idle (is an agent sending their pods?): only.",
    );
    const hundred = Array.from({ length: 100 }, (_, i) => `n-${i}`);
    expect(nodesWithoutPodsText(hundred)).toMatch(/^No pod was sampled on 100 or more nodes .*: n-0, n-1, n-2, n-3, n-4 and more\.$/);
  });
});
