import { ServiceId } from "@cloudcost/contracts";
import { badRequest } from "@cloudcost/http";
import type { z } from "zod";

/**
 * Opaque cursors: base64url of `{"after": <last item's key>}`. Lists are ordered by that key (ids
 * are time-ordered), so "after this key" is stable while items are added.
 */
export function encodeCursor(lastKey: string): string {
  return Buffer.from(JSON.stringify({ after: lastKey }), "utf8").toString("base64url");
}

/**
 * The key a cursor points after, checked against the schema of the list's key (a service id by
 * default; a customer's resource id for the compute lists): a cursor no page could have produced
 * is a 400, never a query.
 */
export function decodeCursor(cursor: string | undefined, key: z.ZodType<string> = ServiceId): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after?: unknown };
    const after = key.safeParse(parsed?.after);
    if (after.success) return after.data;
  } catch {
    // fall through
  }
  throw badRequest("Invalid cursor: pass the next_cursor of a previous page unchanged.");
}

/** Splits a page fetched with `limit + 1` rows into items and the next cursor. */
export function toPage<T extends { id: string }, U>(rows: T[], limit: number, map: (row: T) => U): { items: U[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(items[items.length - 1].id) : null;
  return { items: items.map(map), next_cursor: next };
}
