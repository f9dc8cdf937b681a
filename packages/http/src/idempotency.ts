import { createHash } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { badRequest, conflict, ERROR_CODE_HEADER, HttpError } from "./http-error";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a completed response is replayed. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim still unfinished after this long belongs to a request that died with its process. */
export const IDEMPOTENCY_LOCK_TIMEOUT_SECONDS = 10 * 60;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
  /** The `X-Error-Code` of an error answer; absent for a success and in rows stored before codes were kept. */
  errorCode?: string | null;
}

export type BeginResult = { outcome: "new" } | { outcome: "replay"; response: StoredResponse } | { outcome: "mismatch" } | { outcome: "in_progress" };

/** Where keys are claimed and completed responses kept; one row per (scope, key). */
export interface IdempotencyStore {
  begin(scope: string, key: string, fingerprint: string): Promise<BeginResult>;
  complete(scope: string, key: string, fingerprint: string, response: StoredResponse): Promise<void>;
  /** Gives the key up so that a retry runs the operation again. */
  release(scope: string, key: string, fingerprint: string): Promise<void>;
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /**
   * The caller the key belongs to (the middleware runs after authentication); undefined for a
   * request the route will refuse whatever it holds: it passes on and nothing is stored.
   */
  scopeOf(req: Request): string | undefined;
  /** Request parts outside method, path and body that make a different request (e.g. a tenant header). */
  fingerprintExtra?(req: Request): string;
  /** Reports a failure to store or release (the response itself is still sent). */
  onStoreError?(err: unknown, req: Request): void;
  /**
   * For requests whose successful response carries a secret shown once (an API key, a webhook
   * signing secret): the message a replay answers with. Such a response is never stored: only a
   * marker holding this message, and a replay is a 409 `idempotency_secret_not_replayed`.
   * Undefined (or no option) for responses that hold no secret.
   */
  secretResponse?(req: Request): string | undefined;
  /**
   * For an operation whose body is streamed to its handler rather than parsed: whether this request's
   * body is such a raw body. Its fingerprint then needs the body's digest, which only the handler
   * knows once it has received the body: the middleware leaves a `DeferredIdempotency` on the
   * request (`deferredIdempotencyOf(req)`; the binder hands a raw body's handler the request as the
   * body's stream), and the handler claims the key through it.
   */
  rawBody?(req: Request): boolean;
}

/** The key claim of a request with a raw body, made by its handler once the body is received. */
export interface DeferredIdempotency {
  /**
   * Claims the key for this request with a body of this digest (hex SHA-256 of its bytes as sent):
   * null when the request is to run (its answer is then kept), or the answer of the first request
   * with the same key and body, to be sent again. The same key with another request is a 422, and
   * while the first is still running a 409.
   */
  claim(bodyDigest: string): Promise<StoredResponse | null>;
}

const DEFERRED = Symbol.for("cloudcost.deferredIdempotency");

/** The deferred key claim the middleware left on a raw-body request with an `Idempotency-Key`, if any. */
export function deferredIdempotencyOf(req: object): DeferredIdempotency | undefined {
  return (req as { [DEFERRED]?: DeferredIdempotency })[DEFERRED];
}

/** The headers a replayed answer is sent with (`Idempotent-Replayed: true`, its content type and error code). */
export function replayHeaders(stored: StoredResponse): Record<string, string> {
  const headers: Record<string, string> = { [IDEMPOTENT_REPLAYED_HEADER]: "true" };
  if (stored.contentType) headers["Content-Type"] = stored.contentType;
  if (stored.errorCode) headers[ERROR_CODE_HEADER] = stored.errorCode;
  return headers;
}

/** Content type of a stored marker that stands for a response with a secret (its body is the replay's message). */
export const SECRET_WITHHELD_CONTENT_TYPE = "application/vnd.cloudcost.secret-withheld";
export const SECRET_NOT_REPLAYED_CODE = "idempotency_secret_not_replayed" as const;

/**
 * Statuses that say the operation did not run, or may succeed when retried: these are not stored
 * and free the key. 400 is a request that failed validation; 401 a credential problem; 409 a
 * conflict with concurrent state (an analysis already running); 429 rate limiting; 5xx a failure.
 */
export const isReplayableStatus = (status: number) => status < 500 && ![400, 401, 408, 409, 429].includes(status);

/** JSON with object keys sorted at every level, so that key order does not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object" && (value as object).constructor === Object) {
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(source)
        .sort()
        .map((k) => [k, sortKeys(source[k])]),
    );
  }
  return value;
}

export function requestFingerprint(req: Request, extra = ""): string {
  const path = req.originalUrl.split("?")[0];
  return createHash("sha256")
    .update(`${req.method}\n${path}\n${extra}\n${canonicalJson(req.body)}`)
    .digest("hex");
}

/**
 * The fingerprint of a raw-body request: its path with the query (which says what the body is, as a
 * file's name or part), media type and encoding, and the digest of the body's bytes.
 */
