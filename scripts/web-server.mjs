#!/usr/bin/env node
// Serves the console's static build (apps/web/dist) with the single-page fallback and its runtime
// /config.json, and, when given upstreams, proxies /api/ to the main API and /pricing/ (prefix
// stripped) to the pricing API as the gateway does: to those two services only, with the gateway's
// 404s, the development sign-in only for a loopback Host, and a malformed request a 400, never the
// end of the process (it runs inside `pnpm start`'s launcher). Used by `pnpm start` and by the e2e
// suite as the gateway's console upstream. As a command: WEB_PORT, WEB_HOST, MAIN_API_URL,
// PRICING_API_URL.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pipeline } from "node:stream";
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

// The paths the gateway answers 404 itself (infra/gateway/nginx.conf.template): Prometheus metrics
// and the pricing API's internal endpoints (service tokens) are for the cluster only.
const NEVER_ROUTED = /^\/(metrics|pricing\/metrics|pricing\/internal)(\/|$)/i;
// The main API's development sign-in, as its router matches (case-insensitive, optional final slash).
const DEV_SIGN_IN = /^\/api\/v1\/dev\/token\/?$/i;

export function startWebServer({ port = 3002, host = "127.0.0.1", mainUrl, pricingUrl, config = consoleConfig(), dist = DIST } = {}) {
  if (!fs.existsSync(path.join(dist, "index.html"))) throw new Error(`${dist}/index.html is missing: build the console first (pnpm build)`);
  const configBody = JSON.stringify(config);
  const main = mainUrl && upstream(mainUrl);
  const pricing = pricingUrl && upstream(pricingUrl);

  async function handle(req, res) {
    const target = requestTarget(req.url);
    if (!target) return json(res, 400, { message: "Malformed or refused request path.", status: "error" });
    const { rawPath, pathname, query } = target;
    if (NEVER_ROUTED.test(pathname)) {
      return json(res, 404, { error: "No route for this path: use /api/... (main API) or /pricing/... (pricing API)." });
    }
    if (main && rawPath.startsWith("/api/")) {
      // DNS rebinding: a page whose own name now resolves to 127.0.0.1 sends that name as Host.
      if (DEV_SIGN_IN.test(pathname) && !isLoopbackHost(req.headers.host)) {
        return json(res, 403, { message: "The development sign-in answers only a browser that named this machine (localhost).", status: "error" });
      }
      return proxy(req, res, main, rawPath + query);
    }
    if (pricing && rawPath.startsWith("/pricing/")) return proxy(req, res, pricing, rawPath.slice("/pricing".length) + query);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD" }).end();
      return;
    }
    if (pathname === "/config.json") {
      res.writeHead(200, { "Content-Type": TYPES[".json"], "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }).end(configBody);
      return;
    }
    await serveFile(res, dist, pathname);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => fail(req, res, err));
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

/**
 * The request target split into its path (as sent, and decoded) and query, or undefined when it is
 * refused: not a path (absolute-form `http://host/...`, `*`), malformed percent-encoding, or, raw or
 * encoded, anything a URL parser could read as another host or directory (`//`, `\`, `.` and `..`
 * segments) or a NUL.
 */
function requestTarget(url = "") {
  if (!url.startsWith("/")) return undefined;
  const q = url.indexOf("?");
  const rawPath = q === -1 ? url : url.slice(0, q);
  let pathname;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (/\/\/|\\|\0/.test(pathname) || pathname.split("/").some((segment) => segment === "." || segment === "..")) return undefined;
  return { rawPath, pathname, query: q === -1 ? "" : url.slice(q) };
}

/** `localhost`, `127.x.x.x` or `[::1]`, with or without a port. */
function isLoopbackHost(host = "") {
  const name = /^(\[::1\]|[^:[\]]+)(:\d{1,5})?$/.exec(host.toLowerCase())?.[1];
  return name === "localhost" || name === "[::1]" || (net.isIPv4(name ?? "") && name.startsWith("127."));
}

/** A configured service, to which a request goes as its origin followed by the checked path: never a URL resolved against it. */
function upstream(url) {
  const { protocol, hostname, port, host, pathname } = new URL(url);
  if (protocol !== "http:") throw new Error(`${url}: the console server forwards to http:// services only`);
  return { hostname: hostname.replace(/^\[|\]$/g, ""), port: port || 80, host, base: pathname.replace(/\/$/, "") };
}

/** An unexpected error answering a request: a 500 (or a cut answer), never the end of the process. */
function fail(req, res, err) {
  console.error(`[web] ${req.method} ${req.url}: ${err?.stack ?? err}`);
  if (res.headersSent) res.destroy();
  else json(res, 500, { message: "The console server failed to answer this request.", status: "error" });
}

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json", "X-Content-Type-Options": "nosniff" }).end(JSON.stringify(body));
}

async function serveFile(res, dist, pathname) {
  const file = path.join(dist, pathname);
  const stat = await fs.promises.stat(file).catch(() => undefined);
  const inside = file.startsWith(dist + path.sep) && Boolean(stat?.isFile());
  // Any other path is a console route: the application decides (the single-page fallback).
  const target = inside ? file : path.join(dist, "index.html");
  // Read before answering, so that a failed read is still a 500 (the files are small).
  const body = await fs.promises.readFile(target);
  const hashed = inside && pathname.startsWith("/assets/");
  res.writeHead(200, {
    "Content-Type": TYPES[path.extname(target)] ?? "application/octet-stream",
    "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    "X-Content-Type-Options": "nosniff",
    ...(target.endsWith(".html")
      ? { "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'" }
      : {}),
  });
  res.end(body);
}

function proxy(req, res, service, pathAndQuery) {
  const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
  // The browser's Host, for the main API's own check of the development sign-in.
  const forwardedHost = [req.headers["x-forwarded-host"], req.headers.host].filter(Boolean).join(", ");
  const headers = { ...req.headers, host: service.host, "x-forwarded-for": forwardedFor, ...(forwardedHost ? { "x-forwarded-host": forwardedHost } : {}) };
  const upstreamReq = http.request(
    { hostname: service.hostname, port: service.port, path: service.base + pathAndQuery, method: req.method, headers },
    (upstreamRes) => {
      try {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        // A service that dies mid-answer cuts the client's answer short (pipeline destroys it).
        pipeline(upstreamRes, res, () => undefined);
      } catch (err) {
        upstreamRes.destroy();
        fail(req, res, err);
      }
    },
  );
  upstreamReq.on("error", () => {
    if (res.headersSent) return res.destroy();
    json(res, 503, { message: "The service behind the console is unavailable; try again shortly.", status: "error" });
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
