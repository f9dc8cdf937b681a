import { badRequest } from "@cloudcost/http";
import type { PodSample } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import { insertPodSamples, type PodArrays } from "./repository";

/** A sample may run a little ahead of our clock, not more (as utilization samples). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

// Inside double quotes an array element only needs `"` and `\` escaped.
const NEEDS_ESCAPE = /["\\]/;
const element = (text: string) => (NEEDS_ESCAPE.test(text) ? `"${text.replace(/["\\]/g, "\\$&")}"` : `"${text}"`);
const hourOf = (timestamp: string) => `${timestamp.slice(0, 13)}:00:00.000Z`;
const controllerOf = (s: PodSample) => (s.controller_kind || s.controller_name ? `${s.controller_kind ?? ""}/${s.controller_name ?? ""}` : "");
const numberOrNull = (value: number | undefined) => (value === undefined ? "NULL" : String(value));

/**
 * The batch as array literals, the last sample of a (cluster, namespace, pod, hour) winning, in the
 * order of the claim roll-ups' keys (hour, node, cluster, namespace, controller, then pod): the
 * database groups the rows by them, and finds them sorted.
 */
export function podBatch(samples: PodSample[]): PodArrays & { count: number } {
  // Timestamps arrive normalised (UTC, milliseconds), so they compare as strings.
  const limit = new Date(Date.now() + MAX_CLOCK_SKEW_MS).toISOString();
  const future = samples.findIndex((s) => s.timestamp > limit);
  if (future >= 0) throw badRequest(`Invalid request: samples.${future}.timestamp: timestamp is in the future`);
  const latest = new Map<string, PodSample>();
  for (const s of samples) latest.set(`${hourOf(s.timestamp)}\u0000${s.cluster}\u0000${s.namespace}\u0000${s.pod}`, s);
  const ordered = [...latest.values()].map((s) => ({
    s,
    key: `${hourOf(s.timestamp)}\u0000${s.node}\u0000${s.cluster}\u0000${s.namespace}\u0000${controllerOf(s)}\u0000${s.pod}`,
  }));
  ordered.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const columns: Record<keyof PodArrays, string[]> = {
    clusters: [],
    namespaces: [],
    pods: [],
    hours: [],
    nodes: [],
    controllers: [],
    labels: [],
    cpuRequests: [],
    memoryRequests: [],
    cpuUsages: [],
    memoryUsages: [],
  };
  // One pass over the rows (a batch has up to 10,000): this runs on every ingest.
  for (const { s } of ordered) {
    columns.clusters.push(element(s.cluster));
    columns.namespaces.push(element(s.namespace));
    columns.pods.push(element(s.pod));
    columns.hours.push(hourOf(s.timestamp));
    columns.nodes.push(element(s.node));
    columns.controllers.push(element(controllerOf(s)));
    columns.labels.push(element(JSON.stringify(s.labels ?? {})));
    columns.cpuRequests.push(String(s.cpu_request_cores));
    columns.memoryRequests.push(String(s.memory_request_gb));
    columns.cpuUsages.push(numberOrNull(s.cpu_usage_cores));
    columns.memoryUsages.push(numberOrNull(s.memory_usage_gb));
  }
  const literal = (values: string[]) => `{${values.join(",")}}`;
  return {
    count: samples.length,
    clusters: literal(columns.clusters),
    namespaces: literal(columns.namespaces),
    pods: literal(columns.pods),
    hours: literal(columns.hours),
    nodes: literal(columns.nodes),
    controllers: literal(columns.controllers),
    labels: literal(columns.labels),
    cpuRequests: literal(columns.cpuRequests),
    memoryRequests: literal(columns.memoryRequests),
    cpuUsages: literal(columns.cpuUsages),
    memoryUsages: literal(columns.memoryUsages),
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
