import { fireEvent, screen, waitFor } from "@testing-library/react";
import { Route } from "react-router";
import { checkboxLayout, envelope, meAs, ONE_TENANT, renderInShell, signedIn, signedOut, stubFetch, withConsoleStyles } from "./console-harness";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import Kubernetes from "../src/features/kubernetes/components/Kubernetes";
import { nodesWithoutPodsText } from "../src/features/kubernetes/components/NamespaceCosts";

const ME = meAs("member");
const row = (group: string, total: string, efficiency: number | null) => ({
  group,
  cpu_core_hours: 10,
  ram_gb_hours: 60,
  gpu_hours: 0,
  cpu_cost: total,
  ram_cost: "0.00",
  gpu_cost: "0.00",
  total_cost: total,
  efficiency,
});
const TOTALS = {
  cpu_core_hours: 10,
  ram_gb_hours: 60,
  gpu_hours: 0,
  cpu_cost: "1.92",
  ram_cost: "0.00",
  gpu_cost: "0.00",
  total_cost: "1.92",
  basis: { bill_node_days: 0, catalog_node_days: 1 },
};
// The g5.2xlarge of docs/api.md's worked example: a GPU job, a batch job and a cache, with idle of CPU and memory.
const GPU_ROWS = [
  { ...row("ml", "21.71", 0.5), cpu_cost: "0.69", ram_cost: "0.37", gpu_cost: "20.65", gpu_hours: 24 },
  { ...row("batch", "3.48", 0.5), cpu_cost: "2.75", ram_cost: "0.73" },
  { ...row("cache", "1.81", 0.5), cpu_cost: "0.34", ram_cost: "1.47" },
  { ...row("__idle__", "2.09", null), cpu_cost: "1.72", ram_cost: "0.37" },
];
const GPU_TOTALS = {
  cpu_core_hours: 132,
  ram_gb_hours: 672,
  gpu_hours: 24,
  cpu_cost: "5.50",
  ram_cost: "2.94",
  gpu_cost: "20.65",
  total_cost: "29.09",
  basis: { bill_node_days: 12, catalog_node_days: 30 },
};
const ALLOCATION = {
  start: "2026-11-14T00:00:00.000Z",
  end: "2026-11-28T00:00:00.000Z",
  aggregate: "namespace",
  share_idle: false,
  rows: [row("web", "0.56", 0.7229), row("__idle__", "1.36", null)],
  totals: TOTALS,
  unpriced_nodes: [],
  nodes_without_pods: [] as string[],
  days: [
    {
      date: "2026-11-27",
      rows: [row("web", "0.56", 0.7229), row("__idle__", "1.36", null)],
      totals: TOTALS,
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
      requests: { cpu_cores: 12, memory_gb: 40, gpus: 0 },
      largest_pod: { cpu_cores: 2, memory_gb: 8, gpus: 0 },
      min_nodes: 2,
      hours: 20,
    },
    {
      cluster: "prod",
      node_pool: "train",
      current: { instance_type: "g5.2xlarge", nodes: 1, monthly_cost_usd: 884.76 },
      recommended: { instance_type: "g5.2xlarge", nodes: 1, monthly_cost_usd: 884.76 },
      savings_monthly_usd: 0,
      requests: { cpu_cores: 7, memory_gb: 20, gpus: 1 },
      largest_pod: { cpu_cores: 7, memory_gb: 20, gpus: 1 },
      min_nodes: 1,
      hours: 4,
    },
  ],
};

let requests: URL[] = [];
let withoutPods: string[] = [];
let gpus = false;
beforeEach(() => {
  signedIn();
  requests = [];
  withoutPods = [];
  gpus = false;
  stubFetch(async ({ url }) => {
    requests.push(url);
    const routes: Record<string, unknown> = {
      "/api/v1/me": ME,
      "/api/v1/organizations/org_1/tenants": ONE_TENANT,
      "/api/v1/tenant/kubernetes/allocation": {
        ...ALLOCATION,
        ...(gpus ? { rows: GPU_ROWS, totals: GPU_TOTALS, days: [{ date: "2026-11-27", rows: GPU_ROWS, totals: GPU_TOTALS }] } : {}),
        share_idle: url.searchParams.get("share_idle") === "true",
        nodes_without_pods: withoutPods,
      },
      "/api/v1/tenant/kubernetes/node-pools/recommendations": POOLS,
    };
    return envelope(url.pathname, routes[url.pathname]);
  });
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

  it("shows GPU-hours and GPU cost per namespace, idle per resource, where node prices came from, and GPU pools with their floor", async () => {
    gpus = true;
    renderInShell("/kubernetes", <Route path="kubernetes" element={<Kubernetes />} />);
    expect((await screen.findByTestId("k8s-total")).textContent).toContain("29.09");
    expect(screen.getByRole("columnheader", { name: "GPU-hours" })).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "GPU cost" })).toBeTruthy();
    const ml = screen.getByRole("row", { name: /^ml / });
    expect(ml.textContent).toContain("20.65");
    expect(ml.textContent).toContain("21.71");
    expect(screen.getByTestId("k8s-idle").textContent).toBe(
      "Idle: CPU $1.72, memory $0.37, GPU $0.00 (claimed by no pod; shared per resource when idle is shared).",
    );
    expect(screen.getByTestId("k8s-basis").textContent).toBe(
      "Node prices: 12 node-days from the bill (reservations, savings plans and spot discounts included), 30 at the catalog's effective price.",
    );
    const train = await screen.findByRole("row", { name: /prod \/ train/ });
    expect(train.textContent).toContain("7 cores, 20 GB, 1 GPU");
    expect(train.textContent).toContain("at least 1");
    expect(screen.getByRole("row", { name: /prod \/ general/ }).textContent).toContain("at least 2");
  });

  it("says so when the API named as many such nodes as it names at most", () => {
    expect(nodesWithoutPodsText(["only"])).toBe(
      "No pod was sampled on 1 node billed in this range, so their whole cost is idle (is an agent sending their pods?): only.",
    );
    const hundred = Array.from({ length: 100 }, (_, i) => `n-${i}`);
    expect(nodesWithoutPodsText(hundred)).toMatch(/^No pod was sampled on 100 or more nodes .*: n-0, n-1, n-2, n-3, n-4 and more\.$/);
  });
});
