// The versioned price lists of the Prices page (here the negotiated compute prices): every version
// grouped under the one in force, closing an open row, the close error, and the empty list.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppProvider } from "../src/app/app-context";
import { ComputePrices } from "../src/features/prices/components/ComputePrices";

const row = (id: string, from: string, to: string | null, discount: number) => ({
  id,
  provider: "aws",
  region: "us-east-1",
  instance_type: null,
  family: "m5",
  operating_system: null,
  usage_type: null,
  price_per_hour: null,
  discount_percent: discount,
  currency: "USD",
  effective_from: from,
  effective_to: to,
  tags: {},
});
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderList(answer: (method: string) => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      calls.push(method);
      return answer(method);
    }),
  );
  const config = { auth: { mode: "dev" as const }, mainApiBase: "/api", pricingApiBase: "/pricing" };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AppProvider config={config}>
        <ComputePrices apiKey="key" rights={{ register: false, close: true }} />
      </AppProvider>
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a versioned price list", () => {
  const open = row("cp_2", "2026-11-01T00:00:00.000Z", null, 20);
  const earlier = row("cp_1", "2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z", 10);

  it("shows the price in force with its earlier version below, and closing it asks the list again", async () => {
    const calls = renderList((method) =>
      method === "DELETE" ? json({ entries: [open], status: "Deleted" }) : json({ entries: [open, earlier], status: "OK" }),
    );
    const table = await screen.findByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[1]?.textContent)).toEqual(["20 % off list", "10 % off list"]);
    expect(within(rows[1] as HTMLElement).getByText("earlier version")).toBeTruthy();
    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(within(table).getByRole("button", { name: /Close/ }));
    await waitFor(() => expect(calls.filter((m) => m === "GET")).toHaveLength(2));
    expect(calls).toContain("DELETE");
  });

  it("says why a close failed", async () => {
    renderList((method) => (method === "DELETE" ? json({ error: { code: "forbidden", message: "no" } }, 403) : json({ entries: [open], status: "OK" })));
    const table = await screen.findByRole("table");
    vi.spyOn(window, "confirm").mockReturnValue(true);
    fireEvent.click(within(table).getByRole("button", { name: /Close/ }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/^Could not close the compute price:/);
  });

  it("says when there is none", async () => {
    renderList(() => json({ entries: [], status: "OK" }));
    expect(await screen.findByText("No negotiated compute price: the catalog's list prices apply.")).toBeTruthy();
  });
});
