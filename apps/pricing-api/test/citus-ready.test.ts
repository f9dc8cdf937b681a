import { findDistributionProblems, type TableDistribution } from "@cloudcost/db/testing";
import { createTestContext, type TestContext } from "./helpers/context";

/**
 * The pricing API's schema can be distributed by account on Citus (docs/scaling.md). Every table is
 * classified here, so a new table fails this test until someone decides where it lives.
 */
const DISTRIBUTION: TableDistribution = {
  distributed: {
    accounts: "id",
    api_keys: "account_id",
    model_prices: "account_id",
    negotiated_compute_prices: "account_id",
    commitment_rates: "account_id",
    database_prices: "account_id",
    pricing_pins: "account_id",
    pricing_reports: "account_id",
    pricing_report_database_refs: "account_id",
  },
  global: {
    _prisma_migrations: "the migration runner's bookkeeping, one row per migration: stays on the coordinator",
    compute_prices: "the public price catalog every account reads, replaced as a whole: a reference table",
    compute_rates: "per-region estimation rates derived from the catalog: a reference table",
    compute_catalog_version: "one row naming the loaded catalog: a reference table",
    idempotency_keys: "keyed by the caller's scope string and never joined: distributed by scope on its own",
    service_token_jtis: "the service tokens' replay guard, keyed by the token's jti and never joined, no account: distributed by jti on its own",
  },
  tolerated: {
    api_keys_key_hash_key: "a key is found by its hash before its account is known; to shard, move (key_hash, account_id, id) to a reference lookup table",
  },
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe("schema ready to shard by account", () => {
  it("every table is classified, and each distributed table keys, indexes and references by its account column", async () => {
    expect(await findDistributionProblems(ctx.db.sql, DISTRIBUTION)).toEqual([]);
  });

  it("reports a new table, and a foreign key that does not join account to account (positive control)", async () => {
    const problems = await ctx.db.sql.withSession(async (session) => {
      await session.exec("BEGIN");
      try {
        await session.exec(`
          CREATE TABLE probe_unclassified (id text PRIMARY KEY);
          CREATE TABLE probe_notes (account_id text, id text, report_account text, report_id text,
            PRIMARY KEY (account_id, id), FOREIGN KEY (report_account, report_id) REFERENCES pricing_reports (account_id, id),
            FOREIGN KEY (id, account_id) REFERENCES pricing_reports (account_id, id));`);
        const withProbe = { ...DISTRIBUTION, distributed: { ...DISTRIBUTION.distributed, probe_notes: "account_id" } };
        return await findDistributionProblems(session, withProbe);
      } finally {
        await session.exec("ROLLBACK");
      }
    });
    expect([...problems].sort()).toEqual([
      "probe_notes: foreign key probe_notes_id_account_id_fkey does not join account_id to pricing_reports.account_id",
      "probe_notes: foreign key probe_notes_report_account_report_id_fkey (report_account, report_id) does not include account_id",
      "probe_unclassified: not classified (add it to the distributed or the global tables, with its reason)",
    ]);
  });
});
