import type { DimensionRule } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Logger } from "pino";
import type { Prisma } from "../db";
import type { OutboxWorker } from "../outbox";
import { emitWebhookEvent } from "../webhooks/events";
import { referencedDimensions } from "./conditions";
import { lockDimensions } from "./repository";
import { compileAssigner, rebuildChunk } from "./rollup";
import {
  chunkLines,
  clearTenantRows,
  lineChunks,
  markApplied,
  organizationsToApply,
  type RollupVersion,
  readRollupVersions,
  rebuildValueRows,
} from "./rollup-repository";

const nextMonth = (month: string) => {
  const [year, m] = month.split("-").map(Number);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`;
};

/** The keys whose values follow from `changed`: themselves and every dimension reading one of them, in turn. */
export function affectedKeys(changed: Set<string>, versions: RollupVersion[]): string[] {
  const affected = new Set(changed);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of versions) {
      if (affected.has(row.key)) continue;
      if ([...referencedDimensions(row.rules as DimensionRule[]).keys()].some((key) => affected.has(key))) {
        affected.add(row.key);
        grew = true;
      }
    }
  }
  return [...affected].sort();
}

/**
 * Rebuilds the dimension roll-up of the organization's versions still `processing` (and of the
 * dimensions reading them), one (tenant, UTC month) of lines per transaction under the
 * organization's dimension lock (read through the lines' tenant-leading index; line writers wait
 * for that chunk, then add their own lines), each month's shares made again from its rebuilt rows,
 * then marks
 * those versions applied and sends `dimension.applied` for each. A version stored meanwhile stays
 * processing for the next run. Answers the versions applied.
 */
export async function applyOrganizationDimensions(
  deps: { prisma: Prisma },
  organizationId: string,
): Promise<{ key: string; version: number; applied_at: string }[]> {
  const versions = await readRollupVersions(deps.prisma, organizationId);
  const processing = versions.filter((row) => row.status === "processing");
  if (processing.length === 0) return [];
  const asOf = processing.map((row) => row.created_at).sort()[processing.length - 1];
  const keys = affectedKeys(new Set(processing.map((row) => row.key)), versions);
  const chunks = await lineChunks(deps.prisma, organizationId);
  for (const month of [...new Set(chunks.map((chunk) => chunk.month))]) {
    const from = `${month}-01`;
    const to = `${nextMonth(month)}-01`;
    for (const chunk of chunks.filter((c) => c.month === month)) {
      await deps.prisma.$transaction(async (tx) => {
        await lockDimensions(tx, organizationId);
        const current = await readRollupVersions(tx, organizationId);
        const present = keys.filter((key) => current.some((row) => row.key === key));
        await clearTenantRows(tx, organizationId, keys, chunk.tenant_id, from, to);
        if (present.length === 0) return;
        const range = [`${from}T00:00:00Z`, `${to}T00:00:00Z`];
        const unallocated = chunk.tenant_id === "";
        await rebuildChunk(tx, organizationId, chunkLines(unallocated), unallocated ? range : [chunk.tenant_id, ...range], compileAssigner(current), present);
      }, TRANSACTION_OPTIONS);
    }
    // The month's shares from its rebuilt rows, every tenant at once (writers in between added theirs to both tables).
    await deps.prisma.$transaction(async (tx) => {
      await lockDimensions(tx, organizationId);
      await rebuildValueRows(tx, organizationId, keys, from, to);
    }, TRANSACTION_OPTIONS);
  }
  return deps.prisma.$transaction(async (tx) => {
    await lockDimensions(tx, organizationId);
    const applied = await markApplied(tx, organizationId, keys, asOf);
    for (const row of applied)
      await emitWebhookEvent(tx, {
        organizationId,
        type: "dimension.applied",
        data: { dimension_key: row.key, version: row.version, applied_at: row.applied_at },
      });
    return applied;
  }, TRANSACTION_OPTIONS);
}

/** Applies new dimension versions in the background: at once when told (`kick`), and on a schedule for what a restart left processing. */
export interface DimensionApplier {
  /** An organization stored a version: apply it soon (in this process). */
  kick(organizationId: string): void;
  /** Applies every organization's processing versions now, after any run in progress; answers when done. */
  runNow(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createDimensionApplier(deps: { prisma: Prisma; logger: Logger; outbox: OutboxWorker; intervalMs: number }): DimensionApplier {
  let chain: Promise<void> = Promise.resolve();
  let periodic: Periodic | undefined;
  let stopped = false;
  const applyAll = async () => {
    let sent = 0;
    for (const { organization_id } of await organizationsToApply(deps.prisma, 100)) sent += (await applyOrganizationDimensions(deps, organization_id)).length;
    if (sent > 0) deps.outbox.kick();
  };
  const onError = (err: unknown) => deps.logger.error({ err }, "applying dimension versions failed; the next run retries");
  // Runs one after another: two rebuilds of one organization never interleave in this process.
  const queue = (work: () => Promise<void>) => {
    chain = chain.then(work).catch(onError);
    return chain;
  };
  return {
    kick(organizationId) {
      if (stopped) return;
      void queue(async () => {
        if ((await applyOrganizationDimensions(deps, organizationId)).length > 0) deps.outbox.kick();
      });
    },
    runNow: () => queue(applyAll),
    start() {
      if (stopped || periodic || deps.intervalMs <= 0) return;
      periodic = startPeriodic({ intervalMs: deps.intervalMs, runAtStart: true, run: () => queue(applyAll), onError });
    },
    async stop() {
      stopped = true;
      await periodic?.stop();
      await chain;
    },
  };
}
