import express, { Router } from "express";
import request from "supertest";
import { createMetrics } from "../src";

/** An app shaped like the main API's organization routes: a router mounted under a path parameter. */
function app() {
  const metrics = createMetrics("test");
  const a = express();
  a.use(metrics.middleware());
  const users = Router({ mergeParams: true });
  users.get("/:id", (req, res) => res.json({ org: req.params.org_id, id: req.params.id }));
  const organizations = Router();
  organizations.get("/:org_id", (_req, res) => res.json({}));
  organizations.use("/:org_id/users", users);
  a.use("/api/v1/organizations", organizations);
  const deeper = Router({ mergeParams: true });
  deeper.get("/items", (_req, res) => res.json({}));
  a.use("/v1/:kind/nested/:name", deeper);
  a.get("/plain/:x", (_req, res) => res.json({}));
  return { a, metrics };
}

const routesIn = (text: string) => [...new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]))].sort();

describe("metrics", () => {
  it("labels requests with the full route pattern, never the ids in the path (issue #22, finding 10)", async () => {
    const { a, metrics } = app();
    await request(a).get("/api/v1/organizations/org_secret1/users/usr_secret2").expect(200);
    await request(a).get("/api/v1/organizations/org_secret3").expect(200);
    await request(a).get("/v1/model/nested/secret4/items").expect(200);
    await request(a).get("/plain/secret5").expect(200);
    await request(a).get("/nowhere/secret6").expect(404);
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/secret/);
    expect(routesIn(text)).toEqual([
      "/api/v1/organizations/:org_id",
      "/api/v1/organizations/:org_id/users/:id",
      "/plain/:x",
      "/v1/:kind/nested/:name/items",
      "unmatched",
    ]);
  });

  it("serves the registry on its own small app, and nothing else there", async () => {
    const { a, metrics } = app();
    await request(a).get("/plain/1").expect(200);
    const scrape = await request(metrics.app()).get("/metrics").expect(200);
    expect(scrape.headers["content-type"]).toMatch(/^text\/plain/);
    expect(scrape.text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/plain\/:x"/);
    await request(metrics.app()).get("/api/v1/organizations/x").expect(404);
  });
});
