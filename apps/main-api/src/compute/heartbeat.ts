/**
 * When a resource counts as active: its last heartbeat (a heartbeats call or a metric sample) is
 * younger than the active window (decisions.md). Metric samples arrive far more often than that
 * needs resolving, so ingest moves the stored `last_heartbeat_at` only when a sample is more than
 * the slack newer than it: a fleet sending every few seconds rewrote every resource row with every
 * batch, and concurrent batches of the same resources queued on those row locks (1000-sample
 * batches: ~20 of ~40 ms per statement; the analysis cycle's write waited on them too).
 *
 * The answer stays exact. Invariant: the newest heartbeat H is max(stored S, newest sample), and
 * S >= H - slack (a sample more than the slack newer than S moves S; heartbeats calls always do).
 * So S inside the window means active, S older than window + slack means inactive, and only in the
 * band between does a sample newer than the window decide (one primary-key probe per resource in
 * the band). Retention keeps every sample newer than S (analysis.ts), so the probe never misses one.
 */
export const HEARTBEAT_SLACK_SECONDS = 60;

/**
 * SQL boolean (never null): the compute_resources row in scope is active. `windowParam` is the
 * placeholder of the window in minutes, `tenantParam` the tenant's.
 */
export function activeSql(windowParam: string, tenantParam = "$1"): string {
  const since = `now() - make_interval(mins => ${windowParam}::int)`;
  return `COALESCE(last_heartbeat_at > ${since}
    OR (last_heartbeat_at > ${since} - interval '${HEARTBEAT_SLACK_SECONDS} seconds'
        AND EXISTS (SELECT 1 FROM compute_samples hs
                    WHERE hs.tenant_id = ${tenantParam} AND hs.resource_id = compute_resources.resource_id AND hs.ts > ${since})), false)`;
}
