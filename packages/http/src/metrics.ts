import express, { type Express, type Router, type RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { matchedRoute } from "./routes";

/** A Prometheus registry per app (so two apps in one test process do not collide). */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration by method, route and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const metricsRouter = (): Router => {
    const router = express.Router();
    router.get("/metrics", async (_req, res, next) => {
      try {
        res.type(registry.contentType).send(await registry.metrics());
      } catch (err) {
        next(err);
      }
    });
    return router;
  };
  return {
    registry,
    /** Observes every request; the route label is the matched route pattern, never the raw URL. */
    middleware(): RequestHandler {
      return (req, res, next) => {
        const end = httpDuration.startTimer();
        res.once("finish", () => end({ method: req.method, route: matchedRoute(req) ?? "unmatched", status: String(res.statusCode) }));
        next();
      };
    },
    /** `GET /metrics` (mounted on the service's own port, where the gateway and ingress never route it). */
    router: metricsRouter,
    /** `GET /metrics` and nothing else, for the optional listener of its own (METRICS_PORT). */
    app(): Express {
      const app = express();
      app.disable("x-powered-by");
      app.use(metricsRouter());
      app.use((_req, res) => {
        res.status(404).type("text/plain").send("Not found: this port serves GET /metrics only.\n");
      });
      return app;
    },
    counter(name: string, help: string, labelNames: string[]) {
      return new Counter({ name, help, labelNames, registers: [registry] });
    },
    histogram(name: string, help: string, labelNames: string[], buckets?: number[]) {
      return new Histogram({ name, help, labelNames, buckets, registers: [registry] });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
