import http from "node:http";
import https from "node:https";
import net from "node:net";
import { guardedLookup, hostOf, RefusedTarget, refusedAddress, type Resolve } from "./targets";

export interface SendOptions {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_INSECURE: plain http and any address (local development and tests). */
  allowInsecure: boolean;
  resolve: Resolve;
}

export interface SendResult {
  /** The receiver's status; null when none answered. */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed; null on a 2xx. */
  error: string | null;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failed attempt), the whole exchange
 * has a deadline, and unless insecure targets are allowed the URL must be https and every address
 * the host resolves to (or is) must be public: the connection goes to an address that was checked.
 */
export async function postJson(target: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let url: URL;
  try {
    url = new URL(target);
    preflight(url, options.allowInsecure);
  } catch (err) {
    return done(null, `refused: ${(err as Error).message}`);
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((settle) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body).toString(), "user-agent": "cloudcost-webhooks/1", ...headers },
        lookup: options.allowInsecure ? undefined : guardedLookup(options.resolve),
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const finish = () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) settle(done(status, null));
          // Not the Location: the log shown to the organization holds no text the receiver chose.
          else if (status >= 300 && status < 400) settle(done(status, `redirect (${status}) not followed`));
          else settle(done(status, `receiver answered ${status}`));
        };
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    request.on("error", (err: NodeJS.ErrnoException) => {
      if (err instanceof RefusedTarget) settle(done(null, `refused: ${err.message}`));
      else if (err.name === "AbortError" || err.name === "TimeoutError") settle(done(null, `no answer within ${options.timeoutMs} ms`));
      else settle(done(null, `${err.code ?? err.name}: ${err.message}`.slice(0, 500)));
    });
    request.end(body);
  });
}

function preflight(url: URL, allowInsecure: boolean): void {
  if (allowInsecure) return;
  if (url.protocol !== "https:") throw new RefusedTarget(`the URL must use https (got ${url.protocol.replace(":", "")})`);
  // An address in the URL is connected to without a lookup: check it here.
  const host = hostOf(url);
  const reason = net.isIP(host) ? refusedAddress(host) : undefined;
  if (reason) throw new RefusedTarget(reason);
}
