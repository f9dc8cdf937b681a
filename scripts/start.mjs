#!/usr/bin/env node
// `pnpm start`: runs both services (already built by the start script), each on its own database,
// serves the console (apps/web) on WEB_PORT with the APIs proxied,
// waits until both are ready, loads the demo organization on a first run (scripts/demo/), and
// prints where they listen. Ctrl-C stops both cleanly.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { firstRun } from "./demo/load.mjs";
import { supervise } from "./supervise.mjs";
import { startWebServer } from "./web-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const mainPort = process.env.MAIN_API_PORT || "3000";
const pricingPort = process.env.PRICING_API_PORT || "3001";
const webPort = process.env.WEB_PORT || "3002";
// As the images run them: jemalloc preloaded when the machine has it (docs/deployment.md).
const jemalloc = ["/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
  .map((dir) => path.join(dir, "libjemalloc.so.2"))
  .find((file) => fs.existsSync(file));
// And with each service's Node.js flags (infra/node-flags.json).
const nodeFlags = JSON.parse(fs.readFileSync(path.join(root, "infra/node-flags.json"), "utf8"));
// The services' logs (JSON lines, at LOG_LEVEL) are appended to .data/logs/<service>.log; the
// terminal gets only their warnings and errors, short (scripts/supervise.mjs). LOG_FORMAT=pretty
// writes readable lines instead, and then every line is echoed too.
const logDir = path.join(root, ".data", "logs");
const env = {
  ...(jemalloc ? { LD_PRELOAD: jemalloc } : {}),
  LOG_FORMAT: "json",
  // Local development: webhooks may target a receiver on this machine over plain http.
  WEBHOOK_ALLOW_INSECURE: "1",
  ...process.env,
  MAIN_API_PORT: mainPort,
  PRICING_API_PORT: pricingPort,
  PRICING_API_URL: process.env.PRICING_API_URL || `http://127.0.0.1:${pricingPort}`,
};

// Decided before the main API creates its embedded database: was it empty?
const mainDataDir = path.resolve(root, process.env.MAIN_API_DATA_DIR || ".data/main-api");
const freshMainDb = !process.env.MAIN_API_DATABASE_URL && !(fs.existsSync(mainDataDir) && fs.readdirSync(mainDataDir).length > 0);

const services = [
  { name: "pricing-api", port: pricingPort, entry: "apps/pricing-api/dist/server.js" },
  { name: "main-api", port: mainPort, entry: "apps/main-api/dist/server.js" },
];

const supervisor = supervise(
  services.map((service) => ({ name: service.name, args: [...nodeFlags[service.name], path.join(root, service.entry)] })),
  { cwd: root, env, logDir },
);
const stopping = supervisor.isStopping;

async function waitReady(service, deadline) {
  while (Date.now() < deadline && !stopping()) {
    try {
      const res = await fetch(`http://127.0.0.1:${service.port}/readyz`);
      if (res.ok) return true;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const started = Date.now();
const ready = await Promise.all(services.map((s) => waitReady(s, Date.now() + 120_000)));
if (ready.every(Boolean)) {
  const mainUrl = `http://127.0.0.1:${mainPort}`;
  const pricingUrl = `http://127.0.0.1:${pricingPort}`;
  // The console, with /api/ and /pricing/ proxied to the services as the gateway does.
  const web = await startWebServer({ port: webPort, mainUrl, pricingUrl }).catch((err) => {
    console.error(`[web] not served: ${err.message}`);
    return undefined;
  });
  console.log(`
${web ? `Console: ${web.url}   (sign in with any e-mail address; the demo organization's owner is demo-owner@example.com)\n` : ""}Both services are ready (${((Date.now() - started) / 1000).toFixed(1)} s):
  main API     ${mainUrl}     (docs: ${mainUrl}/docs; health: /healthz, readiness: /readyz)
  pricing API  ${pricingUrl}     (docs: ${pricingUrl}/docs; health: /healthz, readiness: /readyz)
Request logs: ${services.map((s) => path.relative(root, path.join(logDir, `${s.name}.log`))).join(", ")} (only warnings and errors are shown here)
`);
  const demo = await firstRun({ root, env, mainUrl, pricingUrl, freshMainDb, isStopping: stopping });
  if (!stopping()) console.log(`${demo ? `${demo}\n` : ""}Press Ctrl-C to stop both.\n`);
} else if (!stopping()) {
  console.error("The services did not become ready within 120 s; stopping.");
  supervisor.stop(1);
}
