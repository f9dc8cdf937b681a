import type { z } from "zod";
import { badRequest, type FieldError } from "./http-error";

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join(".") : "(root)",
    message: issue.message,
  }));
}

/** Parses `input` with `schema`, or throws a 400 naming every invalid field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown, what = "request"): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const summary = errors
    .slice(0, 5)
    .map((e) => `${e.path}: ${e.message}`)
    .join("; ");
  throw badRequest(`Invalid ${what}: ${summary}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ""}`, errors);
}
