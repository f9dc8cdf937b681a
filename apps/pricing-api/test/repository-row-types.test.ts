// Each repository's raw statements, prepared on the migrated schema: the columns a statement
// returns must be the ones its column map declares, by name, order, PostgreSQL type and, where the
// plan shows a column read straight from a table, nullability (the map is what its TypeScript row
// type is derived from), so renaming a column or changing its type fails here rather than in
// production.
import type { SqlSession } from "@cloudcost/db";
import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR } from "../src/db";
import { checkedStatements as catalogStatements } from "../src/compute/catalog-repository";
import { checkedStatements as serviceTokenStatements } from "../src/internal/service-token-repository";
import { checkedStatements as commitmentRateStatements } from "../src/marketplace/commitment-repository";
import { checkedStatements as computeStatements } from "../src/marketplace/compute-repository";
import { checkedStatements as databaseStatements } from "../src/marketplace/database-repository";
import { checkedStatements as modelStatements } from "../src/marketplace/model-repository";
import { checkedStatements as pinStatements } from "../src/references/pin-repository";
import { checkedStatements as reportStatements } from "../src/references/report-repository";
import type { CheckedStatement } from "../src/sql-columns";

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

interface ResultColumn {
  type: string;
  /** Whether the column can be null; undefined when the plan does not show it read straight from a table column. */
  nullable: boolean | undefined;
}

/**
 * The statement's result columns: prepared (which resolves every table and column it names), then
 * materialised as an empty temporary table with NULL parameters (planned, not run), whose columns
 * the catalog lists. Nullability comes from the generic plan's output expressions.
 */
async function resultColumns(session: SqlSession, sql: string, returnsRows: boolean): Promise<Record<string, ResultColumn> | null> {
  await session.exec("BEGIN");
  try {
    await session.exec(`PREPARE checked AS ${sql}`);
    if (!returnsRows) return null;
    const [{ n }] = await session.query<{ n: number }>(`SELECT cardinality(parameter_types) AS n FROM pg_prepared_statements WHERE name = 'checked'`);
    const args = n > 0 ? `(${Array.from({ length: n }, () => "NULL").join(", ")})` : "";
    const { nullable, dml } = await explainOutput(session, args);
    if (dml) await skipEveryRowWrite(session);
    await session.exec(`PREPARE checked_rows AS ${dml ? readThroughCte(sql) : sql}`);
    await session.exec(`CREATE TEMP TABLE checked_result AS EXECUTE checked_rows${args} WITH NO DATA`);
    const rows = await session.query<{ name: string; type: string }>(
      `SELECT a.attname AS name, t.typname AS type FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
        WHERE a.attrelid = 'checked_result'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    );
    return Object.fromEntries(rows.map((row, i) => [row.name, { type: row.type, nullable: nullable[i] }]));
  } finally {
    await session.exec("ROLLBACK; DEALLOCATE ALL");
  }
}

/**
 * CREATE TABLE AS takes a SELECT only: an INSERT, UPDATE or DELETE ... RETURNING is read through a
 * CTE (which runs it). A data-modifying WITH must stay at the top level, so the statement's own
 * WITH list is kept in front.
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

interface PlanNode {
  "Node Type": string;
  Output?: string[];
  Plans?: PlanNode[];
  "Relation Name"?: string;
  Alias?: string;
  "Join Type"?: string;
}

/**
 * Whether the prepared statement writes rows (an INSERT, UPDATE or DELETE, possibly under a WITH),
 * and per output column whether it can be null, when its expression is a table column (under
 * casts) of a relation no outer join can null; undefined otherwise.
 */
async function explainOutput(session: SqlSession, args: string): Promise<{ nullable: (boolean | undefined)[]; dml: boolean }> {
  // A generic plan keeps the parameters, so NULL arguments are not folded into an empty plan.
  await session.exec("SET LOCAL plan_cache_mode = force_generic_plan");
  const [explained] = await session.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE checked${args}`);
  const json = explained["QUERY PLAN"];
  const [{ Plan: top }] = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: PlanNode }[];
  const relations = new Map<string, string>();
  let outerJoin = false;
  const visit = (node: PlanNode) => {
    if (node.Alias && node["Relation Name"]) relations.set(node.Alias, node["Relation Name"]);
    if (node["Join Type"] && !["Inner", "Semi"].includes(node["Join Type"])) outerJoin = true;
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(top);
  const notNull = await session.query<{ relation: string; name: string; not_null: boolean }>(
    `SELECT c.relname AS relation, a.attname AS name, a.attnotnull AS not_null FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relname = ANY($1::text[]) AND a.attnum > 0 AND NOT a.attisdropped`,
    [[...new Set(relations.values())]],
  );
  // EXPLAIN leaves column names unqualified when the statement reads a single relation.
  const sole = relations.size === 1 ? [...relations.values()][0] : undefined;
  const nullable = (top.Output ?? []).map((expression) => {
    const column = /^(?:"?(\w+)"?\.)?"?(\w+)"?$/.exec(withoutCasts(expression));
    const relation = column && (column[1] === undefined ? sole : relations.get(column[1]));
    const attribute = relation ? notNull.find((a) => a.relation === relation && a.name === column[2]) : undefined;
    if (!attribute) return undefined;
    // An outer join can null a NOT NULL column; a nullable one stays nullable.
    if (attribute.not_null && outerJoin) return undefined;
    return !attribute.not_null;
  });
  return { nullable, dml: top["Node Type"] === "ModifyTable" };
}

/** `expression` without enclosing parentheses and casts (which keep a value null or not null). */
function withoutCasts(expression: string): string {
  let bare = expression.trim();
  for (;;) {
    const cast = /^(.*)::[\w ]+(\(\d+(,\d+)?\))?$/.exec(bare);
    if (cast && enclosed(cast[1])) bare = cast[1];
    else if (enclosed(bare)) bare = bare.slice(1, -1).trim();
    else return bare;
  }
}

/** Whether the whole of `text` is one parenthesised group. */
function enclosed(text: string): boolean {
  if (!text.startsWith("(") || !text.endsWith(")")) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

/** The declared columns in the catalog's terms: type names as pg_type spells them, and nullability. */
const declared = (statement: CheckedStatement) =>
  statement.columns &&
  Object.fromEntries(
    Object.entries(statement.columns).map(([name, type]) => {
      const base = type.replace(/ null$/, "");
      return [name, { type: base.endsWith("[]") ? `_${base.slice(0, -2)}` : base, nullable: type.endsWith(" null") }];
    }),
  );

test.each(STATEMENTS.map((statement) => [statement.name, statement] as const))("%s: its columns are the declared ones", async (_, statement) => {
  const actual = await db.sql.withSession((session) => resultColumns(session, statement.sql, statement.columns !== null));
  const expected = declared(statement);
  if (!actual || !expected) {
    expect(actual).toEqual(expected);
    return;
  }
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  // Nullability is compared where the plan shows it; elsewhere the declared one stands.
  const comparable = Object.fromEntries(
    Object.entries(actual).map(([name, column]) => [name, { type: column.type, nullable: column.nullable ?? expected[name]?.nullable }]),
  );
  expect(comparable).toEqual(expected);
});
