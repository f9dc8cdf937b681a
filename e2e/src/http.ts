/** Anything with zod's `parse` (the e2e package does not depend on zod itself). */
export interface Schema<T> {
  parse(value: unknown): T;
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON (undefined when empty). */
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Bearer token or API key (`Authorization: Bearer ...`). */
  token?: string;
  /** Pricing API key (`X-API-Key`). */
  apiKey?: string;
  tenant?: string;
}

/** One HTTP request as an outside client makes it. */
export async function call(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  if (options.tenant) headers["x-service-tenant-id"] = options.tenant;
  const res = await fetch(url, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: unknown = text === "" ? undefined : text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text, the assertion will show it
  }
  return { status: res.status, headers: res.headers, body };
}

/** Asserts the status (showing the body when it differs) and parses the body with a contract schema. */
export function expectReply<T>(reply: Reply, status: number, schema: Schema<T>): T {
  if (reply.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return schema.parse(reply.body);
}

/** Polls `probe` until it returns a value other than undefined. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
