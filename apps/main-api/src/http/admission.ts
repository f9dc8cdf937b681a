import type { RouteDefinition } from "@cloudcost/contracts";
import { type Admission, createAdmission } from "@cloudcost/http";
import type { Config } from "../config";

/**
 * The classes of the main API's operations, each with its own concurrency limit and waiting line
 * (config MAIN_API_<CLASS>_CONCURRENCY / _QUEUE, MAIN_API_ADMISSION_WAIT_MS): agents' ingest
 * (metrics, heartbeats, inventory, pods, usage, business metric amounts: frequent, batched, retried by their senders), bill
 * uploads (long streams), other writes (analysis, detection and the console's edits) and reads. An
 * agent's burst of ingest fills the ingest line only: reads of every tenant keep their own slots.
 * Health probes are never limited.
 */
export type AdmissionClassName = "read" | "write" | "ingest" | "import";

const INGEST = new Set(["ingestMetrics", "recordHeartbeats", "upsertResources", "ingestPods", "ingestUsage", "postBusinessMetricValues"]);
const IMPORT = new Set(["createSpendImport"]);
const UNLIMITED = new Set(["mainHealthz", "mainReadyz"]);

export function admissionClassOf(route: RouteDefinition): AdmissionClassName | undefined {
  if (UNLIMITED.has(route.operationId)) return undefined;
  if (INGEST.has(route.operationId)) return "ingest";
  if (IMPORT.has(route.operationId)) return "import";
  return route.method === "get" ? "read" : "write";
}

export function createMainAdmission(config: Pick<Config, "admission">): Admission<AdmissionClassName> {
  return createAdmission(config.admission);
}
