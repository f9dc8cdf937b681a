import type { AddressInfo } from "node:net";
import type { Database } from "@cloudcost/db";
import type { Express } from "express";
import pino from "pino";
import { createApp } from "../apps/main-api/src/app";
import { loadDevIssuerKey, mintDevToken } from "../apps/main-api/src/auth/dev-issuer";
import { buildDeps } from "../apps/main-api/src/compose";
import { type Config, loadConfig } from "../apps/main-api/src/config";
import { startPricingStub } from "../apps/main-api/test/helpers/compute-pricing-stub";

let n = 0;

/** A signed-up organization (development issuer, through the real sign-up endpoint) and the headers of its owner. */
export async function benchCredentials(ctx: { app: Express; config: Config }) {
  n++;
  const email = `bench-${n}-${Date.now()}@bench.test`;
  const token = await mintDevToken(loadDevIssuerKey(ctx.config.auth.devIssuerDir), { email });
  const server = ctx.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/signup/complete`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ company_name: `Bench ${n}`, first_name: "Ada", last_name: "Lovelace" }),
    });
    const body = (await res.json()) as { data: { organization: { id: string }; default_tenant: { id: string } } };
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(body)}`);
    return { headers: { authorization: `Bearer ${token}` }, tenantId: body.data.default_tenant.id, organizationId: body.data.organization.id };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * The main API in-process over `db`, with a stub pricing API and no background analysis or rate limits,
 * listening on a free port of 127.0.0.1 (at `base`); `close` stops the server and the stub and disconnects.
 */
export async function startBenchMainApi(db: Database) {
  const stub = await startPricingStub();
  const config = loadConfig({
    LOG_LEVEL: "silent",
    PRICING_API_URL: stub.url,
    ANALYSIS_INTERVAL_MINUTES: "0",
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_CREDENTIAL: "0",
  });
  const deps = buildDeps({ config, db, logger: pino({ level: "silent" }) });
  const app = createApp(deps);
  const server = app.listen(0, "127.0.0.1");
  server.keepAliveTimeout = 600_000; // the client's pooled socket must survive minutes of SQL between calls
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.close();
    await stub.close();
    await deps.prisma.$disconnect();
  };
  return { config, deps, app, base, close };
}
