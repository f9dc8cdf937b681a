import type { Logger } from "pino";
import type { Prisma } from "../db";

const TOUCH_INTERVAL_MS = 60_000;

/** Records when API keys are used (`last_used_at`), so a busy key costs one write a minute. */
export class KeyUseRecorder {
  /** When each key's last_used_at was last written by this process. */
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly prisma: Prisma,
    private readonly logger: Logger,
  ) {}

  /** Records use in the background (never awaited on the request path). */
  touch(organizationId: string, id: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(id, now);
    const cutoff = new Date(now - TOUCH_INTERVAL_MS);
    this.prisma.apiKey
      .updateMany({
        // The condition keeps replicas to one write a minute as well.
        where: { organizationId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
        data: { lastUsedAt: new Date(now) },
      })
      .catch((err: unknown) => this.logger.warn({ err }, "could not record API key use"));
  }
}
