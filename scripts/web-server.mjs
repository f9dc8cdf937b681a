#!/usr/bin/env node
// Serves the console's static build (apps/web/dist) with the single-page fallback and its runtime
// /config.json, and, when given upstreams, proxies /api/ to the main API and /pricing/ (prefix
// stripped) to the pricing API as the gateway does. Used by `pnpm start` and by the e2e suite as
// the gateway's console upstream. As a command: WEB_PORT, WEB_HOST, MAIN_API_URL, PRICING_API_URL.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/web/dist");
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** The console's runtime configuration from the environment: OIDC when a provider is named, else the development sign-in. */
export function consoleConfig(env = process.env) {
  if (env.WEB_OIDC_AUTHORITY && env.WEB_OIDC_CLIENT_ID) {
    return {
      auth: {
        mode: "oidc",
        authority: env.WEB_OIDC_AUTHORITY,
        client_id: env.WEB_OIDC_CLIENT_ID,
        ...(env.WEB_OIDC_SCOPE ? { scope: env.WEB_OIDC_SCOPE } : {}),
        use_id_token: env.WEB_OIDC_USE_ID_TOKEN === "true",
      },
    };
  }
  return { auth: { mode: "dev" } };
}

export function startWebServer({ port = 3002, host = "127.0.0.1", mainUrl, pricingUrl, config = consoleConfig(), dist = DIST } = {}) {
  if (!fs.existsSync(path.join(dist, "index.html"))) throw new Error(`${dist}/index.html is missing: build the console first (pnpm build)`);
  const configBody = JSON.stringify(config);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://console");
    if (mainUrl && url.pathname.startsWith("/api/")) return proxy(req, res, mainUrl, req.url);
    if (pricingUrl && url.pathname.startsWith("/pricing/")) return proxy(req, res, pricingUrl, req.url.slice("/pricing".length));
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    if (url.pathname === "/config.json") {
      res.writeHead(200, { "Content-Type": TYPES[".json"], "Cache-Control": "no-store" }).end(configBody);
      return;
    }
    serveFile(res, dist, decodeURIComponent(url.pathname));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port), host, () => {
      const address = server.address();
      const close = () =>
        new Promise((r) => {
          server.close(r);
          // Keep-alive connections (a proxy's pool) would hold the close open.
          server.closeIdleConnections();
        });
      resolve({ url: `http://${host}:${address.port}`, port: address.port, close });
    });
  });
}

function serveFile(res, dist, pathname) {
  const file = path.join(dist, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""));
  const inside = file.startsWith(dist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
  // Any other path is a console route: the application decides (the single-page fallback).
  const target = inside ? file : path.join(dist, "index.html");
  const hashed = inside && pathname.startsWith("/assets/");
  res.writeHead(200, {
    "Content-Type": TYPES[path.extname(target)] ?? "application/octet-stream",
    "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    "X-Content-Type-Options": "nosniff",
    ...(target.endsWith(".html")
      ? { "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'" }
      : {}),
  });
  fs.createReadStream(target).pipe(res);
}

function proxy(req, res, upstream, pathAndQuery) {
  const target = new URL(pathAndQuery, upstream);
  const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
  const upstreamReq = http.request(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host, "x-forwarded-for": forwardedFor } },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  upstreamReq.on("error", () => {
    if (!res.headersSent) res.writeHead(503, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ message: "The service behind the console is unavailable; try again shortly.", status: "error" }));
  });
  req.pipe(upstreamReq);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startWebServer({
    port: process.env.WEB_PORT ?? 3002,
    host: process.env.WEB_HOST ?? "127.0.0.1",
    mainUrl: process.env.MAIN_API_URL,
    pricingUrl: process.env.PRICING_API_URL,
  });
  console.log(`console listening on ${server.url}`);
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
