import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitForChild } from "./ports";
import { findNginx } from "./requirements";

const TEMPLATE = path.resolve(__dirname, "../../infra/gateway/nginx.conf.template");
const WEB_TEMPLATE = path.resolve(__dirname, "../../infra/web/default.conf.template");

/** An upstream is one `host:port`, or several (replicas: one `server` line each, round robin). */
export type Upstream = string | string[];

export function renderGatewayConfig(values: { port: number; mainApi: Upstream; pricingApi: Upstream; web?: string }): string {
  const upstreams: Record<string, string[]> = {
    MAIN_API_UPSTREAM: [values.mainApi].flat(),
    PRICING_API_UPSTREAM: [values.pricingApi].flat(),
  };
  const placeholders: Record<string, string> = {
    GATEWAY_PORT: `127.0.0.1:${values.port}`,
    MAIN_API_UPSTREAM: upstreams.MAIN_API_UPSTREAM.join(" "),
    PRICING_API_UPSTREAM: upstreams.PRICING_API_UPSTREAM.join(" "),
    // Without a console upstream a closed port: the gateway answers its own 503 for console paths.
    WEB_UPSTREAM: values.web ?? "127.0.0.1:9",
  };
  // envsubst-style `${NAME}`; nginx's own `$host`, `$request_id`... have no braces and stay.
  return fs
    .readFileSync(TEMPLATE, "utf8")
    .replace(/^(\s*)server \$\{(\w+_UPSTREAM)\}(.*)$/gm, (whole, indent: string, name: string, rest: string) =>
      upstreams[name] ? upstreams[name].map((address) => `${indent}server ${address}${rest}`).join("\n") : whole,
    )
    .replace(/\$\{(\w+)\}/g, (whole, name: string) => placeholders[name] ?? whole);
}

export interface Gateway {
  url: string;
  stop(): Promise<void>;
}

/** Starts nginx with the project's gateway configuration in front of the given upstreams. */
export async function startGateway(upstreams: { mainApi: Upstream; pricingApi: Upstream; web?: string }): Promise<Gateway> {
  return startNginx((port) => renderGatewayConfig({ port, ...upstreams }).replace("worker_processes auto;", "worker_processes 1;"));
}

/**
 * The web image's server block (infra/web/default.conf.template) as its entrypoint renders it
 * (envsubst of ${WEB_PORT} and ${WEB_CONFIG_JSON}), serving `root` instead of the image's
 * /usr/share/nginx/html, inside the http block of a minimal nginx.conf.
 */
export function renderWebConfig(values: { port: number; root: string; configJson: string }): string {
  const placeholders: Record<string, string> = { WEB_PORT: `127.0.0.1:${values.port}`, WEB_CONFIG_JSON: values.configJson };
  const server = fs
    .readFileSync(WEB_TEMPLATE, "utf8")
    .replace(/\$\{(\w+)\}/g, (whole, name: string) => placeholders[name] ?? whole)
    .replace("root /usr/share/nginx/html;", `root ${values.root};`);
  return `worker_processes 1;\nerror_log stderr warn;\nevents {}\nhttp {\n  access_log off;\n${server}\n}\n`;
}

/** Starts the web image's nginx configuration (see renderWebConfig) serving `root`. */
export function startWebImage(values: { root: string; configJson: string }): Promise<Gateway> {
  return startNginx((port) => renderWebConfig({ port, ...values }));
}

/** nginx with the configuration `render` gives for a free port, once it answers /healthz. */
async function startNginx(render: (port: number) => string): Promise<Gateway> {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed");
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-"));
  fs.chmodSync(prefix, 0o777);
  const config = path.join(prefix, "nginx.conf");
  fs.writeFileSync(config, render(port));
  const globals = [`daemon off;`, `pid ${path.join(prefix, "nginx.pid")};`];
  if (process.getuid?.() === 0) globals.push("user root;");
  const child: ChildProcess = spawn(nginx, ["-p", prefix, "-c", config, "-e", "stderr", "-g", globals.join(" ")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForChild(`${url}/healthz`, child, 60_000);
  } catch (err) {
    child.kill("SIGKILL");
    throw new Error(`nginx did not start: ${(err as Error).message}\n${stderr}`);
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => {
          fs.rmSync(prefix, { recursive: true, force: true });
          resolve();
        });
        child.kill("SIGQUIT");
      }),
  };
}
