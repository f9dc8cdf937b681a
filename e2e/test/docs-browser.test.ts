import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { describeWith, findChromium } from "../src/requirements";
import { startStack, type Stack } from "../src/stack";

// The API reference pages in a real browser (Debian's chromium, driven by playwright-core; no
// browser is ever downloaded): each service's /docs renders its operations with assets served by
// the service itself, also under the gateway's /pricing prefix. Screenshots go to e2e/artifacts/.
const ARTIFACTS = path.resolve(__dirname, "../artifacts");

const describeIfBrowser = describeWith("the docs browser test", ["chromium", "nginx"]);

describeIfBrowser("API reference in a browser", () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    [stack, browser] = await Promise.all([
      startStack(),
      chromium.launch({
        executablePath: findChromium(),
        headless: true,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const pages = () => [
    { name: "main-api", url: `${stack.main.url}/docs`, summary: "One user of an organization" },
    { name: "pricing-api", url: `${stack.pricing.url}/docs`, summary: "Price usage lines without storing them" },
    { name: "pricing-api-via-gateway", url: `${stack.gateway.url}/pricing/docs`, summary: "Price usage lines without storing them" },
  ];

  it.each(["main-api", "pricing-api", "pricing-api-via-gateway"])("%s: /docs lists the operations", async (name) => {
    const target = pages().find((p) => p.name === name)!;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("requestfailed", (req) => problems.push(`failed: ${req.url()} ${req.failure()?.errorText}`));
    // The browser's own favicon probe (at the origin's root) is not the page's doing.
    const byPage = (url: string) => new URL(url).pathname !== "/favicon.ico";
    page.on("response", (res) => {
      if (res.status() >= 400 && byPage(res.url())) problems.push(`${res.status()}: ${res.url()}`);
    });
    try {
      const response = await page.goto(target.url, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      await page.locator(".opblock").first().waitFor({ timeout: 30_000 });
      expect(await page.locator(".opblock").count()).toBeGreaterThan(5);
      await expect(page.getByText(target.summary, { exact: true }).first().isVisible()).resolves.toBe(true);
      // Every request of the page stayed on the origin it was opened from (no CDN, prefix kept).
      const origin = new URL(target.url).origin;
      const resources = (await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name))).filter(byPage);
      expect(resources.filter((url) => !url.startsWith(origin))).toEqual([]);
      if (name.endsWith("via-gateway")) expect(resources.filter((url) => !new URL(url).pathname.startsWith("/pricing/"))).toEqual([]);
      expect(problems).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `docs-${name}.png`), fullPage: false });
    } finally {
      await page.close();
    }
  });
});
