// Constant-arrival-rate load (open loop, as wrk2 and k6's constant-arrival-rate executor do): request
// k is due at start + k / rate, whether or not earlier ones have answered, and its latency is counted
// from when it was due, so time spent waiting for a free connection (the service falling behind)
// counts too, and a stall is not hidden by the client pausing with it ("coordinated omission").
//
// The mixed load uses this rather than autocannon's rate limit: autocannon 8 lets each connection
// send its per-second budget back to back at the top of every second (a burst of the whole second's
// requests, measuring queueing behind them), and when rate-limited it "corrects" for coordinated
// omission with an expected interval of ceil(1 / rate) = 1 ms, recording a 300 ms answer as 300
// samples (300, 299, ... 1 ms), which pushes the percentiles towards the slowest answers.
import http from "node:http";

export interface PlannedRequest {
  method: string;
  path: string;
  body?: string;
}

export interface OpenLoopOptions {
  url: string;
  headers: Record<string, string>;
  /** Requests per second, spaced evenly. */
  rate: number;
  seconds: number;
  /** At most this many requests in flight (keep-alive connections); later ones wait for one. */
  connections: number;
  /** The k-th request (called when it is due; keep it cheap: prepare bodies beforehand). */
  request: (k: number) => PlannedRequest;
  timeoutMs: number;
}

export interface OpenLoopResult {
  requests: number;
  requests_per_s: number;
  /** Latencies from due time to the end of the answer, in ms. */
  latencies_ms: number[];
  status_counts: Record<string, number>;
  errors: number;
  /** Socket errors by code (ECONNRESET ...), with whether the request went out on a reused keep-alive socket. */
  error_codes: Record<string, number>;
  timeouts: number;
  /** [due time in ms since the start, latency in ms] of every answer, in order of answer. */
  trace: [number, number][];
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  // FIFO: every connection stays in rotation. The default (LIFO) leaves the spare ones idle past the
  // services' 5 s keep-alive timeout, and reusing one just as the service closes it is a socket error
  // of the client's making (ECONNRESET on a reused socket), which the hard checks would count.
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, scheduling: "fifo" });
  const base = new URL(options.url);
  const total = Math.floor(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const result: OpenLoopResult = { requests: 0, requests_per_s: 0, latencies_ms: [], status_counts: {}, errors: 0, error_codes: {}, timeouts: 0, trace: [] };
  const failed = (err: NodeJS.ErrnoException, reused: boolean) => {
    result.errors++;
    const code = `${err.code ?? err.message}${reused ? " (reused socket)" : ""}`;
    result.error_codes[code] = (result.error_codes[code] ?? 0) + 1;
  };
  const inFlight: Promise<void>[] = [];
  const started = performance.now();

  const send = (k: number, due: number) =>
    new Promise<void>((resolve) => {
      let timedOut = false;
      const planned = options.request(k);
      const headers: Record<string, string | number> = { ...options.headers };
      if (planned.body !== undefined) headers["content-length"] = Buffer.byteLength(planned.body);
      const req = http.request({ host: base.hostname, port: base.port, method: planned.method, path: planned.path, headers, agent }, (res) => {
        res.resume();
        res.on("end", () => {
          result.latencies_ms.push(performance.now() - due);
          result.trace.push([Math.round(due - started), Number((performance.now() - due).toFixed(1))]);
          result.status_counts[res.statusCode ?? 0] = (result.status_counts[res.statusCode ?? 0] ?? 0) + 1;
          resolve();
        });
        res.on("error", (err) => {
          failed(err, req.reusedSocket);
          resolve();
        });
      });
      req.setTimeout(options.timeoutMs, () => {
        timedOut = true;
        result.timeouts++;
        req.destroy(new Error("timeout"));
      });
      req.on("error", (err) => {
        if (!timedOut) failed(err, req.reusedSocket);
        resolve();
      });
      req.end(planned.body);
    });

  for (let k = 0; k < total; k++) {
    const due = started + k * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(k, due));
  }
  await Promise.all(inFlight);
  agent.destroy();
  result.requests = result.latencies_ms.length;
  result.requests_per_s = Math.round(result.requests / ((performance.now() - started) / 1000));
  result.latencies_ms.sort((a, b) => a - b);
  return result;
}
