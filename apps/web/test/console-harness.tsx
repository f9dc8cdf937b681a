// What the console's page tests share: a signed-in browser at a fixed time, the app's providers
// around the Shell with the pages under test, and the main API's envelope for stubbed answers.
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
