import { z } from "zod";

const MISSING_TENANT = "Missing X-Service-Tenant-ID header: send the id of the tenant to act on.";
const MALFORMED_TENANT = "Malformed X-Service-Tenant-ID header: expected a tenant id (1-64 characters of A-Z a-z 0-9 _ -).";

/** The tenant a tenant-scoped main API operation acts on (trimmed; the id rule of ServiceId). */
export const TenantIdHeader = z
  .string({ error: MISSING_TENANT })
  .trim()
  .min(1, MISSING_TENANT)
  .max(64, MALFORMED_TENANT)
  .regex(/^[A-Za-z0-9_-]+$/, MALFORMED_TENANT)
  .meta({
    description: "The tenant the request acts on: its id, 1-64 characters of A-Z a-z 0-9 _ -.",
    override: { type: "string", minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" },
  });

export const TenantHeaders = z.object({ "X-Service-Tenant-ID": TenantIdHeader });
