// What the console's page tests share: a signed-in browser at a fixed time, the app's providers
// around the Shell with the pages under test, and the main API's envelope for stubbed answers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter, Routes, Route } from "react-router";
import { vi } from "vitest";
import { AppProvider } from "../src/app/app-context";
import { Shell } from "../src/app/Shell";

/** beforeEach: the clock at 2026-11-27T09:30Z (Date only, timers stay real) and a dev sign-in token. */
export function signedIn(): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-27T09:30:00.000Z"));
  sessionStorage.setItem("cloudcost.token", "header.eyJlbWFpbCI6ImFAYWNtZS5leGFtcGxlIn0.sig");
}

/** afterEach: the DOM, storage, clock and stubbed globals as they were. */
export function signedOut(): void {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  for (const style of document.head.querySelectorAll("style[data-console-styles]")) style.remove();
}

/** The console's stylesheet (src/styles.css) in the document, so getComputedStyle answers as the page is drawn. */
export function withConsoleStyles(): void {
  const style = document.createElement("style");
  style.dataset.consoleStyles = "";
  style.textContent = readFileSync(path.join(__dirname, "../src/styles.css"), "utf8");
  document.head.append(style);
}

/** How the stylesheet lays out a checkbox and its label: the label's direction and the box's size. */
export function checkboxLayout(box: HTMLElement): { label: string; width: string; height: string; minHeight: string } {
  const label = box.closest("label");
  const style = getComputedStyle(box);
  return { label: label ? getComputedStyle(label).flexDirection : "no label", width: style.width, height: style.height, minHeight: style.minHeight };
}

/**
 * The main API's /me of a user of org_1 (Acme) with `role`, reaching `tenantIds`: usr_1, a@acme.example,
 * named A, unless `user` says otherwise.
 */
export function meAs(role: string, tenantIds: string[] = ["ten_1"], user: { id?: string; email?: string; name?: string } = {}) {
  return {
    organization: { id: "org_1", name: "Acme", slug: "acme" },
    user: {
      id: "usr_1",
      organization_id: "org_1",
      email: "a@acme.example",
      name: "A",
      role,
      active: true,
      joined_at: "2026-11-01T00:00:00.000Z",
      tenant_ids: tenantIds,
      ...user,
    },
    role,
    tenant_ids: tenantIds,
    api_key_id: null,
  };
}

/** The dimension `team` (Team) as the main API lists it: version 1 from 2025-11, applied at `at`, no rule or split; `fields` change it. */
export function teamDimension(at: string, fields: Record<string, unknown> = {}) {
  return {
    key: "team",
    name: "Team",
    description: null,
    version: 1,
    effective_from: "2025-11",
    rules: [],
    default_value: null,
    splits: [],
    status: "applied",
    applied_at: at,
    created_at: at,
    ...fields,
  };
}

/** A request a page sent to the stubbed APIs: its URL, method, headers and body (parsed when JSON, else its text; `raw` the text). */
export interface SentRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  raw: string | undefined;
  body: unknown;
}

/** fetch stubbed: `answer` gets each request the page sends and gives the response. */
export function stubFetch(answer: (request: SentRequest) => Response | Promise<Response>): void {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const raw = init?.body ? String(init.body) : undefined;
      let body: unknown = raw;
      try {
        body = raw === undefined ? undefined : JSON.parse(raw);
      } catch {
        // not JSON (a CSV upload): the text as it is
      }
      return answer({
        url: new URL(input, "http://console"),
        method: init?.method ?? "GET",
        headers: (init?.headers ?? {}) as Record<string, string>,
        raw,
        body,
      });
    }),
  );
}

/** The tenants of org_1 as the main API lists them: ten_1 (Prod). */
export const ONE_TENANT = { items: [{ id: "ten_1", name: "Prod", organization_id: "org_1" }], next_cursor: null };

/** The main API's 400 (invalid_request) with its `message` and the `path` whose value it refused. */
export function invalidRequest(message: string, path: string, why: string): Response {
  const body = { status: "error", code: "invalid_request", message, errors: [{ path, message: why }] };
  return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/json" } });
}

/** The main API's answer for `pathname`: `data` in its success envelope, or a 404 when there is none. */
export function envelope(pathname: string, data: unknown): Response {
  const body = data === undefined ? { status: "error", message: `no ${pathname}` } : { status: "success", message: "ok", data };
  return new Response(JSON.stringify(body), { status: data === undefined ? 404 : 200, headers: { "content-type": "application/json" } });
}

/** The console at `path`, with `pages` (Route elements) inside the Shell and `outside` beside it (sign-in, welcome). */
export function renderInShell(path: string, pages: ReactNode, outside?: ReactNode): void {
  const config = { auth: { mode: "dev" as const }, mainApiBase: "/api", pricingApiBase: "/pricing" };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AppProvider config={config}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route element={<Shell />}>{pages}</Route>
            {outside}
          </Routes>
        </MemoryRouter>
      </AppProvider>
    </QueryClientProvider>,
  );
}
