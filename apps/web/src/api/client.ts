import { ApiError, errorMessage } from "./errors";

export interface Session {
  token: string;
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  tenant?: string;
  query?: URLSearchParams | Record<string, string | undefined>;
  headers?: Record<string, string>;
}

type Unauthorized = () => void;

/** Calls the main API (`/api/v1/...`) with the session's bearer token and unwraps the envelope's `data`. */
export class MainApi {
  constructor(
    private readonly base: string,
    private readonly token: () => string | undefined,
    private readonly onUnauthorized: Unauthorized,
  ) {}

  async call<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    const token = this.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.tenant) headers["X-Service-Tenant-ID"] = options.tenant;
    if (options.body !== undefined) headers["Content-Type"] = "application/json";
    const res = await send(`${this.base}${path}${queryString(options.query)}`, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (res.status === 204) return undefined as T;
    const body = await readJson(res);
    if (!res.ok) {
      if (res.status === 401 && token) this.onUnauthorized();
      throw new ApiError(res.status, errorMessage(res.status, body), res.headers.get("X-Error-Code") ?? undefined);
    }
    return (body as { data: T }).data;
  }

  /** A file answer (the FOCUS export streams CSV): fetched with the bearer token, read as a blob. */
  async download(path: string, options: Pick<RequestOptions, "tenant" | "query"> = {}): Promise<Blob> {
    const headers: Record<string, string> = { Accept: "text/csv, application/json" };
    const token = this.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.tenant) headers["X-Service-Tenant-ID"] = options.tenant;
    const res = await send(`${this.base}${path}${queryString(options.query)}`, { headers });
    if (!res.ok) {
      const body = await readJson(res);
      if (res.status === 401 && token) this.onUnauthorized();
      throw new ApiError(res.status, errorMessage(res.status, body), res.headers.get("X-Error-Code") ?? undefined);
    }
    return res.blob();
  }
}

/** Saves a blob as a file in the browser's downloads. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Calls the pricing API with an API key; answers are not enveloped. */
export async function pricingCall<T>(
  base: string,
  key: string,
  path: string,
  query?: Record<string, string | undefined>,
  write?: { method: "POST" | "PUT" | "DELETE"; body?: unknown },
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", "X-API-Key": key };
  if (write?.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await send(`${base}${path}${queryString(query)}`, {
    method: write?.method ?? "GET",
    headers,
    body: write?.body === undefined ? undefined : JSON.stringify(write.body),
  });
  const body = await readJson(res);
  if (!res.ok) throw new ApiError(res.status, errorMessage(res.status, body), (body as { code?: string } | null)?.code);
  return body as T;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new ApiError(0, errorMessage(0, null));
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function queryString(query: RequestOptions["query"]): string {
  if (!query) return "";
  const params = query instanceof URLSearchParams ? query : new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  const text = params.toString();
  return text ? `?${text}` : "";
}
