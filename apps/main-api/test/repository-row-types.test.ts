// Each repository's raw statements, prepared on the migrated schema: the columns a statement
// returns must be the ones its column map declares, by name, order and PostgreSQL type (the map is
// what its TypeScript row type is derived from), so renaming a column or changing its type fails
// here rather than in production. An INSERT, UPDATE or DELETE ... RETURNING is read through a CTE.
import type { SqlSession } from "@cloudcost/db";
import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { checkedStatements as anomalyStatements } from "../src/anomalies/repository";
import { checkedStatements as apiKeyStatements } from "../src/api-keys/repository";
import { checkedStatements as authStatements } from "../src/auth/repository";
import { checkedStatements as budgetStatements } from "../src/budgets/repository";
import { checkedStatements as computeStatements } from "../src/compute/repository";
import { checkedStatements as kubernetesStatements } from "../src/kubernetes/repository";
import { checkedStatements as rollupStatements } from "../src/compute/rollup-repository";
import { MIGRATIONS_DIR } from "../src/db";
import { checkedStatements as outboxStatements } from "../src/outbox/repository";
import { checkedStatements as forecastStatements } from "../src/spend/forecast/repository";
import { checkedStatements as importStatements } from "../src/spend/imports/repository";
import { checkedStatements as usageStatements } from "../src/spend/usage-repository";
import { checkedStatements as userStatements } from "../src/users/repository";
import type { CheckedStatement } from "../src/sql-columns";

const STATEMENTS: CheckedStatement[] = [
  ...budgetStatements(),
  ...anomalyStatements(),
  ...usageStatements(),
  ...importStatements(),
  ...forecastStatements(),
  ...userStatements(),
  ...apiKeyStatements(),
  ...outboxStatements(),
  ...authStatements(),
  ...computeStatements(),
  ...rollupStatements(),
  ...kubernetesStatements(),
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
    if (await writesRows(session, args)) {
      await skipEveryRowWrite(session);
      await session.exec(`PREPARE checked_rows AS ${readThroughCte(sql)}`);
    } else await session.exec(`PREPARE checked_rows AS ${sql}`);
    await session.exec(`CREATE TEMP TABLE checked_result AS EXECUTE checked_rows${args} WITH NO DATA`);
    const rows = await session.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, t.typname AS type FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = 'checked_result'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.type]));
  } finally {
    await session.exec("ROLLBACK; DEALLOCATE ALL");
  }
}

/** Whether the prepared statement is an INSERT, UPDATE or DELETE at its top (CREATE TABLE AS takes a SELECT only). */
async function writesRows(session: SqlSession, args: string): Promise<boolean> {
  // A generic plan keeps the parameters, so NULL arguments are not folded into an empty plan.
  await session.exec("SET LOCAL plan_cache_mode = force_generic_plan");
  const [explained] = await session.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) EXECUTE checked${args}`);
  const json = explained["QUERY PLAN"];
  const [{ Plan: top }] = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: { "Node Type": string } }[];
  return top["Node Type"] === "ModifyTable";
}

/**
 * The statement read through a CTE (which runs it). A data-modifying WITH must stay at the top
 * level, so the statement's own WITH list is kept in front.
 */
function readThroughCte(sql: string): string {
  const own = /^\s*WITH\s/i.exec(sql);
  if (!own) return `WITH checked_dml AS (${sql}) SELECT * FROM checked_dml`;
  // The WITH list ends after the first closing parenthesis at depth 0 not followed by a comma.
  let depth = 0;
  for (let i = own[0].length; i < sql.length; i++) {
    if (sql[i] === "(") depth++;
    else if (sql[i] === ")" && --depth === 0 && !/^\s*,/.test(sql.slice(i + 1))) {
      return `${sql.slice(0, i + 1)}, checked_dml AS (${sql.slice(i + 1)}) SELECT * FROM checked_dml`;
    }
  }
  throw new Error(`no end to the WITH list of: ${sql}`);
}

/**
 * Until the transaction rolls back, every row write to the app's tables is skipped by a BEFORE
 * trigger, which runs before the constraints are checked: the NULL parameters never meet them.
 */
async function skipEveryRowWrite(session: SqlSession): Promise<void> {
  await session.exec(`CREATE FUNCTION pg_temp.checked_skip_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`);
  const tables = await session.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  for (const { name } of tables) {
    await session.exec(
      `CREATE TRIGGER checked_skip BEFORE INSERT OR UPDATE OR DELETE ON public."${name}" FOR EACH ROW EXECUTE FUNCTION pg_temp.checked_skip_row()`,
    );
  }
}

/** The declared columns in the catalog's terms: nullability dropped, arrays as pg_type spells them (`_text`). */
const declared = (statement: CheckedStatement) =>
  statement.columns &&
  Object.fromEntries(
    Object.entries(statement.columns).map(([name, type]) => {
      const base = type.replace(/ null$/, "");
      return [name, base.endsWith("[]") ? `_${base.slice(0, -2)}` : base];
    }),
  );

test.each(STATEMENTS.map((statement) => [statement.name, statement] as const))("%s: its columns are the declared ones", async (_, statement) => {
  const actual = await db.sql.withSession((session) => resultColumns(session, statement.sql, statement.columns !== null));
  expect(actual).toEqual(declared(statement));
  if (actual) expect(Object.keys(actual)).toEqual(Object.keys(statement.columns ?? {}));
});
