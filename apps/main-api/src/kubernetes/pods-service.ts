import { badRequest } from "@cloudcost/http";
import type { PodSample } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import { insertPodSamples, type PodArrays } from "./repository";

/** A sample may run a little ahead of our clock, not more (as utilization samples). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

// Inside double quotes an array element only needs `"` and `\` escaped.
const element = (text: string) => `"${text.replace(/["\\]/g, "\\$&")}"`;
const literal = (values: string[]) => `{${values.join(",")}}`;
const hourOf = (timestamp: string) => `${timestamp.slice(0, 13)}:00:00.000Z`;
const controllerOf = (s: PodSample) => (s.controller_kind || s.controller_name ? `${s.controller_kind ?? ""}/${s.controller_name ?? ""}` : "");

/** The batch as array literals, the last sample of a (cluster, namespace, pod, hour) winning. */
export function podBatch(samples: PodSample[]): PodArrays & { count: number } {
  const limit = Date.now() + MAX_CLOCK_SKEW_MS;
  const future = samples.findIndex((s) => Date.parse(s.timestamp) > limit);
  if (future >= 0) throw badRequest(`Invalid request: samples.${future}.timestamp: timestamp is in the future`);
  const latest = new Map<string, PodSample>();
  for (const s of samples) latest.set([s.cluster, s.namespace, s.pod, hourOf(s.timestamp)].join("\u0000"), s);
  const rows = [...latest.values()];
  const col = (pick: (s: PodSample) => string) => literal(rows.map(pick));
  const num = (value: number | undefined) => (value === undefined ? "NULL" : String(value));
  return {
    count: samples.length,
    clusters: col((s) => element(s.cluster)),
    namespaces: col((s) => element(s.namespace)),
    pods: col((s) => element(s.pod)),
    hours: col((s) => hourOf(s.timestamp)),
    nodes: col((s) => element(s.node)),
    controllers: col((s) => element(controllerOf(s))),
    labels: col((s) => element(JSON.stringify(s.labels ?? {}))),
    cpuRequests: col((s) => String(s.cpu_request_cores)),
    memoryRequests: col((s) => String(s.memory_request_gb)),
    cpuUsages: col((s) => num(s.cpu_usage_cores)),
    memoryUsages: col((s) => num(s.memory_usage_gb)),
  };
}

/** Stores the samples all or nothing; an unknown node (not a live `kubernetes_node` of this tenant) is a 400 naming it. */
export async function ingestPods(sql: SqlClient, tenant: TenantRef, batch: PodArrays & { count: number }): Promise<number> {
  const unknown = await insertPodSamples(sql, tenant.id, batch);
  if (unknown.length) {
    throw badRequest(
      `Unknown or retired node ${unknown.map((u) => `'${u.id}'`).join(", ")}: upsert it as a kubernetes_node with PUT /api/v1/tenant/compute/resources first; nothing was stored`,
    );
  }
  return batch.count;
}
