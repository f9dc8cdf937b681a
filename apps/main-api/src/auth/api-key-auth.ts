import { hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { Logger } from "pino";
import type { Prisma } from "../db";
import type { Principal } from "./principal";

const TOUCH_INTERVAL_MS = 60_000;
// Per process: when each key's last_used_at was last written, so a busy key costs one write a minute.
const lastTouched = new Map<string, number>();

/** The principal of a `bl_` key, or a 401 for a malformed, unknown or revoked one. */
export async function authenticateApiKey(prisma: Prisma, logger: Logger, key: string): Promise<Principal> {
  // Format and checksum first: a mistyped or made-up key costs no database read.
  if (!isWellFormedApiKey(key)) throw unauthenticated("Malformed API key: expected bl_ followed by 42 letters and digits.");
  const row = await prisma.apiKey.findUnique({
    where: { keyHash: hashApiKey(key) },
    select: { organizationId: true, id: true, role: true, tenantIds: true, revokedAt: true },
  });
  if (!row || row.revokedAt) throw unauthenticated("Unknown or revoked API key.");
  touch(prisma, logger, row.organizationId, row.id);
  return { kind: "api_key", organizationId: row.organizationId, userId: null, role: row.role, tenantIds: row.tenantIds, apiKeyId: row.id };
}

/** Records use in the background (never awaited on the request path), at most once a minute per key. */
function touch(prisma: Prisma, logger: Logger, organizationId: string, id: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(id, now);
  const cutoff = new Date(now - TOUCH_INTERVAL_MS);
  prisma.apiKey
    .updateMany({
      // The condition keeps replicas to one write a minute as well.
      where: { organizationId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch((err: unknown) => logger.warn({ err }, "could not record API key use"));
}
