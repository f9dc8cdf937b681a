import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { lockDataDir } from "./datadir-lock";
import { preparePrivateDataDir, restrictDataDir } from "./datadir-permissions";
import { openPglite, pgliteListen, pgliteSqlClient } from "./pglite";
import { postgresListen, postgresSqlClient, redactUrl } from "./postgres";
import type { Listen, SqlClient } from "./sql-client";

export type DriverAdapterFactory = PrismaPg | PrismaPGlite;

export interface Database {
  kind: "postgres" | "pglite";
  /** Pass to the generated PrismaClient: `new PrismaClient({ adapter: db.adapter })`. */
  adapter: DriverAdapterFactory;
  sql: SqlClient;
  /** LISTEN for notifications (see change-feed.ts): a dedicated connection on PostgreSQL, the one session on PGlite. */
  listen: Listen;
  description: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; without one the embedded PGlite under `dataDir` is used. */
  url?: string;
  dataDir?: string;
  /** An already open PGlite (tests restore one from a template). */
  pglite?: PGlite;
  poolSize?: number;
  /**
   * PostgreSQL: how long a query waits for a pooled connection when all are busy before it fails
   * ("timeout exceeded when trying to connect", which the services answer 503); 0 or absent: no bound.
   */
  poolWaitMs?: number;
  /**
   * Planner and run-time settings for every session this database opens (`SET name = value`), such
   * as `random_page_cost`: on PostgreSQL sent as startup options of each pooled connection (no extra
   * round trip), on PGlite set once on its single session.
   */
  sessionSettings?: SessionSettings;
}

export type SessionSettings = Record<string, string | number>;

const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;
const SETTING_VALUE = /^[A-Za-z0-9_.:-]+$/;

function checkedSettings(settings: SessionSettings = {}): [string, string][] {
  return Object.entries(settings).map(([name, value]) => {
    const text = String(value);
    if (!SETTING_NAME.test(name) || !SETTING_VALUE.test(text)) throw new Error(`Invalid session setting ${name}=${text}`);
    return [name, text];
  });
}

/** The URL with `-c name=value` appended to its `options` parameter (the URL's own options are kept). */
function withStartupOptions(url: string, settings: [string, string][]): string {
  if (!settings.length) return url;
  const parsed = new URL(url);
  const options = [parsed.searchParams.get("options"), ...settings.map(([name, value]) => `-c ${name}=${value}`)].filter(Boolean).join(" ");
  parsed.searchParams.set("options", options);
  return parsed.toString();
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const settings = checkedSettings(options.sessionSettings);
  if (options.url) {
    const connectionString = withStartupOptions(options.url, settings);
    const pool = new Pool({ connectionString, max: options.poolSize ?? 10, connectionTimeoutMillis: options.poolWaitMs ?? 0 });
    // An idle client losing its server (a restart) must not crash the process.
    pool.on("error", () => undefined);
    return {
      kind: "postgres",
      adapter: new PrismaPg(pool),
      sql: postgresSqlClient(pool),
      listen: postgresListen(connectionString),
      description: `PostgreSQL at ${redactUrl(options.url)}`,
      close: () => pool.end(),
    };
  }
  if (options.pglite) {
    await applySettings(options.pglite, settings);
    return wrapPglite(options.pglite, "embedded PGlite (in memory)", async () => undefined);
  }
  if (!options.dataDir) throw new Error("openDatabase needs either a url or a dataDir");
  preparePrivateDataDir(options.dataDir);
  const release = lockDataDir(options.dataDir);
  try {
    const pglite = await openPglite(options.dataDir);
    restrictDataDir(options.dataDir);
    await applySettings(pglite, settings);
    return wrapPglite(pglite, `embedded PGlite at ${options.dataDir}`, async () => release());
  } catch (err) {
    release();
    throw err;
  }
}

async function applySettings(pglite: PGlite, settings: [string, string][]) {
  for (const [name, value] of settings) await pglite.query(`SELECT set_config($1, $2, false)`, [name, value]);
}

function wrapPglite(pglite: PGlite, description: string, afterClose: () => Promise<void>): Database {
  return {
    kind: "pglite",
    adapter: new PrismaPGlite(pglite),
    sql: pgliteSqlClient(pglite),
    listen: pgliteListen(pglite),
    description,
    async close() {
      if (!pglite.closed) await pglite.close();
      await afterClose();
    },
  };
}
