import { backoffDelay, jittered } from "@cloudcost/http";
import type { Logger } from "pino";
import type { Prisma } from "../db";
import type { Prisma as PrismaNs } from "../generated/prisma/client";
import { claimDue, markDelivered, markFailed } from "./repository";

/** Delivers one message; throws when the receiver did not confirm (the message is retried). */
export type OutboxHandler = (payload: PrismaNs.JsonValue, organizationId: string) => Promise<void>;

/** Thrown by a handler that decides itself when its message is tried again (webhooks' own schedule). */
export class RetryAfter extends Error {
  constructor(
    message: string,
    readonly retryInMs: number,
  ) {
    super(message);
  }
}

export interface OutboxWorkerOptions {
  pollMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  batchSize?: number;
}

/**
 * Delivers outbox messages: on a timer (every `pollMs`), and at once after a commit that wrote one
 * (`kick`). Failures are retried with exponential backoff and jitter until the receiver confirms.
 */
export class OutboxWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly prisma: Prisma,
    private readonly logger: Logger,
    private readonly handlers: Record<string, OutboxHandler>,
    private readonly options: OutboxWorkerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
  }

  /** Starts a delivery round in the background (coalesced with one already running). */
  kick(): void {
    if (this.stopped) return;
    void this.drain().catch((err) => this.logger.error({ err }, "outbox delivery round failed"));
  }

  /** Delivers every message that is due now; resolves when the round (and any requested rerun) ends. */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.deliverBatch()) > 0);
        } while (this.again && !this.stopped);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async deliverBatch(): Promise<number> {
    const batch = await claimDue(this.prisma, this.options.batchSize ?? 20);
    for (const message of batch) {
      const handler = this.handlers[message.topic];
      try {
        if (!handler) throw new Error(`no handler for topic ${message.topic}`);
        await handler(message.payload, message.organizationId);
        await markDelivered(this.prisma, message);
      } catch (err) {
        const delay = err instanceof RetryAfter ? jittered(err.retryInMs, JITTER) : this.backoff(message.attempts);
        const reason = err instanceof Error ? err.message : String(err);
        this.logger.warn({ topic: message.topic, id: message.id, attempts: message.attempts, retryInMs: delay, reason }, "outbox delivery failed; will retry");
        await markFailed(this.prisma, message, reason, delay);
      }
    }
    return batch.length;
  }

  private backoff(attempts: number): number {
    return backoffDelay(attempts, { baseMs: this.options.backoffBaseMs, maxMs: this.options.backoffMaxMs, jitter: JITTER });
  }
}

/** +-20 %, so that messages that failed together are not retried together. */
const JITTER = 0.2;
