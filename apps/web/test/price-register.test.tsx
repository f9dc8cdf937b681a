// The register form of a versioned price kind (here the commitment rates): the entry it sends from
// its fields, the list asked again and the discount emptied after a register, and the register error.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppProvider } from "../src/app/app-context";
import { CommitmentRates } from "../src/features/prices/components/CommitmentRates";
import { signedOut } from "./console-harness";

const rate = {
  id: "cr_1",
  provider: "aws",
  commitment_type: "reserved_instance",
  term_months: 36,
  payment_option: "all_upfront",
  service_category: "Compute",
  region: "eu-west-1",
  family: null,
  discount_percent: 40,
  effective_from: "2026-11-01T00:00:00.000Z",
  effective_to: null,
};
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderForm(registered: (body: unknown) => Response) {
  const calls: { method: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      const text = init?.body ?? (input instanceof Request && method !== "GET" ? await input.clone().text() : undefined);
      const body = typeof text === "string" ? JSON.parse(text) : undefined;
      calls.push({ method, body });
      return method === "POST" ? registered(body) : json({ entries: calls.some((c) => c.method === "POST") ? [rate] : [], status: "OK" });
    }),
  );
  const config = { auth: { mode: "dev" as const }, mainApiBase: "/api", pricingApiBase: "/pricing" };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AppProvider config={config}>
        <MemoryRouter>
          <CommitmentRates apiKey="key" rights={{ register: true, close: true }} />
        </MemoryRouter>
      </AppProvider>
    </QueryClientProvider>,
  );
  return calls;
}

const fill = () => {
  fireEvent.change(screen.getByLabelText("Type"), { target: { value: "reserved_instance" } });
  fireEvent.change(screen.getByLabelText("Term"), { target: { value: "36" } });
  fireEvent.change(screen.getByLabelText("Payment"), { target: { value: "all_upfront" } });
  fireEvent.change(screen.getByLabelText("Region (optional)"), { target: { value: " eu-west-1 " } });
  fireEvent.change(screen.getByLabelText("Percent off on demand"), { target: { value: "40" } });
  fireEvent.click(screen.getByRole("button", { name: "Register commitment rate" }));
};

afterEach(signedOut);

describe("registering a commitment rate", () => {
  it("sends the entry of the fields, asks the list again and empties the discount", async () => {
    const calls = renderForm(() => json({ entries: [rate], status: "Registered" }, 201));
    expect(await screen.findByText(/No commitment rate yet/)).toBeTruthy();
    expect((screen.getByLabelText("Provider") as HTMLInputElement).value).toBe("aws");
    expect((screen.getByLabelText("Service category (optional)") as HTMLInputElement).value).toBe("Compute");
    fill();
    await waitFor(() => expect(screen.getByText("40 % off on demand")).toBeTruthy());
    const { id: _id, family: _family, effective_from: _from, effective_to: _to, ...entry } = rate;
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ entries: [entry] });
    expect((screen.getByLabelText("Percent off on demand") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("Region (optional)") as HTMLInputElement).value).toBe(" eu-west-1 ");
  });

  it("says why a register failed", async () => {
    renderForm(() => json({ error: { code: "limit_reached", message: "too many" } }, 409));
    await screen.findByText(/No commitment rate yet/);
    fill();
    expect((await screen.findByRole("alert")).textContent).toMatch(/^Could not register the commitment rate:/);
  });
});
