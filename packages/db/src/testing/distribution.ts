import type { SqlSession } from "../sql-client";

/**
 * How every table of a schema would be placed on a sharded PostgreSQL (Citus): `distributed` maps a
 * table to its distribution column (the tenant), `global` names the tables kept whole, each with why.
 * `tolerated` names constraints and indexes that break the rule today, each with what would change.
 */
export interface TableDistribution {
  distributed: Record<string, string>;
  global: Record<string, string>;
  tolerated?: Record<string, string>;
}

interface KeyRow {
  table: string;
  name: string;
  kind: "primary" | "unique" | "foreign";
  columns: (string | null)[];
  referenced_table: string | null;
  referenced_columns: string[] | null;
}

/**
 * Reads the migrated schema from the catalog and lists every way it cannot be distributed by tenant:
 * a table nobody classified, a distributed table whose primary key does not lead with its tenant
 * column, a unique index or foreign key without it, a foreign key between distributed tables that
 * does not join tenant column to tenant column, and a foreign key from a global table into a
 * distributed one. An empty list means the schema shards as `distribution` says.
 */
export async function findDistributionProblems(sql: SqlSession, distribution: TableDistribution): Promise<string[]> {
  const tables = (
    await sql.query<{ name: string }>(
      `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1`,
    )
  ).map((t) => t.name);
  const keys = await sql.query<KeyRow>(
    `SELECT t.relname::text AS "table", i.relname::text AS name,
            CASE WHEN ix.indisprimary THEN 'primary' ELSE 'unique' END AS kind,
            to_json(ARRAY(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                     LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.ord)) AS columns,
            NULL AS referenced_table, NULL::json AS referenced_columns
       FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND ix.indisunique
     UNION ALL
     SELECT t.relname::text, con.conname::text, 'foreign',
            to_json(ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord)),
            r.relname::text,
            to_json(ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord))
       FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND con.contype = 'f'
     ORDER BY 1, 2`,
  );

  const problems: string[] = [];
  const tolerated = distribution.tolerated ?? {};
  const toleratedSeen = new Set<string>();
  const report = (name: string, problem: string) => {
    if (name in tolerated) toleratedSeen.add(name);
    else problems.push(problem);
  };
  for (const table of tables) {
    const listed = Number(table in distribution.distributed) + Number(table in distribution.global);
    if (listed === 0) problems.push(`${table}: not classified (add it to the distributed or the global tables, with its reason)`);
    if (listed === 2) problems.push(`${table}: classified both as distributed and as global`);
  }
  for (const table of [...Object.keys(distribution.distributed), ...Object.keys(distribution.global)]) {
    if (!tables.includes(table)) problems.push(`${table}: classified but not in the schema`);
  }

  for (const [table, column] of Object.entries(distribution.distributed)) {
    const primary = keys.find((k) => k.table === table && k.kind === "primary");
    if (!primary) problems.push(`${table}: no primary key`);
    else if (primary.columns[0] !== column)
      report(primary.name, `${table}: primary key ${primary.name} (${primary.columns.join(", ")}) does not lead with ${column}`);
  }
  for (const key of keys) {
    const column = distribution.distributed[key.table];
    if (key.kind === "foreign" && key.referenced_table !== null) {
      const target = distribution.distributed[key.referenced_table];
      if (column === undefined) {
        if (target !== undefined)
          report(key.name, `${key.table}: foreign key ${key.name} of a global table references the distributed table ${key.referenced_table}`);
        continue;
      }
      const at = key.columns.indexOf(column);
      if (at < 0) report(key.name, `${key.table}: foreign key ${key.name} (${key.columns.join(", ")}) does not include ${column}`);
      else if (target !== undefined && key.referenced_columns?.[at] !== target) {
        report(key.name, `${key.table}: foreign key ${key.name} does not join ${column} to ${key.referenced_table}.${target}`);
      }
      continue;
    }
    if (key.kind === "primary") continue;
    if (column !== undefined && !key.columns.includes(column)) {
      report(key.name, `${key.table}: unique index ${key.name} (${key.columns.map((c) => c ?? "<expression>").join(", ")}) does not include ${column}`);
    }
  }
  for (const name of Object.keys(tolerated)) {
    if (!toleratedSeen.has(name)) problems.push(`${name}: tolerated, but it breaks no rule (any more): remove it from the list`);
  }
  return problems;
}
