import type { z } from "zod";

/** Parses `value`, failing the test with zod's issues when it is rejected. */
export function accept<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

/** Asserts that `value` is rejected; with `path`, that one issue points at it. */
export function reject(schema: z.ZodType, value: unknown, path?: (string | number)[]): z.core.$ZodIssue[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected failure, parsed ${JSON.stringify(result.data)}`);
  if (path) expect(result.error.issues.map((issue) => issue.path)).toContainEqual(path);
  return result.error.issues;
}
