import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWebImage, type Gateway } from "../src/nginx";
import { describeWith } from "../src/requirements";

// The console image's nginx configuration (infra/web/default.conf.template), rendered as the
// image's entrypoint renders it and served by nginx: every answer carries
// `X-Content-Type-Options: nosniff`, whatever location answers it (an `add_header` in a location
// drops every `add_header` of the server block).
const describeIfNginx = describeWith("the web image tests", ["nginx"]);

describeIfNginx("web image nginx configuration", () => {
  let root: string;
  let web: Gateway;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "web-image-"));
    fs.chmodSync(root, 0o755);
    fs.mkdirSync(path.join(root, "assets"));
    fs.writeFileSync(path.join(root, "index.html"), "<!doctype html><title>console</title>");
    fs.writeFileSync(path.join(root, "assets/x.js"), "console.log(1)");
    web = await startWebImage({ root, configJson: '{"auth":{"mode":"dev"}}' });
  });
  afterAll(async () => {
    await web?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("sends nosniff on /config.json, the assets, the console's routes and /healthz, with each location's own headers", async () => {
    const answers: Record<string, [number, string | null, string | null, string]> = {};
    for (const target of ["/config.json", "/assets/x.js", "/", "/recommendations", "/healthz", "/assets/missing.js"]) {
      const res = await fetch(`${web.url}${target}`);
      answers[target] = [res.status, res.headers.get("x-content-type-options"), res.headers.get("cache-control"), await res.text()];
    }
    expect(answers).toEqual({
      "/config.json": [200, "nosniff", "no-store", '{"auth":{"mode":"dev"}}'],
      "/assets/x.js": [200, "nosniff", "public, max-age=31536000, immutable", "console.log(1)"],
      "/": [200, "nosniff", "no-cache", "<!doctype html><title>console</title>"],
      "/recommendations": [200, "nosniff", "no-cache", "<!doctype html><title>console</title>"],
      "/healthz": [200, "nosniff", null, '{"status":"ok","service":"web"}'],
      "/assets/missing.js": [404, "nosniff", "public, max-age=31536000, immutable", expect.stringContaining("404")],
    });
    expect((await fetch(`${web.url}/`)).headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
  });
});
