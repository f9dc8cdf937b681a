import { badRequest } from "@cloudcost/http";
import type { ComputeResourceData, HeartbeatsRequest, MetricSample } from "@cloudcost/contracts";
import { type SqlClient, TRANSACTION_OPTIONS } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { TenantRef } from "../context";
import type { NodeHourRepository } from "../kubernetes/node-hours-repository";
import type { InventoryRepository } from "./inventory-repository";
import type { SampleArrays, SampleRepository } from "./sample-repository";

/** A sample may run a little ahead of our clock, not more. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const unknownResources = (unknown: { id: string }[]) =>
  badRequest(
    `Unknown or retired resource_id ${unknown.map((u) => `'${u.id}'`).join(", ")}: upsert the resource with PUT /api/v1/tenant/compute/resources first; nothing was stored`,
  );

function assertNotFuture(timestamps: string[], field: string) {
  const limit = Date.now() + MAX_CLOCK_SKEW_MS;
  const index = timestamps.findIndex((t) => Date.parse(t) > limit);
  if (index >= 0) throw badRequest(`Invalid request: ${field.replace("#", String(index))}: timestamp is in the future`);
}

/**
 * A validated batch as the four PostgreSQL array literals INGEST_SQL takes, built before the
 * database round trip so that the request's parsed body can be garbage before the statement runs,
 * and joined here because the driver's per-element concatenation allocates far more
 * (docs/performance.md, "Metric ingest").
 */
export interface SampleBatch extends SampleArrays {
  count: number;
}

// Inside double quotes an array element only needs `"` and `\` escaped.
const arrayElement = (text: string) => `"${text.replace(/["\\]/g, "\\$&")}"`;

export function sampleBatch(samples: MetricSample[]): SampleBatch {
  assertNotFuture(
    samples.map((s) => s.timestamp),
    "samples.#.timestamp",
  );
  // ON CONFLICT cannot touch one row twice in a statement: the last sample of a (resource, timestamp) wins.
  const latest = new Map<string, MetricSample>();
  for (const s of samples) latest.set(`${s.resource_id}\u0000${s.timestamp}`, s);
  const rows = latest.size === samples.length ? samples : [...latest.values()];
  return {
    count: samples.length,
    resourceIds: `{${rows.map((s) => arrayElement(s.resource_id)).join(",")}}`,
    // Timestamps come out of the contract normalised (2026-11-24T19:36:25.000Z) and numbers as
    // JavaScript writes them: neither holds a character an array literal would need quoted.
    timestamps: `{${rows.map((s) => s.timestamp).join(",")}}`,
    cpu: `{${rows.map((s) => s.cpu_utilization).join(",")}}`,
    memory: `{${rows.map((s) => s.memory_utilization ?? "NULL").join(",")}}`,
    networkIn: `{${rows.map((s) => s.network_in_bytes_per_s ?? "NULL").join(",")}}`,
    networkOut: `{${rows.map((s) => s.network_out_bytes_per_s ?? "NULL").join(",")}}`,
  };
}

export interface InventoryServiceDeps {
  /** Opens the transactions; every statement goes through the repositories. */
  prisma: Prisma;
  /** The driver the samples are sent through (ingest). */
  sql: SqlClient;
  inventory: InventoryRepository;
  samples: SampleRepository;
  /** A heartbeat of a Kubernetes node makes it billed for that hour (kubernetes/node-hours-repository.ts). */
  nodeHours: NodeHourRepository;
}

export type InventoryService = ReturnType<typeof createInventoryService>;

/** The inventory of one tenant: its resources, their samples and heartbeats. */
export function createInventoryService({ prisma, sql, inventory, samples, nodeHours }: InventoryServiceDeps) {
  return {
    /** PUT semantics: every attribute is replaced (absent ones become null); analysis results are kept. */
    upsertResources(tenant: TenantRef, resources: ComputeResourceData[]): Promise<number> {
      const now = new Date();
      return prisma.$transaction((tx) => inventory.upsertResourceRows(tx, tenant, resources, now), TRANSACTION_OPTIONS);
    },

    /**
     * Stores samples all or nothing; a repeated (resource, timestamp) keeps the last value sent.
     * Sent through the driver, which does not walk every array element as Prisma's raw-query layer
     * does, and prepared by name so it is parsed and planned once (docs/performance.md, "Metric ingest").
     */
    async ingestMetrics(tenant: TenantRef, batch: SampleBatch): Promise<number> {
      const unknown = await samples.insertSamples(sql, tenant.id, batch);
      if (unknown.length) throw unknownResources(unknown);
      return batch.count;
    },

    async recordHeartbeats(tenant: TenantRef, body: HeartbeatsRequest): Promise<number> {
      const at = body.timestamp ?? new Date().toISOString();
      assertNotFuture([at], "timestamp");
      const ids = [...new Set(body.resource_ids)];
      await prisma.$transaction(async (tx) => {
        const unknown = await inventory.findUnknownResources(tx, tenant.id, ids);
        if (unknown.length) throw unknownResources(unknown);
        await inventory.bumpHeartbeats(tx, tenant.id, ids, at);
        await nodeHours.recordNodeHeartbeatHours(tx, tenant.id, ids, at);
      });
      return ids.length;
    },
  };
}
