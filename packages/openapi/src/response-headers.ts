import { z } from "zod";
import { ErrorCode } from "@cloudcost/contracts";

const RequestIdHeader = z.string().meta({ description: "The request's id (the incoming X-Request-Id when well formed, else a new one); logs carry it." });
const RateLimitHeader = z
  .string()
  .optional()
  .meta({ description: "IETF RateLimit: remaining requests `r` and seconds to reset `t` per applied limit (when rate limits are on)." });
const RateLimitPolicyHeader = z
  .string()
  .optional()
  .meta({ description: "IETF RateLimit-Policy: quota `q` per window `w` seconds of each applied limit (when rate limits are on)." });
const RetryAfterHeader = z.string().meta({ description: "Seconds to wait before retrying." });
const ErrorCodeHeader = ErrorCode.meta({ description: "The error's stable code (see ErrorCode)." });
const ReplayedHeader = z.literal("true").optional().meta({ description: "Present on a response replayed for a repeated Idempotency-Key." });

/** Headers of every response. */
export const commonHeaders = { "X-Request-Id": RequestIdHeader, RateLimit: RateLimitHeader, "RateLimit-Policy": RateLimitPolicyHeader };

/** Response headers by kind of answer. */
export function responseHeaders(status: number, idempotent: boolean): z.ZodObject {
  const headers: Record<string, z.ZodType> = { ...commonHeaders };
  if (status >= 400) headers["X-Error-Code"] = ErrorCodeHeader;
  if (status === 429 || status === 503) headers["Retry-After"] = RetryAfterHeader;
  if (idempotent && status < 400) headers["Idempotent-Replayed"] = ReplayedHeader;
  return z.object(headers);
}
