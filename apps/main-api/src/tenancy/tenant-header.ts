import type { IncomingHttpHeaders } from "node:http";
import { ServiceId } from "@cloudcost/contracts";

export const TENANT_HEADER = "x-service-tenant-id";

/** The trimmed X-Service-Tenant-ID value; empty when the header is absent or blank. */
export function tenantHeaderValue(headers: IncomingHttpHeaders): string {
  const raw = headers[TENANT_HEADER];
  return (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
}

/** The tenant id a request names, when it names a well-formed one. */
export function namedTenantId(headers: IncomingHttpHeaders): string | undefined {
  const value = tenantHeaderValue(headers);
  return value && ServiceId.safeParse(value).success ? value : undefined;
}
