import { notFound } from "@cloudcost/http";
import type { RecommendationStateView, UpdateRecommendationStateRequest } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import { retireResourceRow, setRecommendationState } from "./lifecycle-repository";

const noSuchResource = (resourceId: string) => notFound(`No resource '${resourceId}' in this tenant's compute inventory`);

/**
 * Retires a resource (idempotent: retiring a retired resource is a success too); its history
 * stays, and upserting it again revives it.
 */
export async function retireResource(sql: SqlClient, tenant: TenantRef, resourceId: string): Promise<void> {
  if (!(await retireResourceRow(sql, tenant.id, resourceId, new Date()))) throw noSuchResource(resourceId);
}

/** Records the team's decision about a live resource's recommendation. */
export async function updateRecommendationState(
  sql: SqlClient,
  tenant: TenantRef,
  resourceId: string,
  body: UpdateRecommendationStateRequest,
): Promise<RecommendationStateView> {
  const row = await setRecommendationState(sql, tenant.id, resourceId, {
    state: body.state,
    reason: body.reason ?? null,
    snoozedUntil: body.state === "snoozed" ? (body.snoozed_until ?? null) : null,
  });
  if (!row) throw noSuchResource(resourceId);
  return row;
}
