import { badRequest } from "@cloudcost/http";
import type { PodSample } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { KubernetesRepository, PodRow, PodRows } from "./repository";

/** A sample may run a little ahead of our clock, not more (as utilization samples). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const hourOf = (timestamp: string) => `${timestamp.slice(0, 13)}:00:00.000Z`;
const controllerOf = (s: PodSample) => (s.controller_kind || s.controller_name ? `${s.controller_kind ?? ""}/${s.controller_name ?? ""}` : "");

/**
 * The batch as one JSON array of rows, the last sample of a (cluster, namespace, pod, hour)
 * winning, in the order of the claim roll-ups' keys (hour, node, cluster, namespace, controller,
 * then pod): the database groups the rows by them, and finds them sorted. One JSON.stringify is a
 * fraction of what escaping eleven array literals element by element cost (8 against 43 ms for
 * 10,000 samples), and the database reads it no slower.
 */
export function podBatch(samples: PodSample[]): PodRows {
  // Timestamps arrive normalised (UTC, milliseconds), so they compare as strings.
  const limit = new Date(Date.now() + MAX_CLOCK_SKEW_MS).toISOString();
  const future = samples.findIndex((s) => s.timestamp > limit);
  if (future >= 0) throw badRequest(`Invalid request: samples.${future}.timestamp: timestamp is in the future`);
  const latest = new Map<string, PodSample>();
  for (const s of samples) latest.set(`${hourOf(s.timestamp)}\u0000${s.cluster}\u0000${s.namespace}\u0000${s.pod}`, s);
  const ordered = [...latest.values()].map((s) => {
    const hour = hourOf(s.timestamp);
    const controller = controllerOf(s);
    return { s, hour, controller, key: `${hour}\u0000${s.node}\u0000${s.cluster}\u0000${s.namespace}\u0000${controller}\u0000${s.pod}` };
  });
  ordered.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows: PodRow[] = ordered.map(({ s, hour, controller }) => [
    s.cluster,
    s.namespace,
    s.pod,
    hour,
    s.node,
    controller,
    s.labels ?? {},
    s.cpu_request_cores,
    s.memory_request_gb,
    s.cpu_usage_cores ?? null,
    s.memory_usage_gb ?? null,
    s.gpu_request ?? 0,
  ]);
  return { count: samples.length, clusters: [...new Set(rows.map((r) => r[0]))], rows: JSON.stringify(rows) };
}

export interface PodServiceDeps {
  /** Pod ingest opens its own session (repository.ts, insertPodSamples). */
  sql: SqlClient;
  pods: Pick<KubernetesRepository, "insertPodSamples">;
}

export type PodService = ReturnType<typeof createPodService>;

/** Pod samples of the tenant (authorize selected the tenant); the batch is built by podBatch. */
export function createPodService({ sql, pods }: PodServiceDeps) {
  return {
    /** Stores the samples all or nothing; an unknown node (not a live `kubernetes_node` of this tenant) is a 400 naming it. */
    async ingestPods(tenant: TenantRef, batch: PodRows): Promise<number> {
      const unknown = await pods.insertPodSamples(sql, tenant.id, batch);
      if (unknown.length) {
        throw badRequest(
          `Unknown or retired node ${unknown.map((u) => `'${u.id}'`).join(", ")}: upsert it as a kubernetes_node with PUT /api/v1/tenant/compute/resources first; nothing was stored`,
        );
      }
      return batch.count;
    },
  };
}
