import { z } from "zod";

/** Trimmed, non-blank text of at most 200 characters. */
export const Text200 = z.string().trim().min(1).max(200);
export const OptionalText200 = z.string().trim().max(200);

export type Page<T extends z.ZodType> = z.ZodObject<{ items: z.ZodArray<T>; next_cursor: z.ZodNullable<z.ZodString> }, z.core.$strip>;

/** A page of `item`; `next_cursor` is null on the last page. */
export function Page<T extends z.ZodType>(item: T): Page<T> {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}
