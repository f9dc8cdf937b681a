import type { ComputeResourceInput, MetricSample } from "@cloudcost/contracts";

const MINUTE = 60_000;

/**
 * `count` samples of one resource, `stepMinutes` apart, the last one a minute ago; `cpu(i)` and
 * `memory(i)` give the values (memory omitted when `memory` is not given).
 */
export function samplesFor(
  resourceId: string,
  count: number,
  stepMinutes: number,
  cpu: (i: number) => number,
  memory?: (i: number) => number,
  endAgoMinutes = 1,
): MetricSample[] {
  const end = Date.now() - endAgoMinutes * MINUTE;
  return Array.from({ length: count }, (_, i) => ({
    resource_id: resourceId,
    timestamp: new Date(end - (count - 1 - i) * stepMinutes * MINUTE).toISOString(),
    cpu_utilization: cpu(i),
    ...(memory ? { memory_utilization: memory(i) } : {}),
  }));
}

/** 48 samples over 47 hours whose nearest-rank p95 is `p95` and maximum `max` (rank 46 of 48 = p95). */
export function shaped(resourceId: string, p95: number, max: number, memoryP95?: number, endAgoMinutes = 1): MetricSample[] {
  const value = (p: number, top: number) => (i: number) => (i === 47 ? top : i >= 45 ? p : p / 2);
  const memory = memoryP95 === undefined ? undefined : value(memoryP95, memoryP95);
  return samplesFor(resourceId, 48, 60, value(p95, max), memory, endAgoMinutes);
}

export const vm = (resource_id: string, instance_type: string, extra: Partial<ComputeResourceInput> = {}): ComputeResourceInput => ({
  resource_id,
  name: `name of ${resource_id}`,
  resource_type: "virtual_machine",
  provider: "aws",
  region: "us-east-1",
  availability_zone: "us-east-1a",
  instance_type,
  architecture: "x86_64",
  operating_system: "linux",
  ...extra,
});
