export * from "./http-error";
export { requestId } from "./request-id";
export { parseOr400, fieldErrors } from "./validate";
export { createLogger, httpLogger, logOutput, REDACTED_PATHS, type LogFormat, type LogOutput } from "./logger";
export { notFoundHandler, errorHandler, renderError, type ErrorRenderer } from "./middlewares";
export {
  registerRoutes,
  releaseBody,
  expressPath,
  OPERATION_ID,
  type Authenticate,
  type AuthRequest,
  type BinderContext,
  type HandlerReply,
  type RawBody,
  type RequestMeta,
  type RouteHandler,
  type RouteHandlers,
  type RouteHooks,
  type StreamReply,
  type TextReply,
} from "./bind";
export { bindSlice, registerSlices, sliceFaults, type SliceBinding } from "./slices";
export { jsonBody, largeJsonBody, verifyJsonBody, JSON_BODY_LIMIT, JSON_BODY_MAX_DEPTH } from "./json-body";
export { isDatabaseUnavailable } from "./unavailable";
export { retry, backoffDelay, jittered, sleep, type Backoff, type RetryOptions, type RandomSource } from "./retry";
export { startPeriodic, type Periodic, type PeriodicOptions, type PeriodicTimers } from "./periodic";
export { serve, type ServeOptions } from "./serve";
export { answerClientErrors, requestLinePath, type ClientErrorBody } from "./client-error";
export { parseEnv, startFailure, ConfigError } from "./env";
export { listRoutes, type RegisteredRoute } from "./routes";
export { serviceApp, type ServiceAppOptions } from "./service-app";
export { createMetrics, type Metrics } from "./metrics";
export {
  rateLimits,
  requestCredential,
  API_KEY_OR_BEARER,
  type CredentialHeader,
  type RequestCredential,
  securityHeaders,
  corsPolicy,
  protections,
  protectionConfig,
  ProtectionEnv,
  type RateLimitOptions,
  type RateLimitStore,
  type TrustProxy,
} from "./protection";
export { connectRedis, redisReady, closeRedis, type Redis } from "./redis";
export {
  idempotency,
  canonicalJson,
  requestFingerprint,
  isReplayableStatus,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_TTL_SECONDS,
  SECRET_NOT_REPLAYED_CODE,
  SECRET_WITHHELD_CONTENT_TYPE,
  deferredIdempotencyOf,
  replayHeaders,
  type DeferredIdempotency,
  type IdempotencyOptions,
  type IdempotencyStore,
  type BeginResult,
  type StoredResponse,
} from "./idempotency";
export { sqlIdempotencyStore, type SqlQuery, type SqlIdempotencyStoreOptions } from "./idempotency-sql-store";
export { admitHook, createAdmission, type Admission, type AdmissionClass, type AdmissionCounts } from "./admission";
