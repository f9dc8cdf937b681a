import type { SqlClient } from "@cloudcost/db";
import type { Prisma } from "../db";
import { nodeHourRepository } from "../kubernetes/node-hours-repository";
import { findDailyCostMedians, findResourceIdsWithCommittedUsageSince } from "../spend/resource-costs-repository";
import type { AnalyzerRepositories } from "./analysis";
import { analysisRepository } from "./analysis-repository";
import { findHourlyCpu } from "./credit-repository";
import { inventoryRepository } from "./inventory-repository";
import { createInventoryService } from "./inventory-service";
import { lifecycleRepository } from "./lifecycle-repository";
import { createLifecycleService } from "./lifecycle-service";
import { recommendationRepository } from "./recommendation-repository";
import { createRecommendationService } from "./recommendation-service";
import { dayRollupRepository } from "./day-rollup-repository";
import { findStatsSince, findWindowStats, tailRepository } from "./rollup-repository";
import { sampleRepository } from "./sample-repository";
import { createSavingsService } from "./savings";

export type ComputeServices = ReturnType<typeof createComputeServices>;

/** The compute services, each over the repositories it uses (what the handlers, tests and benchmarks call). */
export function createComputeServices({ prisma, sql }: { prisma: Prisma; sql: SqlClient }) {
  return {
    inventory: createInventoryService({ prisma, sql, inventory: inventoryRepository, samples: sampleRepository, nodeHours: nodeHourRepository }),
    recommendations: createRecommendationService({ prisma, recommendations: recommendationRepository }),
    lifecycle: createLifecycleService({ sql, lifecycle: lifecycleRepository }),
    savings: createSavingsService({ sql, lifecycle: lifecycleRepository, resourceCosts: { findDailyCostMedians } }),
  };
}

/** The repositories of the analysis cycle (compute/analysis.ts, createAnalyzer). */
export const analyzerRepositories: AnalyzerRepositories = {
  days: dayRollupRepository,
  tail: tailRepository,
  analysis: analysisRepository,
  stats: { findWindowStats, findStatsSince },
  credits: { findHourlyCpu },
  commitments: { findResourceIdsWithCommittedUsageSince },
};
