import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import type { ComputePrice, InstanceTypeRow, ProblemDocument } from "@cloudcost/contracts";
import { createComputeCatalogs } from "../../src/compute/catalog-prices";
import { createInternalPricingApi } from "../../src/pricing/internal-client";
import { TEST_SERVICE_TOKEN_SECRET } from "./context";

type Row = Omit<InstanceTypeRow, "usage_type" | "currency" | "operating_system" | "family"> & { provider: string; region: string };

const row = (
  provider: string,
  region: string,
  instance_type: string,
  cpu_cores: number,
  ram_gb: number,
  price_per_hour: number,
  extra: Partial<Row> = {},
): Row => ({ provider, region, instance_type, cpu_cores, ram_gb, price_per_hour, gpu_count: 0, burstable: false, architecture: "x86_64", ...extra });

/** A dozen real-looking on-demand Linux rows (prices as published by the providers). */
export const FIXTURE_CATALOG: Row[] = [
  row("aws", "us-east-1", "t3.micro", 2, 1, 0.0104, { burstable: true }),
  row("aws", "us-east-1", "t3.medium", 2, 4, 0.0416, { burstable: true }),
  row("aws", "us-east-1", "m5.large", 2, 8, 0.096),
  row("aws", "us-east-1", "m5.xlarge", 4, 16, 0.192),
  row("aws", "us-east-1", "m5.2xlarge", 8, 32, 0.384),
  row("aws", "us-east-1", "c5.large", 2, 4, 0.085),
  row("aws", "us-east-1", "c5.xlarge", 4, 8, 0.17),
  row("aws", "us-east-1", "r5.large", 2, 16, 0.126),
  row("aws", "us-east-1", "m6g.large", 2, 8, 0.077, { architecture: "arm64" }),
  row("aws", "us-east-1", "g4dn.xlarge", 4, 16, 0.526, { gpu_count: 1 }),
  row("aws", "us-east-1", "g4dn.2xlarge", 8, 32, 0.752, { gpu_count: 1 }),
  row("azure", "eastus", "Standard_B2s", 2, 4, 0.0416, { burstable: true }),
  row("azure", "eastus", "Standard_D2s_v5", 2, 8, 0.096),
  row("azure", "eastus", "Standard_D4s_v5", 4, 16, 0.192),
  row("gcp", "us-central1", "e2-medium", 2, 4, 0.033503, { burstable: true }),
  row("gcp", "us-central1", "n2-standard-2", 2, 8, 0.097118),
  row("gcp", "us-central1", "n2-standard-4", 4, 16, 0.194236),
];

export type StubMode = "ok" | "error500" | "slow" | "garbage";

export interface PricingStub {
  url: string;
  apiKey: string;
  mode: StubMode;
  requests: { method: string; path: string }[];
  /** Resolves the next time a request arrives (tests of concurrent cycles). */
  nextRequest(): Promise<void>;
  /** Holds every answer until `release()` is called. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

const problem = (status: number, code: string, detail: string): ProblemDocument => ({
  type: `https://docs.example.com/problems/${code}`,
  title: code,
  status,
  detail,
  instance: "/v1/pricing/compute",
  code,
});

function priceOf(item: Record<string, unknown>): ComputePrice | null {
  const found = FIXTURE_CATALOG.find(
    (r) => r.provider === item.provider && r.region === item.region && r.instance_type === item.instance_type && (item.operating_system ?? "linux") === "linux",
  );
  if (!found) return null;
  return {
    provider: found.provider,
    region: found.region,
    service: "compute",
    usage_type: "on_demand",
    operating_system: "linux",
    instance_type: found.instance_type,
    architecture: found.architecture,
    cpu_cores: found.cpu_cores,
    ram_gb: found.ram_gb,
    currency: "USD",
    price_per_hour: found.price_per_hour,
    price_per_month: found.price_per_hour * 730,
    source: "catalog",
  };
}

/** The pricing API's compute endpoints over a fixture catalog, on 127.0.0.1 and an ephemeral port. */
export async function startPricingStub(slowMs = 2000): Promise<PricingStub> {
  const waiters: (() => void)[] = [];
  let held: (() => void)[] | null = null;
  const stub: PricingStub = {
    url: "",
    apiKey: "bl_test_key_for_the_main_api",
    mode: "ok",
    requests: [],
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    hold: () => {
      held = [];
    },
    release: () => {
      const pending = held ?? [];
      held = null;
      for (const fn of pending) fn();
    },
    close: async () => undefined,
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stub");
    // The internal operations on behalf of an account answer like the public ones (service token instead of a key).
    const internal = /^\/internal\/accounts\/[^/]+\/pricing\//.exec(url.pathname);
    if (internal && req.headers.authorization?.startsWith("Bearer ")) {
      url.pathname = `/v1/pricing/${url.pathname.slice(internal[0].length)}`;
      req.headers["x-api-key"] = stub.apiKey;
    }
    stub.requests.push({ method: req.method ?? "", path: url.pathname });
    for (const fn of waiters.splice(0)) fn();
    if (held) await new Promise<void>((resolve) => held!.push(resolve));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": status >= 400 ? "application/problem+json" : "application/json" });
      res.end(JSON.stringify(body));
    };
    if (stub.mode === "slow") await new Promise((resolve) => setTimeout(resolve, slowMs));
    if (stub.mode === "error500") return send(500, problem(500, "internal", "boom"));
    if (stub.mode === "garbage") return send(200, { unexpected: true });
    if (req.headers["x-api-key"] !== stub.apiKey) return send(401, problem(401, "unauthenticated", "bad key"));

    if (req.method === "GET" && url.pathname === "/v1/pricing/compute/instance-types") {
      const q = Object.fromEntries(url.searchParams);
      if (!q.provider || !q.region) return send(400, problem(400, "invalid_request", "provider and region are required"));
      const rows = FIXTURE_CATALOG.filter(
        (r) =>
          r.provider === q.provider &&
          r.region === q.region &&
          (!q.architecture || r.architecture === q.architecture) &&
          (q.operating_system ?? "linux") === "linux" &&
          (q.usage_type ?? "on_demand") === "on_demand",
      ).map(
        ({ provider: _p, region: _r, ...r }): InstanceTypeRow => ({
          ...r,
          family: r.instance_type.split(/[.-]/)[0],
          operating_system: "linux",
          usage_type: "on_demand",
          currency: "USD",
        }),
      );
      return send(200, { instance_types: rows });
    }
    if (req.method === "POST" && url.pathname === "/v1/pricing/compute/batch") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { items: Record<string, unknown>[] };
      const results = body.items.map((item, index) => {
        const price = priceOf(item);
        return price ? { index, price } : { index, problem: problem(404, "price_not_found", "no price") };
      });
      return send(200, { results });
    }
    send(404, problem(404, "not_found", "no such route"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () =>
    new Promise((resolve) => {
      stub.release();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}

/** A URL nothing listens on (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/**
 * The analysis' catalogs over the pricing API (or this stub) at `baseUrl`, through the internal
 * client. The timeout is generous (a loaded machine answers slowly); a test that wants the stub's
 * "slow" mode to time out passes a short one.
 */
export function catalogsAt(baseUrl: string, timeoutMs = 10_000, attempts = 3) {
  const logger = pino({ level: "silent" });
  const api = createInternalPricingApi({ baseUrl, serviceSecret: new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET), logger, timeoutMs, attempts });
  return createComputeCatalogs(api, logger);
}
