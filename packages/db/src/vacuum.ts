import type { SqlClient } from "./sql-client";

/**
 * What autovacuum would do, for a database that has none (embedded PGlite): VACUUM (ANALYZE) every
 * table whose dead rows passed autovacuum's own threshold, `autovacuum_vacuum_threshold +
 * autovacuum_vacuum_scale_factor × rows`, read per table from its storage options (the migrations
 * set them on the tables updated most: compute_resource_heartbeats, compute_sample_tail,
 * compute_resources) and otherwise PostgreSQL's defaults (50 + 0.2 × rows). Tables only analyzed
 * when enough rows changed since the last ANALYZE (50 + 0.1 × rows), as autovacuum does.
 *
 * On PGlite every statement waits for a VACUUM on the one connection; the threshold keeps the large
 * insert-mostly tables (raw samples) out until a real share of them is dead, as on PostgreSQL.
 */
const CANDIDATES_SQL = `
  WITH t AS (
    SELECT s.schemaname, s.relname, s.n_dead_tup, s.n_mod_since_analyze, greatest(c.reltuples, 0) AS rows, c.reloptions
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = current_schema()),
  o AS (
    SELECT t.*,
      coalesce((SELECT split_part(x, '=', 2)::float8 FROM unnest(t.reloptions) x WHERE x LIKE 'autovacuum_vacuum_threshold=%'), 50) AS threshold,
      coalesce((SELECT split_part(x, '=', 2)::float8 FROM unnest(t.reloptions) x WHERE x LIKE 'autovacuum_vacuum_scale_factor=%'), 0.2) AS scale
    FROM t)
  SELECT relname AS "table", n_dead_tup::int8::text AS dead, (n_dead_tup > threshold + scale * rows) AS vacuum
  FROM o
  WHERE n_dead_tup > threshold + scale * rows OR n_mod_since_analyze > 50 + 0.1 * rows
  ORDER BY n_dead_tup DESC`;

export interface VacuumedTable {
  table: string;
  /** Dead rows counted before (the statistics' estimate). */
  dead: number;
  /** VACUUM (ANALYZE), or ANALYZE only. */
  vacuumed: boolean;
}

/**
 * Whether a service must vacuum its database itself: the embedded PGlite has no autovacuum, and a
 * PostgreSQL server may run with `autovacuum = off` (or without the statistics it decides by).
 */
export async function lacksAutovacuum(kind: "postgres" | "pglite", sql: SqlClient): Promise<boolean> {
  if (kind === "pglite") return true;
  const [row] = await sql.query<{ on: boolean }>("SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS on");
  return !row.on;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** VACUUM (ANALYZE) or ANALYZE the tables past autovacuum's thresholds; answers what it did. */
export async function vacuumDeadTables(sql: SqlClient): Promise<VacuumedTable[]> {
  // This session's counts reach the statistics at most once a second, when it goes idle: forced now
  // (by the statement's end), so that a pass right after a large write sees that write's dead rows.
  await sql.exec("SELECT pg_stat_force_next_flush()");
  const rows = await sql.query<{ table: string; dead: string; vacuum: boolean }>(CANDIDATES_SQL);
  const done: VacuumedTable[] = [];
  for (const row of rows) {
    await sql.exec(row.vacuum ? `VACUUM (ANALYZE) ${quoted(row.table)}` : `ANALYZE ${quoted(row.table)}`);
    done.push({ table: row.table, dead: Number(row.dead), vacuumed: row.vacuum });
  }
  return done;
}
