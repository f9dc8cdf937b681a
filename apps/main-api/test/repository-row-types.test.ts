// Each repository's raw statements, prepared on the migrated schema: the columns a statement
// returns must be the ones its column map declares, by name, order and PostgreSQL type (the map is
// what its TypeScript row type is derived from), so renaming a column or changing its type fails
// here rather than in production.
import type { SqlSession } from "@cloudcost/db";
import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { checkedStatements as anomalyStatements } from "../src/anomalies/repository";
import { checkedStatements as apiKeyStatements } from "../src/api-keys/repository";
import { checkedStatements as budgetStatements } from "../src/budgets/repository";
import { MIGRATIONS_DIR } from "../src/db";
import { checkedStatements as importStatements } from "../src/spend/imports/repository";
import { checkedStatements as usageStatements } from "../src/spend/usage-repository";
import { checkedStatements as userStatements } from "../src/users/repository";
import type { CheckedStatement } from "../src/sql-columns";

const STATEMENTS: CheckedStatement[] = [
  ...budgetStatements(),
  ...anomalyStatements(),
  ...usageStatements(),
  ...importStatements(),
  ...userStatements(),
  ...apiKeyStatements(),
];

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase(MIGRATIONS_DIR);
});
afterAll(async () => {
  await db?.close();
});

/**
 * The statement's result columns: prepared (which resolves every table and column it names), then
 * materialised as an empty temporary table with NULL parameters (planned, not run), whose columns
 * the catalog lists.
 */
async function resultColumns(session: SqlSession, sql: string, returnsRows: boolean): Promise<Record<string, string> | null> {
  await session.exec("BEGIN");
  try {
    await session.exec(`PREPARE checked AS ${sql}`);
    if (!returnsRows) return null;
    const [{ n }] = await session.query<{ n: number }>(`SELECT cardinality(parameter_types) AS n FROM pg_prepared_statements WHERE name = 'checked'`);
    const args = n > 0 ? `(${Array.from({ length: n }, () => "NULL").join(", ")})` : "";
    await session.exec(`CREATE TEMP TABLE checked_result AS EXECUTE checked${args} WITH NO DATA`);
    const rows = await session.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, t.typname AS type FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = 'checked_result'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.type]));
  } finally {
    await session.exec("ROLLBACK; DEALLOCATE ALL");
  }
}

const declared = (statement: CheckedStatement) =>
  statement.columns && Object.fromEntries(Object.entries(statement.columns).map(([name, type]) => [name, type.replace(/ null$/, "")]));

test.each(STATEMENTS.map((statement) => [statement.name, statement] as const))("%s: its columns are the declared ones", async (_, statement) => {
  const actual = await db.sql.withSession((session) => resultColumns(session, statement.sql, statement.columns !== null));
  expect(actual).toEqual(declared(statement));
  if (actual) expect(Object.keys(actual)).toEqual(Object.keys(statement.columns ?? {}));
});
