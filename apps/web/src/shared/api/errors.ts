import { ApiError } from "@cloudcost/client";

export { ApiError };

const FALLBACK: Record<number, string> = {
  0: "The service could not be reached. Check your connection and try again.",
  401: "Your session has ended. Sign in again.",
  403: "You are not allowed to do this.",
  404: "Not found.",
  409: "This conflicts with the current state.",
  429: "Too many requests; wait a moment and try again.",
  503: "The service is unavailable right now; try again shortly.",
};

/** Reads the message of any of the three error shapes (envelope, problem document, marketplace). */
export function errorMessage(status: number, body: unknown): string {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const detail = typeof b.detail === "string" ? b.detail : undefined;
    const fieldErrors = Array.isArray(b.errors)
      ? (b.errors as { path?: string; message?: string }[]).map((e) => `${e.path ? `${e.path}: ` : ""}${e.message ?? ""}`).join("; ")
      : "";
    const text = (typeof b.message === "string" && b.message) || detail || (typeof b.error === "string" && b.error) || "";
    if (text) return fieldErrors && !text.includes(fieldErrors) ? `${text} (${fieldErrors})` : text;
  }
  return FALLBACK[status] ?? `The request failed (HTTP ${status}).`;
}

/** An error in words: the service's own (with its field errors), else words for its status. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.code === "invalid_response" ? error.message : errorMessage(error.status, error.body);
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
