// First: zod generates no code at run time under the page's Content-Security-Policy.
import "./app/zod-jitless";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { AppProvider } from "./app/app-context";
import { Loading } from "./shared/components/status";
import { loadConfig } from "./app/config";
import { Shell } from "./app/Shell";
import "./styles.css";

// Every page is its own chunk: the first load carries only the shell and the page it opens, whose
// chunk is fetched at once, in parallel with the session's first API calls (not after them).
const loadOverview = () => import("./features/overview/components/Overview");
const loadRecommendations = () => import("./features/recommendations/components/Recommendations");
if (window.location.pathname === "/") void loadOverview();
else if (window.location.pathname === "/recommendations") void loadRecommendations();
const Overview = lazy(loadOverview);
const Recommendations = lazy(loadRecommendations);
const Prices = lazy(() => import("./features/prices/components/Prices"));
const Savings = lazy(() => import("./features/savings/components/Savings"));
const Spend = lazy(() => import("./features/spend/components/Spend"));
const Budgets = lazy(() => import("./features/budgets/components/Budgets"));
const Commitments = lazy(() => import("./features/commitments/components/Commitments"));
const Kubernetes = lazy(() => import("./features/kubernetes/components/Kubernetes"));
const Statements = lazy(() => import("./features/statements/components/Statements"));
const StatementDetail = lazy(() => import("./features/statements/components/StatementDetail"));
const StatementRecipient = lazy(() => import("./features/statements/components/Recipient"));
const Settings = lazy(() => import("./features/settings/components/Settings"));
const ApiKeys = lazy(() => import("./features/settings/components/ApiKeys"));
const Users = lazy(() => import("./features/settings/components/Users"));
const Tenants = lazy(() => import("./features/settings/components/Tenants"));
const Allocation = lazy(() => import("./features/settings/components/Allocation"));
const Webhooks = lazy(() => import("./features/settings/components/Webhooks"));
const Dimensions = lazy(() => import("./features/settings/components/Dimensions"));
const BusinessMetrics = lazy(() => import("./features/settings/components/BusinessMetrics"));
const Organization = lazy(() => import("./features/settings/components/Organization"));
const SignIn = lazy(() => import("./features/auth/components/SignIn"));
const Callback = lazy(() => import("./features/auth/components/Callback"));
const Welcome = lazy(() => import("./features/auth/components/Welcome"));

const router = createBrowserRouter([
  { path: "/sign-in", element: <SignIn /> },
  { path: "/auth/callback", element: <Callback /> },
  { path: "/welcome", element: <Welcome /> },
  {
    element: <Shell />,
    children: [
      { index: true, element: <Overview /> },
      { path: "recommendations", element: <Recommendations /> },
      { path: "savings", element: <Savings /> },
      { path: "spend", element: <Spend /> },
      { path: "budgets", element: <Budgets /> },
      { path: "commitments", element: <Commitments /> },
      { path: "kubernetes", element: <Kubernetes /> },
      { path: "prices", element: <Prices /> },
      { path: "statements", element: <Statements /> },
      { path: "statements/:id", element: <StatementDetail /> },
      { path: "statements/:id/recipients/:value", element: <StatementRecipient /> },
      {
        path: "settings",
        element: <Settings />,
        children: [
          { path: "api-keys", element: <ApiKeys /> },
          { path: "users", element: <Users /> },
          { path: "tenants", element: <Tenants /> },
          { path: "webhooks", element: <Webhooks /> },
          { path: "allocation", element: <Allocation /> },
          { path: "dimensions", element: <Dimensions /> },
          { path: "business-metrics", element: <BusinessMetrics /> },
          { path: "organization", element: <Organization /> },
        ],
      },
      { path: "*", element: <p>No such page.</p> },
    ],
  },
]);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 2 && ![400, 401, 403, 404].includes((error as { status?: number }).status ?? 0),
    },
  },
});

const config = await loadConfig();
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppProvider config={config}>
          <Suspense fallback={<Loading />}>
            <RouterProvider router={router} />
          </Suspense>
        </AppProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
