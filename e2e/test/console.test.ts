import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import AxeBuilder from "@axe-core/playwright";
import type { PutDimensionRequest, SpendReport } from "@cloudcost/contracts";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { FLEET, samplesOf } from "../src/fleet";
import { stackClient } from "../src/client";
import { describeWith, findChromium } from "../src/requirements";
import { startStack, type Stack } from "../src/stack";

// The console (apps/web) in headless Chromium, through the gateway in front of the real services:
// the journeys of issue #27, axe-core on every page (no serious or critical violation), screenshots
// of every page at 1280 and 390 px in e2e/artifacts/console/, and the performance figures in
// bench/results/console.json.
const ARTIFACTS = path.resolve(__dirname, "../artifacts/console");
const RESULTS = path.resolve(__dirname, "../../bench/results/console.json");
const DIST = path.resolve(__dirname, "../../apps/web/dist");
const describeIfBrowser = describeWith("the console browser test", ["chromium", "nginx"]);

const OWNER = "ada@console.example";
const VIEWER = "vic@console.example";
const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
const ROOT = path.resolve(__dirname, "../..");

/** The demo organization's cloud bill (scripts/demo/focus.mjs, the file `pnpm start` imports), for today. */
function demoFocusCsv(): string {
  const script = `import { demoFocusCsv } from ${JSON.stringify(path.join(ROOT, "scripts/demo/focus.mjs"))}; process.stdout.write(demoFocusCsv(Date.now()));`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/**
 * Polls until `ok`, and fails naming the last value when the bound passes (a generous bound: the
 * browser, the gateway and four services share a machine another test run may be loading too).
 */
async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${timeoutMs / 1000} s; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeIfBrowser("console", () => {
  let stack: Stack;
  let browser: Browser;
  let ownerToken: string;
  let tenant: string;
  let owner: Page;
  const a11y: Record<string, string[]> = {};
  const cspViolations: string[] = [];

  // Starting both services and a browser takes ~20 s on a quiet machine, over 2 minutes on a busy one.
  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    [stack, browser] = await Promise.all([
      // Webhooks to the test's own receiver on 127.0.0.1 (refused by default, as in production).
      startStack({ mainEnv: { WEBHOOK_ALLOW_INSECURE: "1" } }),
      chromium.launch({
        executablePath: findChromium(),
        headless: true,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
      }),
    ]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /**
   * A browser context whose pages report every Content-Security-Policy violation (the page's own
   * `securitypolicyviolation` event, and Chromium's console lines about the policy) into
   * `cspViolations`: the console must run under the gateway's policy without tripping it (a library
   * that generates code at run time does, even where it catches the refusal).
   */
  async function newContext(options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    // Waits for a state, however busy the machine: the suite runs beside the others in CI.
    context.setDefaultTimeout(60_000);
    await context.exposeBinding("__reportCspViolation", (_source, text: string) => {
      cspViolations.push(text);
    });
    await context.addInitScript(() => {
      const page = globalThis as unknown as {
        document: { addEventListener(type: string, listener: (e: Record<string, unknown>) => void): void };
        location: { pathname: string };
        __reportCspViolation(text: string): void;
      };
      page.document.addEventListener("securitypolicyviolation", (e) =>
        page.__reportCspViolation(`${e.violatedDirective} blocked in ${e.sourceFile}:${e.lineNumber} on ${page.location.pathname}`),
      );
    });
    context.on("console", (message) => {
      if (/Content Security Policy|Content-Security-Policy|unsafe-eval|'script-src'/i.test(message.text())) cspViolations.push(`console: ${message.text()}`);
    });
    return context;
  }

  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${stack.consoleUrl}/`);
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    return { context, page };
  }

  /** Axe (serious and critical count) and the two screenshots of the page as it is now. */
  async function check(page: Page, name: string) {
    await page.waitForLoadState("networkidle");
    const result = await new AxeBuilder({ page }).analyze();
    a11y[name] = result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`);
    expect({ name, violations: a11y[name] }).toEqual({ name, violations: [] });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("signs up a new organization from the sign-in form", async () => {
    const anonymous = await newContext();
    const signInPage = await anonymous.newPage();
    await signInPage.goto(`${stack.consoleUrl}/sign-in`);
    await check(signInPage, "sign-in");
    await anonymous.close();

    const { page } = await signIn(OWNER);
    owner = page;
    await page.waitForURL(/\/welcome$/);
    await expect(page.getByText("No pending invitation for this address.").waitFor()).resolves.toBeUndefined();
    await page.getByLabel("Company name").fill("Console Corp");
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    expect(await page.getByLabel("Slug").inputValue()).toBe("console-corp");
    await check(page, "welcome");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();

    ownerToken = stack.devToken(OWNER);
    const me = await stackClient(stack, { token: ownerToken }).main.getMe();
    expect(me).toMatchObject({ organization: { name: "Console Corp" }, role: "owner" });
    tenant = me.tenant_ids[0];
  });

  it("shows the overview's numbers exactly as the API computes them", async () => {
    const { main } = stackClient(stack, { token: ownerToken });
    await main.upsertResources({ tenant, body: { resources: FLEET.map((m) => m.resource) } });
    await main.ingestMetrics({ tenant, body: { samples: samplesOf(FLEET) } });
    const analyzed = await main.analyzeRecommendations({ tenant });
    expect(analyzed.analyzed_resources).toBeGreaterThan(0);
    const summary = await main.getRecommendationSummary({ tenant });
    expect(summary.actionable_count).toBeGreaterThan(0);

    const page = owner;
    await page.goto(`${stack.consoleUrl}/`);
    const card = (id: string) => page.getByTestId(id).locator("dd").textContent();
    await page.getByTestId("savings-monthly").waitFor();
    expect(await card("savings-monthly")).toBe(usd(summary.potential_savings_monthly_usd));
    expect(await card("savings-annual")).toBe(usd(summary.potential_savings_annual_usd));
    expect(await card("actionable")).toBe(String(summary.actionable_count));
    expect(await card("analyzed")).toBe(`${summary.analyzed_resources} / ${summary.total_resources}`);
    const chart = await page.getByRole("img", { name: /Resources per action/ }).getAttribute("aria-label");
    expect(chart).toContain(`Downsize ${summary.action_counts.downsize}`);
    expect(chart).toContain(`Terminate ${summary.action_counts.terminate}`);
    await check(page, "overview");
  });

  it("filters recommendations in the URL and opens a resource's detail", async () => {
    const page = owner;
    await page.goto(`${stack.consoleUrl}/recommendations`);
    await page.getByRole("table").waitFor();
    await check(page, "recommendations");
    await page.getByRole("checkbox", { name: "Downsize" }).check();
    await page.waitForURL(/action=DOWNSIZE/);
    const api = await stackClient(stack, { token: ownerToken }).main.listRecommendations({ tenant, query: { action: ["DOWNSIZE"] } });
    expect(api.items.length).toBeGreaterThan(0);
    expect(
      await until(
        () => page.locator("tbody tr").count(),
        (n) => n === api.items.length,
      ),
    ).toBe(api.items.length);
    expect(await page.locator("tbody tr .action").allTextContents()).toEqual(api.items.map(() => "Downsize"));

    // The filtered view is addressable: a fresh load of the URL shows the same rows.
    await page.reload();
    expect(
      await until(
        () => page.locator("tbody tr").count(),
        (n) => n === api.items.length,
      ),
    ).toBe(api.items.length);
    const first = api.items[0];
    await page.getByRole("button", { name: first.name ?? first.resource_id }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Utilization" }).waitFor();
    expect(await dialog.textContent()).toContain(first.resource_id);
    expect(page.url()).toContain(`resource=${encodeURIComponent(first.resource_id)}`);
    await check(page, "recommendation-detail");
    await page.keyboard.press("Escape");
    expect(
      await until(
        async () => page.url(),
        (url) => !url.includes("resource="),
      ),
    ).not.toContain("resource=");
  });

  it("dismisses a recommendation with a reason from its panel, opens it again, and shows the savings page", async () => {
    const page = owner;
    const client = stackClient(stack, { token: ownerToken });
    const [first] = (await client.main.listRecommendations({ tenant, query: { action: ["DOWNSIZE"], limit: 1 } })).items;
    await page.goto(`${stack.consoleUrl}/recommendations?resource=${encodeURIComponent(first.resource_id)}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Decision" }).waitFor();
    await dialog.getByLabel("Reason (optional)").fill("runs the month-end batch");
    await dialog.getByRole("button", { name: "Dismiss" }).click();
    await dialog.getByText("Dismissed: runs the month-end batch").waitFor();
    const dismissed = await client.main.listRecommendations({ tenant, query: { state: ["dismissed"] } });
    expect(dismissed.items.map((i) => i.resource_id)).toEqual([first.resource_id]);
    await dialog.getByRole("button", { name: "Open again" }).click();
    await dialog
      .getByRole("status")
      .filter({ hasText: /^Open$/ })
      .waitFor();
    await page.keyboard.press("Escape");

    await page.getByRole("link", { name: "Savings" }).click();
    await page.getByRole("heading", { name: "Savings", level: 1 }).waitFor();
    await check(page, "savings");
  });

  it("creates an API key, shows it once, and the key works on the pricing API from the prices page", async () => {
    const page = owner;
    await page.goto(`${stack.consoleUrl}/settings/api-keys`);
    await page.getByLabel("Name").fill("console e2e");
    await page.getByLabel("Role").selectOption("viewer");
    await page.locator("fieldset input[type=checkbox]").first().check();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-key").textContent()) ?? "";
    expect(key).toMatch(/^bl_/);
    await page.getByRole("cell", { name: "console e2e", exact: true }).waitFor();
    await check(page, "settings-api-keys");
    await page.reload();
    await page.getByRole("cell", { name: "console e2e", exact: true }).waitFor();
    expect(await page.getByTestId("new-key").count()).toBe(0);

    const account = await stackClient(stack, { apiKey: key }).pricing.getAccount();
    await page.goto(`${stack.consoleUrl}/prices`);
    await check(page, "prices-key");
    await page.getByRole("textbox", { name: "API key" }).fill(key);
    await page.getByRole("button", { name: "Use key" }).click();
    expect(await page.getByTestId("pricing-account").textContent()).toBe(account.account_id);
    await page.getByRole("heading", { name: "Model prices" }).waitFor();
    await check(page, "prices");

    // With an admin key: register a model price, change it (the earlier version stays in the history), close it.
    const admin = await stackClient(stack, { token: ownerToken }).main.createApiKey({ body: { name: "prices admin", role: "admin" } });
    const adminPricing = stackClient(stack, { apiKey: admin.key }).pricing;
    await until(
      () =>
        adminPricing.getAccount().then(
          () => true,
          () => false,
        ),
      (accepted) => accepted,
      30_000,
    );
    await page.getByRole("button", { name: "Use another key" }).click();
    await page.getByRole("textbox", { name: "API key" }).fill(admin.key);
    await page.getByRole("button", { name: "Use key" }).click();
    const form = page.getByRole("form", { name: "Register a model price" });
    for (const price of ["2.5", "2"]) {
      await form.getByLabel("Provider").fill("openai");
      await form.getByLabel("Model").fill("gpt-console");
      await form.getByLabel("Price per million tokens").fill(price);
      await form.getByRole("button", { name: "Register price" }).click();
      await page.getByRole("cell", { name: `${price} USD / M tokens` }).waitFor();
    }
    await page.getByText("earlier version", { exact: true }).waitFor();
    await check(page, "prices-registered");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Close openai · gpt-console · input" }).click();
    await until(
      () => page.getByRole("button", { name: "Close openai · gpt-console · input" }).count(),
      (n) => n === 0,
    );
    const models = await adminPricing.listModels({ query: { model: "gpt-console", include_closed: "true" } });
    expect(models.entries.map((m) => [m.unit_price_per_mtok, m.effective_to === null]).sort()).toEqual([
      [2, false],
      [2.5, false],
    ]);
  });

  it("invites a viewer, who signs in, joins, and is offered no write action", async () => {
    const page = owner;
    await page.goto(`${stack.consoleUrl}/settings/users`);
    const invite = page.getByRole("form", { name: "Invite a user" });
    await invite.getByLabel("E-mail address").fill(VIEWER);
    await invite.getByLabel("Role").selectOption("viewer");
    await invite.locator("fieldset input[type=checkbox]").first().check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText(`${VIEWER} as viewer · pending`).waitFor();
    await check(page, "settings-users");
    await page.goto(`${stack.consoleUrl}/settings/organization`);
    await page.getByRole("button", { name: "Save settings" }).waitFor();
    await check(page, "settings-organization");

    const viewer = await signIn(VIEWER);
    await viewer.page.waitForURL(/\/welcome$/);
    await viewer.page.getByRole("button", { name: "Join Console Corp" }).click();
    await viewer.page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(await viewer.page.getByText(`${VIEWER} · viewer`).count()).toBe(1);

    await viewer.page.goto(`${stack.consoleUrl}/recommendations`);
    await viewer.page.getByRole("table").waitFor();
    expect(await viewer.page.getByRole("button", { name: "Analyze now" }).count()).toBe(0);
    await viewer.page.goto(`${stack.consoleUrl}/settings`);
    await viewer.page.waitForURL(/\/settings\/users$/);
    await viewer.page.getByRole("table").waitFor();
    expect(await viewer.page.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Send invitation" }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: /Deactivate|Reactivate/ }).count()).toBe(0);
    expect(await viewer.page.getByRole("combobox", { name: /Role of/ }).count()).toBe(0);
    await check(viewer.page, "viewer-settings-users");
    await viewer.page.goto(`${stack.consoleUrl}/settings/tenants`);
    await viewer.page.getByRole("heading", { name: "Tenants" }).waitFor();
    expect(await viewer.page.getByRole("button", { name: /Create tenant|Archive/ }).count()).toBe(0);
    await viewer.page.goto(`${stack.consoleUrl}/settings/organization`);
    await viewer.page.getByText("Only owners and admins change settings.").waitFor();
    expect(await viewer.page.getByRole("button", { name: "Save settings" }).count()).toBe(0);
    await viewer.context.close();
  });

  it("shows the organization's month-to-date spend exactly as the API sums it, with unpriced lines called out and a FOCUS export", async () => {
    const { main } = stackClient(stack, { token: ownerToken });
    const org = (await main.getMe()).organization.id;
    // The demo's bill: the Production sub-account allocated to the journey's tenant, the others unallocated.
    const rules = await main.putAllocationRules({ params: { org_id: org }, body: { rules: [{ tenant_id: tenant, sub_account_ids: ["111111111111"] }] } });
    expect(rules.rules).toHaveLength(1);
    const imported = await main.createSpendImport.reply({
      params: { org_id: org },
      query: { file_name: "demo-aws-focus-1.2.csv" },
      body: demoFocusCsv(),
      contentType: "text/csv",
    });
    expect(imported.status).toBe(201);
    // A model usage line without a pricing label: stored unpriced, with its reason.
    const usage = await main.ingestUsage({
      tenant,
      body: { usage: [{ resource_id: "gpt-unlabelled", kind: "model", timestamp: new Date().toISOString(), quantities: { input: 1000 } }] },
    });
    expect(usage.unpriced).toBe(1);

    const report = await main.getOrganizationSpend({ params: { org_id: org } });
    const total = report.totals.find((t) => t.currency === "USD");
    expect(Number(total?.cost)).toBeGreaterThan(0);
    expect(report.unpriced.by_reason).toEqual({ no_pricing_label: 1 });

    const page = owner;
    await page.goto(`${stack.consoleUrl}/spend`);
    await page.getByTestId("spend-total").first().waitFor();
    expect(await page.getByTestId("spend-total").locator("dd").textContent()).toBe(usd(Number(total?.cost)));
    expect(await page.getByTestId("spend-total").locator("dd").getAttribute("title")).toBe(`${total?.cost} USD`);
    await page.getByRole("heading", { name: "Unpriced usage" }).waitFor();
    expect(await page.getByText("no_pricing_label").count()).toBe(1);
    expect(await page.getByRole("button", { name: /Reprice/ }).count()).toBe(1);

    // Grouped by service, then by tenant: the URL holds the view; the table lists the API's rows.
    await page.getByLabel("Group by (chart stacks by it)").selectOption("service_name");
    await page.waitForURL(/group_by=service_name/);
    await page.getByLabel("Then by").selectOption("tenant");
    await page.waitForURL(/group_by=service_name%2Ctenant/);
    const grouped = await main.getOrganizationSpend({ params: { org_id: org }, query: { granularity: "none", group_by: ["service_name", "tenant"] } });
    expect(
      await until(
        () => page.locator("section[aria-label='Spend by group'] tbody tr").count(),
        (n) => n === grouped.rows.length,
      ),
    ).toBe(grouped.rows.length);
    expect(await page.getByRole("cell", { name: "Unallocated" }).count()).toBeGreaterThan(0);
    await page.getByRole("img", { name: /Spend per period/ }).waitFor();
    await check(page, "spend");

    // The export: fetched with the bearer token and saved as a file.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download FOCUS CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^focus-\d{4}-\d{2}-01-.*\.csv$/);
    const csv = fs.readFileSync((await download.path()) ?? "", "utf8");
    expect(csv.split("\n")[0]).toContain("BilledCost");
    expect(csv.trim().split("\n").length).toBeGreaterThan(10);

    // The overview's month to date is the tenant's (its share of the bill), as the API sums it.
    const tenantSpend = await main.getTenantSpend({ tenant, query: { granularity: "none" } });
    await page.goto(`${stack.consoleUrl}/`);
    await page.getByTestId("spend-mtd").waitFor();
    expect(await page.getByTestId("spend-mtd").locator("dd").textContent()).toBe(usd(Number(tenantSpend.totals[0].cost)));
    await page.getByRole("img", { name: /Spend by day this month/ }).waitFor();
    // An owner also sees the organization's split by tenant, the unallocated lines included.
    const byTenant = await main.getOrganizationSpend({ params: { org_id: org }, query: { granularity: "none", group_by: ["tenant"] } });
    await page.getByTestId("top-tenant").first().waitFor();
    expect(await page.getByTestId("top-tenant").allTextContents()).toEqual(
      byTenant.rows.map((row) => `${row.group.tenant === null ? "Unallocated" : "Default"} ${usd(Number(row.cost))}`),
    );
    await check(page, "overview-spend");

    // The allocation rules as the import used them, and the import itself.
    await page.goto(`${stack.consoleUrl}/settings/allocation`);
    expect(await page.getByLabel("Sub-account ids").inputValue()).toBe("111111111111");
    await page.getByText("demo-aws-focus-1.2.csv", { exact: true }).waitFor();
    await check(page, "settings-allocation");
  });

  it("creates and edits a budget from the console, sees its burn bar, and gives feedback on an anomaly", async () => {
    const page = owner;
    await page.goto(`${stack.consoleUrl}/budgets`);
    await page.getByRole("button", { name: "New budget" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Console monthly");
    await dialog.getByLabel("Amount", { exact: true }).fill("500");
    await check(page, "budget-dialog");
    await dialog.getByRole("button", { name: "Create budget" }).click();
    const card = page.getByTestId("budget").filter({ hasText: "Console monthly" });
    await card.waitFor();
    const budgets = await stackClient(stack, { token: ownerToken }).main.listBudgets({ tenant });
    const budget = budgets.items.find((b) => b.name === "Console monthly");
    expect(budget).toMatchObject({ amount: "500" });
    expect(await card.textContent()).toContain(`${usd(Number(budget?.status.spent))} spent of ${usd(500)}`);
    const bar = await card.getByRole("img", { name: /^Console monthly: / }).getAttribute("aria-label");
    expect(bar).toMatch(/spent [\d.]+ % of the budget, forecast [\d.]+ %/);
    // The demo's Production spend this month is far over 500 USD.
    expect(budget?.status.state).toBe("exceeded");
    expect(await card.getByText("Over budget").count()).toBe(1);

    await card.getByRole("button", { name: "Edit Console monthly" }).click();
    await dialog.getByLabel("Amount", { exact: true }).fill("1000000");
    await dialog.getByRole("button", { name: "Save budget" }).click();
    await card.getByText(`spent of ${usd(1_000_000)}`, { exact: false }).waitFor();
    expect(await card.getByText("On track").count()).toBe(1);

    // The anomaly of the demo's bill (an EC2 spike 3 days ago), detected on demand, then marked planned.
    // The detection's answer first ("N new"): the list it refreshes is the one to answer on.
    await page.getByRole("button", { name: "Detect now" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /^\d+ new/ })
      .waitFor();
    await page.getByRole("cell", { name: "Amazon EC2" }).first().waitFor();
    const planned = page.getByRole("button", { name: "Planned activity" }).first();
    await planned.click();
    await until(
      () => planned.getAttribute("aria-pressed"),
      (v) => v === "true",
    );
    const anomalies = await until(
      () => stackClient(stack, { token: ownerToken }).main.listAnomalies({ tenant }),
      (list) => list.items.some((a) => a.feedback === "planned_activity"),
    );
    expect(anomalies.items.map((a) => a.feedback)).toContain("planned_activity");
    await check(page, "budgets");

    // A viewer sees the budgets and anomalies, and no write action.
    const viewer = await signIn(VIEWER);
    await viewer.page.getByRole("heading", { name: "Overview" }).waitFor();
    await viewer.page.goto(`${stack.consoleUrl}/budgets`);
    await viewer.page.getByTestId("budget").first().waitFor();
    await viewer.page.getByRole("cell", { name: "Amazon EC2" }).first().waitFor();
    expect(await viewer.page.getByRole("button", { name: /New budget|Edit|Delete|Detect now|Planned|Real problem/ }).count()).toBe(0);
    await check(viewer.page, "viewer-budgets");
    await viewer.page.goto(`${stack.consoleUrl}/spend`);
    await viewer.page.getByTestId("spend-total").first().waitFor();
    expect(await viewer.page.getByRole("button", { name: /Reprice/ }).count()).toBe(0);
    await viewer.context.close();
  });

  it("shows the demo bill's Savings Plan on the commitments page, as the API computes it", async () => {
    const page = owner;
    const orgId = (await stackClient(stack, { token: ownerToken }).main.getMe()).organization.id;
    await page.goto(`${stack.consoleUrl}/commitments`);
    const table = page.getByRole("table", { name: /^Commitments, / });
    await table.waitFor();
    const shown = await page.getByRole("meter").first().getAttribute("aria-label");
    const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1));
    const start = new Date(end.getTime() - 31 * 86_400_000);
    const report = await stackClient(stack, { token: ownerToken }).main.listCommitments({
      params: { org_id: orgId },
      query: { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) },
    });
    expect(shown).toBe(`Utilization ${report.items[0]?.utilization_percent} %`);
    await page.getByTestId("coverage-total").waitFor();
    await check(page, "commitments");
  });

  it("lists the demo's dimensions and previews the team dimension's splits as the API computes them", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const orgId = (await main.getMe()).organization.id;
    // The demo's two dimensions (scripts/demo/dimensions.mjs), over the demo bill imported above.
    const script = `import { DEMO_DIMENSIONS } from ${JSON.stringify(path.join(ROOT, "scripts/demo/dimensions.mjs"))}; process.stdout.write(JSON.stringify(DEMO_DIMENSIONS));`;
    const dimensions = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    for (const [key, body] of Object.entries(dimensions)) await main.putDimension({ params: { org_id: orgId, key }, body: body as PutDimensionRequest });
    await page.goto(`${stack.consoleUrl}/settings/dimensions`);
    await page.getByRole("cell", { name: "cost_center", exact: true }).waitFor();
    await page.getByRole("button", { name: "Edit team" }).click();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From", { exact: true }).fill(day(-30));
    await page.getByLabel(/^To/).fill(day(1));
    await page.getByRole("button", { name: "Preview (saves nothing)" }).click();
    const preview = page.getByTestId("dimension-preview");
    await preview.waitFor();
    const team = await main.getDimension({ params: { org_id: orgId, key: "team" }, query: {} });
    const expected = await main.previewDimension({
      params: { org_id: orgId, key: "team" },
      query: { start: day(-30), end: day(1) },
      body: {
        name: team.name,
        rules: team.rules,
        default_value: null,
        effective_from: team.effective_from,
        splits: team.splits.map(({ id: _id, ...split }) => split),
      },
    });
    expect(await preview.textContent()).toContain(`${expected.coverage.percent} % of the cost is allocated`);
    await check(page, "dimensions");
  });

  it("groups the Spend page by the team dimension, shared costs split then direct, each row as the API computes it", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const orgId = (await main.getMe()).organization.id;
    // The journey above stored the demo's dimensions: the service applies them to the ledger in the background.
    await until(
      () => main.getDimension({ params: { org_id: orgId, key: "team" }, query: {} }),
      (team) => team.status === "applied",
      120_000,
    );

    // The last 30 days (the demo bill's days end yesterday: the month to date holds none on the 1st), by team.
    await page.goto(`${stack.consoleUrl}/spend`);
    await page.getByRole("combobox", { name: /^Range/ }).selectOption("last-30");
    await page.waitForURL(/preset=last-30/);
    await page.getByLabel("Group by (chart stacks by it)").selectOption("dimension:team");
    await page.waitForURL(/group_by=dimension%3Ateam/);
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 29)).toISOString().slice(0, 10);
    const table = page.locator("section[aria-label='Spend by group']");
    /** Each row as the table shows it: the team, then cost, direct, shared in and shared out (text and exact amount in the title), then the currency. */
    const shown = () =>
      table
        .locator("tbody tr")
        .evaluateAll((rows: any[]) => rows.map((row) => [...row.querySelectorAll("td")].map((td: any) => [td.textContent, td.getAttribute("title")])));
    const money = (amount: string | undefined, currency: string) =>
      [new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(amount)), amount ?? null] as const;
    const expectedOf = (report: SpendReport) =>
      report.rows.map((row) => [
        [row.group["dimension:team"] ?? "Unallocated", null],
        money(row.cost, row.currency),
        money(row.direct_cost, row.currency),
        money(row.shared_in, row.currency),
        money(row.shared_out, row.currency),
        [row.currency, null],
      ]);
    /** Waits for the table to show `report`'s rows (it refetches on each change of the view), then compares them (a diff when they never match). */
    const showsRows = async (report: SpendReport) => {
      const expected = JSON.stringify(expectedOf(report));
      const rows = await until(shown, (value) => JSON.stringify(value) === expected, 30_000).catch(() => shown());
      expect(rows).toEqual(expectedOf(report));
    };

    const split = await main.getOrganizationSpend({ params: { org_id: orgId }, query: { start, granularity: "none", group_by: ["dimension:team"] } });
    // The demo's splits move the platform team's and the support plan's cost to the other teams.
    expect(split.rows.some((row) => Number(row.shared_in) > 0)).toBe(true);
    await showsRows(split);
    const headers = await table.locator("thead th").allTextContents();
    expect(headers[0]).toMatch(/team/i);
    expect(headers.slice(1)).toEqual(["Cost", "Direct", "Shared in", "Shared out", "Currency"]);

    // Each value's own lines only: no cost moves.
    await page.getByRole("combobox", { name: /^Shared costs/ }).selectOption("direct");
    await page.waitForURL(/allocation=direct/);
    const direct = await main.getOrganizationSpend({
      params: { org_id: orgId },
      query: { start, granularity: "none", group_by: ["dimension:team"], allocation: "direct" },
    });
    expect(direct.rows.every((row) => Number(row.shared_in) === 0 && Number(row.shared_out) === 0)).toBe(true);
    expect(direct.rows.map((row) => row.group["dimension:team"])).toContain("platform");
    await showsRows(direct);
    await check(page, "spend-by-dimension");
  });

  it("divides the Spend page's cost by the demo's orders, each team by its own orders, as the API computes it", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const orgId = (await main.getMe()).organization.id;
    // The demo's business metric (scripts/demo/metrics.mjs): orders labelled by team, over the demo bill's days.
    const script = `import { ORDERS, demoOrderValues } from ${JSON.stringify(path.join(ROOT, "scripts/demo/metrics.mjs"))}; process.stdout.write(JSON.stringify({ metric: ORDERS, values: demoOrderValues(Date.now()) }));`;
    const demo = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
    await main.putBusinessMetric({ params: { org_id: orgId, name: "orders" }, body: demo.metric });
    await main.postBusinessMetricValues({
      params: { org_id: orgId, name: "orders" },
      body: JSON.stringify({ mode: "replace", values: demo.values }),
      contentType: "application/json",
    });

    // The last 30 days by team (the journey above applied the dimension), then Cost per orders.
    await page.goto(`${stack.consoleUrl}/spend?preset=last-30&group_by=dimension%3Ateam`);
    await page.getByRole("combobox", { name: /^Cost per/ }).selectOption("orders");
    await page.waitForURL(/per=orders/);
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - 29)).toISOString().slice(0, 10);
    const report = await main.getOrganizationSpend({
      params: { org_id: orgId },
      query: { start, granularity: "none", group_by: ["dimension:team"], per: "orders" },
    });
    expect(report.per?.labelled_by).toBe("dimension:team");
    const row = report.rows.find((r) => r.unit_cost !== null && r.unit_cost !== undefined);
    const team = row?.group["dimension:team"] ?? "";
    expect(team).not.toBe("");
    const table = page.locator("section[aria-label='Spend by group']");
    const cell = table.locator("tbody tr", { has: page.getByRole("cell", { name: team, exact: true }) }).getByTestId("unit-cost");
    // The exact unit cost in the cell's title, as the API answers it.
    const title = await until(
      () => cell.getAttribute("title"),
      (value) => value === row?.unit_cost,
      30_000,
    ).catch(() => cell.getAttribute("title"));
    expect(title).toBe(row?.unit_cost);
    expect(await page.getByTestId("per-note").textContent()).toContain("labelled with its own Team value");
    await page.getByTestId("unit-cost-chart").waitFor();
    await check(page, "spend-unit-cost");
  });

  it("lists the demo's orders on Settings > Business metrics, with its values, and shows a bad CSV row's line and column, storing nothing", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const orgId = (await main.getMe()).organization.id;
    await page.goto(`${stack.consoleUrl}/settings/business-metrics`);
    // The dimension's name comes with the dimensions' own answer, which may land after the metrics':
    // until then the row names the dimension by its key.
    await page.getByTestId("business-metric").filter({ hasText: "orders" }).filter({ hasText: "Team (dimension)" }).waitFor();
    // The values of the last 30 days (the demo's days end yesterday), as the API answers them.
    const values = page.getByRole("table", { name: /^Amounts of orders/ });
    await values.waitFor();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const stored = await main.listBusinessMetricValues({ params: { org_id: orgId, name: "orders" }, query: { start: day(-30), end: day(1) } });
    expect(await values.locator("tbody tr").count()).toBe(stored.rows.length);

    await page.getByLabel(/^Or paste the rows/).fill(`date,amount,label\n${day(-1)},5,product\n${day(-1)},-2,product\n`);
    await page.getByRole("button", { name: "Upload values" }).click();
    expect(await page.getByTestId("upload-error").textContent()).toContain("line 3, column amount");
    const after = await main.listBusinessMetricValues({ params: { org_id: orgId, name: "orders" }, query: { start: day(-30), end: day(1) } });
    expect(after.rows).toEqual(stored.rows);
    await check(page, "business-metrics");
  });

  it("creates last month's statement by team for the demo organization: it reconciles to the bill and a recipient's total is the API's", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const orgId = (await main.getMe()).organization.id;
    // The dimension journeys above stored the demo's team dimension; statements read it once applied.
    await until(
      () => main.getDimension({ params: { org_id: orgId, key: "team" }, query: {} }),
      (team) => team.status === "applied",
      120_000,
    );
    await page.goto(`${stack.consoleUrl}/`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Statements" }).click();
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    expect(await page.getByLabel("Period (UTC month)").inputValue()).toBe(lastMonth);
    await page.getByLabel(/^By/).selectOption("dimension:team");
    await page.getByRole("button", { name: "Create statement" }).click();
    const created = page.getByTestId("statement-created");
    await created.waitFor();
    const made = (await main.listStatements({ params: { org_id: orgId } })).items[0];
    expect(made).toMatchObject({ period: lastMonth, by: "dimension:team", metric: "effective_cost", status: "draft" });
    expect(made?.reconciliation.difference).toBe("0");
    await created.getByRole("link", { name: made?.number ?? "" }).click();
    await page.getByTestId("reconciled").waitFor();
    expect(await page.getByTestId("difference").locator("span").getAttribute("title")).toBe(`0 ${made?.currency}`);
    await check(page, "statement");

    const recipient = made?.recipients.find((r) => Number(r.total) !== 0) ?? made?.recipients[0];
    expect(recipient).toBeDefined();
    await page.getByRole("link", { name: recipient?.value ?? "", exact: true }).click();
    const total = page.getByTestId("recipient-total");
    await total.waitFor();
    const expected = await main.getRecipientStatement({ params: { org_id: orgId, id: made?.id ?? "", value: recipient?.value ?? "" } });
    expect(expected.total).toBe(recipient?.total);
    expect(await total.locator("span").getAttribute("title")).toBe(`${expected.total} ${expected.currency}`);
    await check(page, "statement-recipient");
  });

  it("shows a cluster's cost by namespace on the Kubernetes page, as the API allocates it", async () => {
    const page = owner;
    const { main } = stackClient(stack, { token: ownerToken });
    const node = (resource_id: string) => ({
      resource_id,
      resource_type: "kubernetes_node" as const,
      provider: "aws",
      region: "us-east-1",
      instance_type: "m5.xlarge",
      cluster: "e2e",
      node_pool: "general",
    });
    await main.upsertResources({ tenant, body: { resources: [node("e2e-node-1"), node("e2e-node-2")] } });
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const samples = [1, 2, 3].flatMap((h) =>
      ["web", "batch"].map((namespace, i) => ({
        cluster: "e2e",
        namespace,
        pod: `${namespace}-0`,
        node: `e2e-node-${i + 1}`,
        timestamp: new Date(hour - h * 3_600_000).toISOString(),
        cpu_request_cores: 1,
        memory_request_gb: 4,
        cpu_usage_cores: 0.5,
        memory_usage_gb: 2,
      })),
    );
    await main.ingestPods({ tenant, body: { samples } });
    await page.goto(`${stack.consoleUrl}/kubernetes`);
    const total = page.getByTestId("k8s-total");
    await total.waitFor();
    await page.getByRole("cell", { name: "web", exact: true }).first().waitFor();
    const caption = (await page.locator("caption", { hasText: "Cost by namespace from" }).textContent()) ?? "";
    const [, start, end] = /from (\S+) to (\S+)/.exec(caption) ?? [];
    const api = await main.getAllocation({ tenant, query: { start, end, aggregate: "namespace" } });
    expect(await total.textContent()).toBe(usd(Number(api.totals.total_cost)));
    await check(page, "kubernetes");
  });

  it("registers a webhook (secret shown once), sends a test ping and shows it delivered in the log, then deletes it", async () => {
    const received: { signature: string | undefined; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push({ signature: req.headers["webhook-signature"] as string | undefined, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    try {
      const page = owner;
      await page.goto(`${stack.consoleUrl}/settings/webhooks`);
      await page.getByLabel("Receiver URL (https)").fill(url);
      await page.getByLabel("Description").fill("console e2e");
      await page.getByRole("button", { name: "Register webhook" }).click();
      const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
      expect(secret).toMatch(/^whsec_/);
      const card = page.getByTestId("webhook").filter({ hasText: url });
      await card.waitFor();
      await check(page, "settings-webhooks");
      await card.getByRole("button", { name: `Send test ping to ${url}` }).click();
      await card.getByRole("table").waitFor();
      expect(
        await until(
          async () => (await card.getByTestId("delivery-status").allTextContents()).join(),
          (text) => text === "delivered",
          20_000,
        ),
      ).toBe("delivered");
      expect(received.length).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(received[0].body)).toMatchObject({ type: "ping" });
      expect(received[0].signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      await page.reload();
      await card.waitFor();
      expect(await page.getByTestId("webhook-secret").count()).toBe(0);
      page.once("dialog", (dialog) => void dialog.accept());
      await card.getByRole("button", { name: `Delete ${url}` }).click();
      await page.getByText("No webhook yet.").waitFor();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("creates a tenant and switches to it from the header", async () => {
    const page = owner;
    await page.goto(`${stack.consoleUrl}/settings/tenants`);
    await page.getByLabel("Name").fill("Staging");
    await page.getByRole("button", { name: "Create tenant" }).click();
    await page.locator("li strong", { hasText: "Staging" }).waitFor();
    await check(page, "settings-tenants");
    await page.goto(`${stack.consoleUrl}/`);
    await page.getByTestId("analyzed").waitFor();
    expect(await page.getByTestId("analyzed").locator("dd").textContent()).not.toBe("0 / 0");
    await page.getByLabel("Tenant").selectOption({ label: "Staging" });
    await page.getByRole("heading", { name: /Right-sizing, virtual machines of Staging/ }).waitFor();
    expect(await page.getByTestId("analyzed").locator("dd").textContent()).toBe("0 / 0");
  });

  it("keeps its initial JavaScript small and measures how soon the overview is interactive (bench/results/console.json)", async () => {
    const html = fs.readFileSync(path.join(DIST, "index.html"), "utf8");
    const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    const gzipped = initial.reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length, 0);
    const kb = Math.round((gzipped / 1024) * 10) / 10;
    expect(kb).toBeLessThan(250);

    // Overview of the seeded tenant, signed in (the token in sessionStorage, as after sign-in), cold cache.
    const runs: number[] = [];
    const spendRuns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const context = await newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript((token) => (globalThis as any).sessionStorage.setItem("cloudcost.token", token), ownerToken);
      const page = await context.newPage();
      await page.goto(`${stack.consoleUrl}/`);
      await page.getByTestId("savings-monthly").waitFor();
      runs.push(await page.evaluate(() => Math.round((globalThis as any).performance.getEntriesByName("summary-rendered")[0].startTime)));
      await page.getByTestId("spend-mtd").waitFor();
      spendRuns.push(await page.evaluate(() => Math.round((globalThis as any).performance.getEntriesByName("spend-rendered")[0].startTime)));
      await context.close();
    }
    runs.sort((x, y) => x - y);
    spendRuns.sort((x, y) => x - y);
    const median = runs[Math.floor(runs.length / 2)];
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(
      RESULTS,
      `${JSON.stringify(
        {
          initial_js_gzip_kb: kb,
          initial_js_files: initial,
          overview_interactive_ms: { median, runs },
          measured:
            "headless Chromium through the nginx gateway, cold browser context; time from navigation start to the summary cards rendered with API data (performance.mark in the page)",
          overview_interactive_target_ms: 1500,
          overview_interactive_met: median < 1500,
          overview_spend_rendered_ms: { median: spendRuns[Math.floor(spendRuns.length / 2)], runs: spendRuns },
          a11y_pages: Object.keys(a11y).length,
        },
        null,
        2,
      )}\n`,
    );
    // The time is a figure for the benchmark report (target 1.5 s on a quiet machine), not a test: the
    // suite runs beside the others on a busy machine, where a bound on it failed a CI run for no defect.
    expect(runs.every((ms) => ms > 0)).toBe(true);
  });

  it("reports no Content-Security-Policy violation on any page it opened (the console generates no code at run time)", () => {
    expect(cspViolations).toEqual([]);
  });
});
