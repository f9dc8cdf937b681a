import { notFound } from "@cloudcost/http";
import type { RecommendationStateView, UpdateRecommendationStateRequest } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { LifecycleRepository } from "./lifecycle-repository";

const noSuchResource = (resourceId: string) => notFound(`No resource '${resourceId}' in this tenant's compute inventory`);

export interface LifecycleServiceDeps {
  sql: SqlClient;
  lifecycle: Pick<LifecycleRepository, "retireResourceRow" | "setRecommendationState">;
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;

/** Retiring a tenant's resources and deciding about their recommendations. */
export function createLifecycleService({ sql, lifecycle }: LifecycleServiceDeps) {
  return {
    /**
     * Retires a resource (idempotent: retiring a retired resource is a success too); its history
     * stays, and upserting it again revives it.
     */
    async retireResource(tenant: TenantRef, resourceId: string): Promise<void> {
      if (!(await lifecycle.retireResourceRow(sql, tenant.id, resourceId, new Date()))) throw noSuchResource(resourceId);
    },

    /** Records the team's decision about a live resource's recommendation. */
    async updateRecommendationState(tenant: TenantRef, resourceId: string, body: UpdateRecommendationStateRequest): Promise<RecommendationStateView> {
      const row = await lifecycle.setRecommendationState(sql, tenant.id, resourceId, {
        state: body.state,
        reason: body.reason ?? null,
        snoozedUntil: body.state === "snoozed" ? (body.snoozed_until ?? null) : null,
      });
      if (!row) throw noSuchResource(resourceId);
      return row;
    },
  };
}
