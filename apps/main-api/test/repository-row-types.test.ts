// Each repository's raw statements, prepared on the migrated schema: the columns a statement
// returns must be the ones its column map declares, by name, order, PostgreSQL type and, where the
// plan shows a column read straight from a table, nullability (the map is what its TypeScript row
// type is derived from), so renaming a column or changing its type fails here rather than in
// production.
import type { CheckedStatement } from "@cloudcost/db";
import { compareStatementColumns, createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { checkedStatements as anomalyStatements } from "../src/anomalies/repository";
import { checkedStatements as apiKeyStatements } from "../src/api-keys/repository";
import { checkedStatements as authStatements } from "../src/auth/repository";
import { checkedStatements as budgetStatements } from "../src/budgets/notification-repository";
import { checkedStatements as businessMetricStatements } from "../src/business-metrics/repository";
import { checkedStatements as metricAmountStatements } from "../src/business-metrics/amounts-repository";
import { checkedStatements as statementStatements } from "../src/statements/repository";
import { checkedStatements as statementCostStatements } from "../src/statements/cost-repository";
import { checkedStatements as commitmentStatements } from "../src/commitments/repository";
import { checkedStatements as computeAnalysisStatements } from "../src/compute/analysis-repository";
import { checkedStatements as computeInventoryStatements } from "../src/compute/inventory-repository";
import { checkedStatements as computeRecommendationStatements } from "../src/compute/recommendation-repository";
import { checkedStatements as computeSampleStatements } from "../src/compute/sample-repository";
import { checkedStatements as kubernetesStatements } from "../src/kubernetes/repository";
import { checkedStatements as kubernetesAllocationStatements } from "../src/kubernetes/allocation-repository";
import { checkedStatements as kubernetesNodeHourStatements } from "../src/kubernetes/node-hours-repository";
import { checkedStatements as rollupStatements } from "../src/compute/rollup-repository";
import { checkedStatements as dayRollupStatements } from "../src/compute/day-rollup-repository";
import { checkedStatements as computeLifecycleStatements } from "../src/compute/lifecycle-repository";
import { checkedStatements as creditStatements } from "../src/compute/credit-repository";
import { checkedStatements as dimensionStatements } from "../src/dimensions/repository";
import { checkedStatements as dimensionRollupStatements } from "../src/dimensions/rollup-repository";
import { checkedStatements as dimensionSpendStatements } from "../src/spend/dimension-spend-repository";
import { checkedStatements as invitationStatements } from "../src/invitations/repository";
import { MIGRATIONS_DIR } from "../src/db";
import { checkedStatements as outboxStatements } from "../src/outbox/repository";
import { checkedStatements as forecastStatements } from "../src/spend/forecast/repository";
import { checkedStatements as importStatements } from "../src/spend/imports/repository";
import { checkedStatements as usageStatements } from "../src/spend/usage-repository";
import { checkedStatements as resourceCostStatements } from "../src/spend/resource-costs-repository";
import { checkedStatements as spendLineStatements } from "../src/spend/lines-repository";
import { checkedStatements as lineReadStatements } from "../src/spend/line-reads-repository";
import { checkedStatements as spendQueryStatements } from "../src/spend/spend-query-repository";
import { checkedStatements as userStatements } from "../src/users/repository";
import { checkedStatements as webhookStatements } from "../src/webhooks/repository";

const STATEMENTS: CheckedStatement[] = [
  ...budgetStatements(),
  ...anomalyStatements(),
  ...usageStatements(),
  ...spendLineStatements(),
  ...lineReadStatements(),
  ...spendQueryStatements(),
  ...importStatements(),
  ...forecastStatements(),
  ...userStatements(),
  ...apiKeyStatements(),
  ...invitationStatements(),
  ...outboxStatements(),
  ...webhookStatements(),
  ...dimensionStatements(),
  ...dimensionRollupStatements(),
  ...dimensionSpendStatements(),
  ...businessMetricStatements(),
  ...metricAmountStatements(),
  ...statementStatements(),
  ...statementCostStatements(),
  ...authStatements(),
  ...computeInventoryStatements(),
  ...computeSampleStatements(),
  ...computeAnalysisStatements(),
  ...computeRecommendationStatements(),
  ...commitmentStatements(),
  ...rollupStatements(),
  ...dayRollupStatements(),
  ...computeLifecycleStatements(),
  ...creditStatements(),
  ...resourceCostStatements(),
  ...kubernetesStatements(),
  ...kubernetesAllocationStatements(),
  ...kubernetesNodeHourStatements(),
];

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase(MIGRATIONS_DIR);
});
afterAll(async () => {
  await db?.close();
});

test.each(STATEMENTS.map((statement) => [statement.name, statement] as const))("%s: its columns are the declared ones", async (_, statement) => {
  const { actual, expected } = await compareStatementColumns(db, statement);
  expect(actual).toEqual(expected);
});
