import { backoffDelay, jittered, type Periodic, startPeriodic } from "@cloudcost/http";
import type { Logger } from "pino";
import type { Prisma } from "../db";
import type { Prisma as PrismaNs } from "../generated/prisma/client";
import { claimDue, claimFair, markDelivered, markFailed, type OutboxMessage } from "./repository";

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

/**
 * A queue of the outbox: the topics one delivery loop claims. Without `concurrency` its messages
 * go out one at a time in due order; with it (one topic only), up to `perOrganization` messages of
 * one organization are in flight at once, counted across every replica, and up to `total` in this
 * process, the organizations' due messages claimed fairly (each gets its own slots).
 */
export interface OutboxQueue {
  name: string;
  topics: string[];
  concurrency?: { perOrganization: number; total: number };
}

export interface OutboxWorkerOptions {
  pollMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  batchSize?: number;
  /** Each queue has its own loop, so none waits behind another's deliveries; by default one queue of every handler's topic. */
  queues?: OutboxQueue[];
}

/**
 * Delivers outbox messages: on a timer (every `pollMs`), and at once after a commit that wrote one
 * (`kick`), each queue in its own loop. Failures are retried with exponential backoff and jitter
 * until the receiver confirms.
 */
export class OutboxWorker {
  private poll?: Periodic;
  private readonly queues: Queue[];

  constructor(
    prisma: Prisma,
    logger: Logger,
    handlers: Record<string, OutboxHandler>,
    private readonly options: OutboxWorkerOptions,
  ) {
    const queues = options.queues ?? [{ name: "outbox", topics: Object.keys(handlers) }];
    this.queues = queues.map((queue) =>
      queue.concurrency ? new ConcurrentQueue(prisma, logger, handlers, options, queue) : new SequentialQueue(prisma, logger, handlers, options, queue),
    );
  }

  start(): void {
    for (const queue of this.queues) queue.stopped = false;
    // A kick only starts the rounds (it never throws): the poll keeps its pace whatever they take.
    this.poll = startPeriodic({ intervalMs: this.options.pollMs, run: async () => this.kick(), onError: () => undefined });
  }

  /** Starts a delivery round of every queue in the background (coalesced with one already running). */
  kick(): void {
    for (const queue of this.queues) queue.kick();
  }

  /** Delivers every message that is due now; resolves when every queue's round (and any requested rerun) ends. */
  async drain(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.drain()));
  }

  /** Stops claiming; resolves when the deliveries in flight have ended. */
  async stop(): Promise<void> {
    await this.poll?.stop();
    this.poll = undefined;
    await Promise.all(this.queues.map((queue) => queue.stop()));
  }
}

abstract class Queue {
  stopped = false;

  constructor(
    protected readonly prisma: Prisma,
    protected readonly logger: Logger,
    private readonly handlers: Record<string, OutboxHandler>,
    private readonly options: OutboxWorkerOptions,
    protected readonly queue: OutboxQueue,
  ) {}

  abstract drain(): Promise<void>;
  abstract stop(): Promise<void>;
  /** What a kick starts: a round of claims and deliveries, not waited for. */
  protected abstract round(): Promise<void>;

  kick(): void {
    if (this.stopped) return;
    void this.round().catch((err) => this.logger.error({ err, queue: this.queue.name }, "outbox delivery round failed"));
  }

  protected get batchSize(): number {
    return this.options.batchSize ?? 20;
  }

  /** One attempt at one message: delivered when its handler confirms, otherwise given back with the time of its next attempt. */
  protected async deliver(message: OutboxMessage): Promise<void> {
    const handler = this.handlers[message.topic];
    try {
      if (!handler) throw new Error(`no handler for topic ${message.topic}`);
      await handler(message.payload, message.organizationId);
      await markDelivered(this.prisma, message);
    } catch (err) {
      const delay = err instanceof RetryAfter ? jittered(err.retryInMs, JITTER) : this.backoff(message.attempts);
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn(
        { queue: this.queue.name, topic: message.topic, id: message.id, attempts: message.attempts, retryInMs: delay, reason },
        "outbox delivery failed; will retry",
      );
      await markFailed(this.prisma, message, reason, delay);
    }
  }

  private backoff(attempts: number): number {
    return backoffDelay(attempts, { baseMs: this.options.backoffBaseMs, maxMs: this.options.backoffMaxMs, jitter: JITTER });
  }
}

/** One message at a time, in due order (the API keys mirrored to the pricing API: few, fast, ordered per key). */
class SequentialQueue extends Queue {
  private running?: Promise<void>;
  private again = false;

  protected round(): Promise<void> {
    return this.drain();
  }

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
    await this.running?.catch(() => undefined);
  }

  private async deliverBatch(): Promise<number> {
    const batch = await claimDue(this.prisma, this.queue.topics, this.batchSize);
    for (const message of batch) await this.deliver(message);
    return batch.length;
  }
}

/**
 * Deliveries side by side (webhooks: each may wait for its receiver's deadline): a claim fills the
 * free slots, and each delivery that ends claims again.
 */
class ConcurrentQueue extends Queue {
  private readonly inFlight = new Set<Promise<void>>();
  private claiming?: Promise<void>;
  private again = false;

  constructor(...args: ConstructorParameters<typeof SequentialQueue>) {
    super(...args);
    if (this.queue.topics.length !== 1) throw new Error(`outbox queue ${this.queue.name}: a concurrent queue claims exactly one topic`);
  }

  /** Fills the free slots, then waits for the deliveries in flight, until nothing is due and none is in flight. */
  async drain(): Promise<void> {
    for (;;) {
      await this.fill();
      if (this.inFlight.size === 0) return;
      await Promise.race(this.inFlight);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.claiming?.catch(() => undefined);
    await Promise.all(this.inFlight);
  }

  /** A kick fills the free slots; the deliveries it starts run on their own. */
  protected round(): Promise<void> {
    return this.fill();
  }

  /** Claims due messages for the free slots and starts each (coalesced with a claim already running). */
  private fill(): Promise<void> {
    if (this.claiming) {
      this.again = true;
      return this.claiming;
    }
    // Cleared in a callback, which runs after the assignment even when no claim was needed.
    const claiming: Promise<void> = this.claimRounds().finally(() => {
      if (this.claiming === claiming) this.claiming = undefined;
    });
    this.claiming = claiming;
    return claiming;
  }

  private async claimRounds(): Promise<void> {
    const { perOrganization, total } = this.queue.concurrency ?? { perOrganization: 1, total: 1 };
    do {
      this.again = false;
      for (;;) {
        const wanted = Math.min(total - this.inFlight.size, this.batchSize);
        if (this.stopped || wanted <= 0) break;
        const batch = await claimFair(this.prisma, this.queue.topics[0], wanted, perOrganization);
        for (const message of batch) this.begin(message);
        if (batch.length < wanted) break;
      }
    } while (this.again && !this.stopped);
  }

  private begin(message: OutboxMessage): void {
    const delivery: Promise<void> = this.deliver(message)
      .catch((err) => this.logger.error({ err, queue: this.queue.name, id: message.id }, "outbox delivery could not be recorded"))
      .finally(() => {
        this.inFlight.delete(delivery);
        // A slot is free: claim the next due message.
        this.kick();
      });
    this.inFlight.add(delivery);
  }
}

/** +-20 %, so that messages that failed together are not retried together. */
const JITTER = 0.2;