function rawRequestFingerprint(req: Request, extra: string, bodyDigest: string): string {
  return createHash("sha256")
    .update(`${req.method}\n${req.originalUrl}\n${extra}\n${req.get("Content-Type") ?? ""}\n${req.get("Content-Encoding") ?? ""}\nraw:${bodyDigest}`)
    .digest("hex");
}

/**
 * `Idempotency-Key` on POST: the first completed response (status, content type, body, error code) is kept
 * per caller and key for 24 hours and replayed (with `Idempotent-Replayed: true`) for a repeat
 * with the same request; the same key with a different request is a 422, while the first is still
 * running a 409. Mount it after authentication, before the handlers.
 */
export function idempotency(options: IdempotencyOptions): RequestHandler {
  const { store } = options;
  // Requests without the header (most of them) pass synchronously, without a promise.
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    return withKey(req, res, next, key);
  };

  async function withKey(req: Request, res: Response, next: NextFunction, key: string): Promise<void> {
    if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE_ASCII.test(key)) {
      throw badRequest(`The ${IDEMPOTENCY_KEY_HEADER} header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`);
    }
    const scope = options.scopeOf(req);
    if (scope === undefined) return next();
    if (options.rawBody?.(req)) {
      const deferred: DeferredIdempotency = {
        claim: async (bodyDigest) => {
          const fingerprint = rawRequestFingerprint(req, options.fingerprintExtra?.(req) ?? "", bodyDigest);
          const begun = await claimKey(scope, key, fingerprint);
          if (begun) return begun;
          keepResponse(req, res, scope, key, fingerprint);
          return null;
        },
      };
      Object.defineProperty(req, DEFERRED, { value: deferred, configurable: true });
      return next();
    }
    let fingerprint: string;
    try {
      fingerprint = requestFingerprint(req, options.fingerprintExtra?.(req));
    } catch {
      // A body too deeply nested to serialise cannot be valid for any route: let validation answer
      // its 400; nothing is stored for it.
      return next();
    }
    const stored = await claimKey(scope, key, fingerprint);
    if (stored) return replay(res, stored);
    keepResponse(req, res, scope, key, fingerprint);
    next();
  }

  /** Claims the key: null when the request is to run, or the first request's answer to replay; throws for another request or one still running. */
  async function claimKey(scope: string, key: string, fingerprint: string): Promise<StoredResponse | null> {
    const begun = await store.begin(scope, key, fingerprint);
    switch (begun.outcome) {
      case "replay":
        if (begun.response.contentType === SECRET_WITHHELD_CONTENT_TYPE) throw new HttpError(SECRET_NOT_REPLAYED_CODE, begun.response.body);
        return begun.response;
      case "mismatch":
        throw new HttpError(
          "idempotency_key_reused",
          `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request; use a new key for a new request.`,
        );
      case "in_progress":
        throw conflict(`A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry when it has finished.`, "idempotency_key_in_use");
    }
    return null;
  }

  /** Keeps the answer of a request that claimed its key (or gives the key up for an answer not to be replayed). */
  function keepResponse(req: Request, res: Response, scope: string, key: string, fingerprint: string): void {
    const secretMessage = options.secretResponse?.(req);
    captureResponse(res, async (captured) => {
      try {
        const withheld = secretMessage !== undefined && captured.status < 300;
        const response: StoredResponse = withheld ? { status: captured.status, contentType: SECRET_WITHHELD_CONTENT_TYPE, body: secretMessage } : captured;
        if (isReplayableStatus(response.status)) await store.complete(scope, key, fingerprint, response);
        else await store.release(scope, key, fingerprint);
      } catch (err) {
        options.onStoreError?.(err, req);
      }
    });
  }
}

function replay(res: Response, stored: StoredResponse): void {
  res.status(stored.status).set(replayHeaders(stored));
  res.end(stored.body);
}

/**
 * Collects what the handler writes; before the last chunk leaves, `settle` stores it (so a retry
 * that follows the response finds it). A client that disconnects early does not free the key: the
 * handler still runs to its end() and its result is stored, so the client's retry gets a 409 and
 * then the replay instead of a second execution. A response that never ends (a stream destroyed
 * mid-way) leaves the claim to expire after the lock timeout.
 */
function captureResponse(res: Response, settle: (response: StoredResponse) => Promise<void>): void {
  const chunks: Buffer[] = [];
  let settled = false;
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
  };
  const originalWrite = res.write.bind(res) as (...args: unknown[]) => boolean;
  const originalEnd = res.end.bind(res) as (...args: unknown[]) => Response;

  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    collect(chunk, rest[0]);
    return originalWrite(chunk, ...rest);
  }) as Response["write"];

  res.end = ((...args: unknown[]) => {
    if (settled) return originalEnd(...args);
    settled = true;
    collect(args[0], args[1]);
    const contentType = res.getHeader("Content-Type");
    const errorCode = res.getHeader(ERROR_CODE_HEADER);
    const response: StoredResponse = {
      status: res.statusCode,
      contentType: contentType === undefined ? null : String(contentType),
      body: Buffer.concat(chunks).toString("utf8"),
      errorCode: errorCode === undefined ? null : String(errorCode),
    };
    void settle(response).then(() => originalEnd(...args));
    return res;
  }) as Response["end"];
}
