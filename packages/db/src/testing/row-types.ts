/**
 * A raw statement's result columns against the map it declares (see `CheckedStatement`): the
 * statement is prepared on the migrated schema (which resolves every table and column it names),
 * then materialised as an empty temporary table with NULL parameters (planned, not run), whose
 * columns the catalog lists by name, order, PostgreSQL type and, where the plan shows a column
 * read straight from a table, nullability. An INSERT, UPDATE or DELETE ... RETURNING is read
 * through a CTE with every row write skipped.
 */
import type { Database } from "../database";
import type { CheckedStatement } from "../sql-columns";
import type { SqlSession } from "../sql-client";

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

/** One column as compared: its type as pg_type spells it (`_text` for `text[]`) and whether it can be null. */
export interface ComparedColumn {
  name: string;
  type: string;
  nullable: boolean | undefined;
}

/** The declared columns in the catalog's terms: type names as pg_type spells them, and nullability. */
function declared(statement: CheckedStatement): ComparedColumn[] | null {
  if (!statement.columns) return null;
  return Object.entries(statement.columns).map(([name, type]) => {
    const base = type.replace(/ null$/, "");
    return { name, type: base.endsWith("[]") ? `_${base.slice(0, -2)}` : base, nullable: type.endsWith(" null") };
  });
}

/**
 * The statement's columns as the database sees them and as the statement declares them, in order
 * (`null` for a statement that returns none). Nullability is compared where the plan shows it;
 * elsewhere the declared one stands.
 */
export async function compareStatementColumns(
  db: Database,
  statement: CheckedStatement,
): Promise<{ actual: ComparedColumn[] | null; expected: ComparedColumn[] | null }> {
  const columns = await db.sql.withSession((session) => resultColumns(session, statement.sql, statement.columns !== null));
  const expected = declared(statement);
  if (!columns || !expected) return { actual: columns && Object.entries(columns).map(([name, c]) => ({ name, ...c })), expected };
  const filtered = new Set(statement.notNullByFilter ?? []);
  const actual = Object.entries(columns).map(([name, column]) => ({
    name,
    type: column.type,
    nullable: filtered.has(name) ? false : (column.nullable ?? expected.find((e) => e.name === name)?.nullable),
  }));
  return { actual, expected };
}
