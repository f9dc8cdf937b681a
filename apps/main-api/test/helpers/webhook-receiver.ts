import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A local HTTP receiver that records every request and answers the queued statuses (then 200). */
export async function startReceiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const queue = [...statuses];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = queue.shift() ?? 200;
      res.writeHead(status, status >= 300 && status < 400 ? { location: "http://169.254.169.254/" } : {}).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Tarpit {
  url: string;
  /** Requests received and not answered yet (their connections still open). */
  readonly open: number;
  /** The most requests it held open at once. */
  readonly maxOpen: number;
  /** Every request it received. */
  readonly total: number;
  close(): Promise<void>;
}

/**
 * A receiver that reads each request and never answers (a tarpit): the sender waits for its
 * deadline. `close` drops every connection it holds.
 */
export async function startTarpit(): Promise<Tarpit> {
  const state = { open: 0, maxOpen: 0, total: 0 };
  const server = http.createServer((req) => {
    state.total++;
    state.open++;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    req.resume();
    req.socket.once("close", () => state.open--);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tarpit`,
    get open() {
      return state.open;
    },
    get maxOpen() {
      return state.maxOpen;
    },
    get total() {
      return state.total;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
