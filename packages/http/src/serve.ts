import type { Server } from "node:http";
import type { Express } from "express";
import type { Logger } from "pino";
import { answerClientErrors, type ClientErrorBody } from "./client-error";

export interface ServeOptions {
  name: string;
  app: Express;
  port: number;
  host: string;
  logger: Logger;
  shutdownTimeoutMs: number;
  /** The error body for requests Node's parser refuses before Express sees them (see client-error.ts). */
  clientErrorBody: ClientErrorBody;
  /** Closes what the service opened (database, timers) after the last request finished. */
  onShutdown: () => Promise<void>;
  /**
   * A second listener on the same host for Prometheus (`createMetrics(...).app()`): a port the
   * Service and ingress do not expose. Omitted or port 0: none.
   */
  metrics?: { app: Express; port: number };
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting connections, lets in-flight requests finish
 * (bounded by shutdownTimeoutMs), then runs onShutdown and exits.
 */
export async function serve(options: ServeOptions): Promise<Server> {
  const { name, host, logger, metrics } = options;
  const metricsPort = metrics && metrics.port > 0 ? metrics.port : undefined;
  const metricsServer = metrics && metricsPort !== undefined ? await listen(metrics.app, metricsPort, host) : undefined;
  if (metricsServer) logger.info({ url: `http://${host}:${metricsPort}/metrics` }, `${name} metrics listening`);
  try {
    return await serveApp(options, metricsServer);
  } catch (err) {
    metricsServer?.close();
    throw err;
  }
}

function listen(app: Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once("error", reject);
    server.once("listening", () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

function serveApp(options: ServeOptions, metricsServer: Server | undefined): Promise<Server> {
  const { name, app, port, host, logger } = options;
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once("error", reject);
    server.once("listening", () => {
      server.off("error", reject);
      logger.info({ url: `http://${host}:${port}` }, `${name} listening`);
      resolve(server);
    });
    answerClientErrors(server, { logger, body: options.clientErrorBody });
    // Slow clients must not hold sockets forever.
    server.headersTimeout = 15_000;
    server.requestTimeout = 60_000;
    server.keepAliveTimeout = 5_000;

    let stopping = false;
    // While stopping, every response closes its connection: a busy keep-alive client would otherwise
    // keep sending requests on its open socket and hold the shutdown until the timeout.
    server.prependListener("request", (_req, res) => {
      if (stopping) res.setHeader("Connection", "close");
    });
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${name} stopping: finishing in-flight requests`);
      const force = setTimeout(() => {
        logger.warn(`${name}: in-flight requests did not finish in time; closing their connections`);
        server.closeAllConnections();
      }, options.shutdownTimeoutMs);
      force.unref();
      // Scrapes are short: the metrics listener just stops with the service.
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      server.close(async () => {
        await options.onShutdown().catch((err) => logger.error({ err }, `${name}: error while closing`));
        logger.info(`${name} stopped`);
        logger.flush(() => process.exit(0));
      });
      server.closeIdleConnections();
      // Requests already in flight at the signal finish on keep-alive sockets: close those as they go idle.
      setInterval(() => server.closeIdleConnections(), 100).unref();
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  });
}
