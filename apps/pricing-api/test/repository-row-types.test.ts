// Each repository's raw statements, prepared on the migrated schema: the columns a statement
// returns must be the ones its column map declares, by name, order, PostgreSQL type and, where the
// plan shows a column read straight from a table, nullability (the map is what its TypeScript row
// type is derived from), so renaming a column or changing its type fails here rather than in
// production.
import type { CheckedStatement } from "@cloudcost/db";
import { compareStatementColumns, createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";
import { checkedStatements as catalogStatements } from "../src/compute/catalog-repository";
import { checkedStatements as serviceTokenStatements } from "../src/internal/service-token-repository";
import { checkedStatements as commitmentRateStatements } from "../src/commitment-rates/repository";
import { checkedStatements as computeStatements } from "../src/compute-prices/repository";
import { checkedStatements as databaseStatements } from "../src/databases/repository";
import { checkedStatements as modelStatements } from "../src/models/repository";
import { checkedStatements as pinStatements } from "../src/references/pin-repository";
import { checkedStatements as reportStatements } from "../src/references/report-repository";

const STATEMENTS: CheckedStatement[] = [
  ...catalogStatements(),
  ...computeStatements(),
  ...commitmentRateStatements(),
  ...databaseStatements(),
  ...modelStatements(),
  ...pinStatements(),
  ...reportStatements(),
  ...serviceTokenStatements(),
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
