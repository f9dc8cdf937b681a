import { badRequest } from "@cloudcost/http";

/**
 * Opaque cursors: base64url of the last item's id. Lists are ordered by id (time-ordered ids), so
 * "after this id" is stable while items are added.
 */
export function encodeCursor(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId }), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after?: unknown };
    if (typeof parsed.after === "string" && parsed.after.length > 0 && parsed.after.length <= 64) return parsed.after;
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
