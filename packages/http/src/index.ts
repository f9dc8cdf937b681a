export * from "./http-error";
export { requestId } from "./request-id";
export { parseOr400, fieldErrors } from "./validate";
export { createLogger, httpLogger, REDACTED_PATHS } from "./logger";
export { jsonBody, notFoundHandler, errorHandler, JSON_BODY_LIMIT, type ErrorRenderer } from "./middlewares";
export { serve, type ServeOptions } from "./serve";
export { parseEnv, startFailure, ConfigError } from "./env";
export { listRoutes, type RegisteredRoute } from "./routes";
export { createMetrics, type Metrics } from "./metrics";
