import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { describeWith, findChromium } from "../src/requirements";

// The console's build (apps/web/dist) in headless Chromium under the Content-Security-Policy it is
// served with (scripts/web-server.mjs sends the gateway's policy: no 'unsafe-eval'). No page may
// report a violation: a library that generates code at run time (zod 4 compiles parsers with
// `new Function` and probes for it on the first parse) trips the policy even where it catches the
// refusal. The services stand behind a stub that answers every API call 401, as for a visitor not
// signed in; the full console suite (console.test.ts) checks the signed-in pages the same way.

const WEB_SERVER = path.resolve(__dirname, "../../scripts/web-server.mjs");
const DIST = path.resolve(__dirname, "../../apps/web/dist");
const describeIfBrowser = describeWith("the console Content-Security-Policy test", ["chromium"]);

describeIfBrowser("console under its Content-Security-Policy", () => {
  let browser: Browser;
  let web: ChildProcess;
  let port: number;
  const api = http.createServer((req, res) => {
    req.resume();
    res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ status: "error", message: "Sign in first." }));
  });

  beforeAll(async () => {
    if (!fs.existsSync(path.join(DIST, "index.html"))) throw new Error(`${DIST} has no build: run pnpm --filter @cloudcost/web build first`);
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    const upstream = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    const script = `import { startWebServer } from ${JSON.stringify(WEB_SERVER)};
      const server = await startWebServer({ port: 0, mainUrl: ${JSON.stringify(upstream)}, pricingUrl: ${JSON.stringify(upstream)}, config: { auth: { mode: "dev" } } });
      console.log("PORT " + server.port);`;
    web = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    [port, browser] = await Promise.all([
      new Promise<number>((resolve, reject) => {
        web.stdout?.on("data", (d) => {
          const m = /PORT (\d+)/.exec(String(d));
          if (m) resolve(Number(m[1]));
        });
        web.once("exit", (code) => reject(new Error(`the web server exited (code ${code}) before listening`)));
      }),
      chromium.launch({ executablePath: findChromium(), headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    if (web && web.exitCode === null && web.signalCode === null) await new Promise((resolve) => web.once("exit", resolve).kill("SIGTERM"));
    api.close();
  });

  it("renders the sign-in page without any violation reported (event or console)", async () => {
    const context = await browser.newContext();
    const violations: string[] = [];
    await context.exposeBinding("__reportCspViolation", (_source, text: string) => {
      violations.push(text);
    });
    await context.addInitScript(() => {
      const page = globalThis as unknown as {
        document: { addEventListener(type: string, listener: (e: Record<string, unknown>) => void): void };
        __reportCspViolation(text: string): void;
      };
      page.document.addEventListener("securitypolicyviolation", (e) =>
        page.__reportCspViolation(`${e.violatedDirective} blocked in ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    context.on("console", (message) => {
      if (/Content Security Policy|Content-Security-Policy|unsafe-eval|'script-src'/i.test(message.text())) violations.push(`console: ${message.text()}`);
    });
    const page = await context.newPage();
    const answer = await page.goto(`http://127.0.0.1:${port}/`);
    const policy = answer?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).not.toMatch(/unsafe-eval/);
    // Not signed in: the console sends the visitor to its sign-in form (the app ran, and parsed its configuration and the API's answer).
    await page.waitForURL(/\/sign-in$/);
    await page.getByLabel("E-mail address").waitFor();
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
    await context.close();
  });
});
