import http from "node:http";
import type { AddressInfo } from "node:net";
import { startGateway, type Gateway } from "../src/nginx";
import { freePort } from "../src/ports";
import { describeWith } from "../src/requirements";

// The gateway alone, in front of two recording upstreams: routing, prefix stripping, request ids,
// body limits, and JSON answers when an upstream is down.
const describeIfNginx = describeWith("the gateway tests", ["nginx"]);

function recorder(name: string) {
  const seen: { url: string; requestId?: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", requestId: req.headers["x-request-id"] as string | undefined });
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.setHeader("x-request-id", String(req.headers["x-request-id"] ?? ""));
      res.end(JSON.stringify({ upstream: name, url: req.url }));
    });
  });
  return { server, seen };
}

describeIfNginx("gateway", () => {
  const main = recorder("main");
  const pricing = recorder("pricing");
  const web = recorder("web");
  let gateway: Gateway;
  let deadPort: number;

  beforeAll(async () => {
    await new Promise<void>((r) => main.server.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => pricing.server.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => web.server.listen(0, "127.0.0.1", r));
    gateway = await startGateway({
      mainApi: `127.0.0.1:${(main.server.address() as AddressInfo).port}`,
      pricingApi: `127.0.0.1:${(pricing.server.address() as AddressInfo).port}`,
      web: `127.0.0.1:${(web.server.address() as AddressInfo).port}`,
    });
    deadPort = await freePort();
  });
  afterAll(async () => {
    await gateway?.stop();
    main.server.close();
    pricing.server.close();
    web.server.close();
  });

  it("routes /api/ and /.well-known/ to the main API with the path kept", async () => {
    const res = await fetch(`${gateway.url}/api/v1/organizations/org_1/users/usr_1?x=1`);
    expect(await res.json()).toEqual({ upstream: "main", url: "/api/v1/organizations/org_1/users/usr_1?x=1" });
    expect(await (await fetch(`${gateway.url}/.well-known/jwks.json`)).json()).toEqual({ upstream: "main", url: "/.well-known/jwks.json" });
  });

  it("routes /pricing/ to the pricing API with the prefix stripped", async () => {
    expect(await (await fetch(`${gateway.url}/pricing/v1/pricing/compute`, { method: "POST", body: "{}" })).json()).toEqual({
      upstream: "pricing",
      url: "/v1/pricing/compute",
    });
    expect(await (await fetch(`${gateway.url}/pricing/marketplace/providers/models?id=a`)).json()).toEqual({
      upstream: "pricing",
      url: "/marketplace/providers/models?id=a",
    });
  });

  it("never forwards the pricing API's internal endpoints or metrics, whatever the spelling (issue #22, finding 10)", async () => {
    const before = pricing.seen.length;
    const paths = [
      "/pricing/internal/api-keys/abc",
      "/pricing/internal",
      "/pricing/INTERNAL/accounts/a/api-keys",
      "/pricing//internal/api-keys/abc",
      "/pricing/%69nternal/api-keys/abc",
      "/pricing/v1/../internal/api-keys/abc",
      "/pricing/metrics",
      "/pricing/Metrics",
      "/pricing/metrics/",
      "/metrics",
      "/api/../metrics",
    ];
    for (const p of paths) {
      for (const method of ["GET", "PUT", "POST", "DELETE"]) {
        const res = await fetch(`${gateway.url}${p}`, { method, body: method === "GET" ? undefined : "{}" });
        expect({ p, method, status: res.status }).toEqual({ p, method, status: 404 });
        expect(res.headers.get("x-request-id")).toBeTruthy();
        await res.body?.cancel();
      }
    }
    expect(pricing.seen.slice(before)).toEqual([]);
    // Paths that merely start alike still reach the pricing API.
    expect(await (await fetch(`${gateway.url}/pricing/internals-guide`)).json()).toEqual({ upstream: "pricing", url: "/internals-guide" });
  });

  it("passes the client's X-Request-Id through, and makes one when absent", async () => {
    await fetch(`${gateway.url}/api/v1/x`, { headers: { "X-Request-Id": "client-chosen-1" } });
    expect(main.seen.at(-1)?.requestId).toBe("client-chosen-1");
    await fetch(`${gateway.url}/api/v1/y`);
    expect(main.seen.at(-1)?.requestId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("routes every other path to the console, which answers its own routes", async () => {
    expect(await (await fetch(`${gateway.url}/`)).json()).toEqual({ upstream: "web", url: "/" });
    expect(await (await fetch(`${gateway.url}/recommendations?action=DOWNSIZE`)).json()).toEqual({ upstream: "web", url: "/recommendations?action=DOWNSIZE" });
    expect(await (await fetch(`${gateway.url}/config.json`)).json()).toEqual({ upstream: "web", url: "/config.json" });
  });

  it("answers oversized bodies with JSON, and never routes /metrics", async () => {
    const metrics = await fetch(`${gateway.url}/metrics`);
    expect(metrics.status).toBe(404);
    expect(((await metrics.json()) as { error: string }).error).toMatch(/No route/);
    const big = await fetch(`${gateway.url}/api/v1/signup/complete`, { method: "POST", body: "x".repeat(10 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: "The request body is too large.", status: "error" });
  });

  it("answers an upstream that is down with JSON in that API's shape, not nginx's HTML", async () => {
    const down = await startGateway({ mainApi: `127.0.0.1:${deadPort}`, pricingApi: `127.0.0.1:${deadPort}` });
    try {
      const mainDown = await fetch(`${down.url}/api/v1/tenant/compute/recommendations/summary`);
      expect(mainDown.status).toBe(503);
      expect(await mainDown.json()).toEqual({ message: "The main API is unavailable; try again shortly.", status: "error" });
      const market = await fetch(`${down.url}/pricing/marketplace/providers/models`);
      expect([market.status, await market.json()]).toEqual([503, { error: "The pricing API is unavailable; try again shortly." }]);
      const v1 = await fetch(`${down.url}/pricing/v1/pricing/compute`, { method: "POST", body: "{}" });
      expect(v1.status).toBe(503);
      expect(v1.headers.get("content-type")).toMatch(/application\/problem\+json/);
      expect(await v1.json()).toMatchObject({ status: 503, code: "service_unavailable" });
      const consolePage = await fetch(`${down.url}/settings`);
      expect([consolePage.status, await consolePage.text()]).toEqual([503, "The console is unavailable; try again shortly."]);
    } finally {
      await down.stop();
    }
  });
});
