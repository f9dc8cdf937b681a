import type { SqlClient } from "@cloudcost/db";
import { type MetricAmountsRepository, metricAmountsRepository } from "../business-metrics/amounts-repository";
import { type DimensionSpendRepository, dimensionSpendRepository } from "./dimension-spend-repository";
import { type SpendQueryRepository, spendQueryRepository } from "./spend-query-repository";

/**
 * What the spend reports read (query.ts, dimension-query.ts, unit-cost.ts, export-allocation.ts,
 * forecast/dimension-filter.ts), and the client they read it with: they receive the repositories
 * rather than import them, and a budget's status reads through the transaction it runs in.
 */
export interface SpendReads {
  sql: Pick<SqlClient, "query">;
  queries: SpendQueryRepository;
  dimensionSpend: DimensionSpendRepository;
  metricAmounts: MetricAmountsRepository;
}

/** The spend reads over `sql` with the service's repositories. */
export function spendReadsOver(sql: Pick<SqlClient, "query">): SpendReads {
  return { sql, queries: spendQueryRepository, dimensionSpend: dimensionSpendRepository, metricAmounts: metricAmountsRepository };
}
