import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { deleteImportLines, deleteSupersededLines, insertLines, reallocateLines, setLinePricing, type LedgerLineInput } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { rollupsMatchLines } from "./helpers/rollup";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const ORG = "org_ledger";
const TEXT_ORG = "org_ledger_text";

const line = (overrides: Partial<LedgerLineInput> = {}): LedgerLineInput => ({
  tenantId: "ten_a",
  source: "focus_import",
  chargePeriodStart: "2026-10-01T00:00:00.000Z",
  chargePeriodEnd: "2026-10-02T00:00:00.000Z",
  chargeCategory: "Usage",
  serviceName: "Amazon EC2",
  billedCost: "1.25",
  effectiveCost: "1.00",
  listCost: "1.50",
  currency: "USD",
  priced: true,
  ...overrides,
});

const write = <T>(fn: Parameters<typeof ctx.prisma.$transaction>[0] extends (tx: infer X) => unknown ? (tx: X) => Promise<T> : never) =>
  ctx.prisma.$transaction(fn, TRANSACTION_OPTIONS);

/** The three roll-ups as they are, and as they would be rebuilt from the lines: always equal. */
const rollupMatchesLines = (org = ORG) => rollupsMatchLines(ctx, org);

describe("spend ledger", () => {
  it("stores lines and adds them to the daily roll-up exactly; a tenant's event_id is stored once", async () => {
    const result = await write((tx) =>
      insertLines(tx, ORG, [
        line({ tags: { team: "web", env: "prod" }, contractedCost: "1.2", pricingCategory: "Committed" }),
        line({ billedCost: "0.0000000001", effectiveCost: "0.0000000001", listCost: "0.0000000001", tags: { team: "web", empty: "", gone: null } as never }),
        line({ tenantId: null, chargePeriodStart: "2026-10-01T23:59:59.999Z" }),
        line({ tenantId: "ten_b", currency: "EUR" }),
        line({
          source: "usage",
          eventId: "ev-1",
          billedCost: null,
          effectiveCost: null,
          listCost: null,
          currency: null,
          priced: false,
          unpricedReason: "no_pricing_label",
        }),
        line({ source: "usage", eventId: "ev-1" }),
      ]),
    );
    expect(result).toEqual({
      inserted: 5,
      priced: 4,
      unpriced: 1,
      totals: [
        // Exact sums of the stored amounts (every place kept), without trailing zeros.
        { currency: "EUR", billed_cost: "1.25", effective_cost: "1" },
        { currency: "USD", billed_cost: "2.5000000001", effective_cost: "2.0000000001" },
      ],
    });
    const again = await write((tx) =>
      insertLines(tx, ORG, [line({ source: "usage", eventId: "ev-1" }), line({ source: "usage", eventId: "ev-1", tenantId: "ten_b" })]),
    );
    expect(again.inserted).toBe(1);
    expect((await rollupMatchesLines()).rows).toBe(6);
  });

  it("stores text as sent whatever it holds (quotes, backslashes, braces, commas, the word NULL) and null as null", async () => {
    const odd = 'say "hi", {x} \\ y\\"z';
    await write((tx) =>
      insertLines(tx, TEXT_ORG, [
        line({ tenantId: "ten_text", serviceName: odd, resourceId: "NULL", region: "", tags: { k: odd } }),
        line({ tenantId: "ten_text", serviceName: null, resourceId: null, chargePeriodStart: "2026-10-02T00:00:00.000Z" }),
      ]),
    );
    const rows = await ctx.db.sql.query<{ service_name: string | null; resource_id: string | null; region: string | null; tags: unknown }>(
      "SELECT service_name, resource_id, region, tags FROM spend_lines WHERE organization_id = $1 AND tenant_id = 'ten_text' ORDER BY charge_period_start",
      [TEXT_ORG],
    );
    expect(rows).toEqual([
      { service_name: odd, resource_id: "NULL", region: "", tags: { k: odd } },
      { service_name: null, resource_id: null, region: null, tags: {} },
    ]);
    await rollupMatchesLines(TEXT_ORG);
  });

  it("deletes an import's lines and moves lines between tenants, keeping the roll-up equal to the lines", async () => {
    const imported = await write((tx) =>
      insertLines(tx, ORG, [
        line({ importId: "imp_1", tenantId: null, tags: { team: "data" } }),
        line({ importId: "imp_1", tenantId: "ten_a", chargePeriodStart: "2026-10-03T00:00:00.000Z", tags: { team: "data" } }),
        line({ importId: "imp_2", tags: { team: "web" } }),
      ]),
    );
    expect(imported.inserted).toBe(3);
    await rollupMatchesLines();

    const ids = await ctx.db.sql.query<{ id: string; tenant_id: string | null }>(
      "SELECT id, tenant_id FROM spend_lines WHERE organization_id = $1 AND import_id = 'imp_1' ORDER BY id",
      [ORG],
    );
    const moved = await write((tx) =>
      reallocateLines(tx, ORG, ids.map((row) => ({ id: row.id, tenantId: "ten_c" })).concat([{ id: "spl_unknown", tenantId: "ten_c" }])),
    );
    expect(moved).toBe(2);
    expect(
      await write((tx) =>
        reallocateLines(
          tx,
          ORG,
          ids.map((row) => ({ id: row.id, tenantId: "ten_c" })),
        ),
      ),
    ).toBe(0);
    await rollupMatchesLines();

    expect(await write((tx) => deleteImportLines(tx, ORG, ["imp_1", "imp_none"]))).toBe(2);
    const days = await rollupMatchesLines();
    for (const table of ["spend_daily", "spend_service_daily", "spend_tag_daily"]) {
      const left = await ctx.db.sql.query(`SELECT 1 FROM ${table} WHERE organization_id = $1 AND (tenant_id = 'ten_c' OR day = '2026-10-03')`, [ORG]);
      expect(left).toEqual([]);
    }
    expect(days.rows).toBe(6);
  });

  it("supersedes an import's lines and prices unpriced lines, keeping the three roll-ups equal to the lines", async () => {
    const org = "org_ledger_supersede";
    const period = { billingAccountId: "acct-s", billingPeriodStart: "2026-10-01T00:00:00.000Z", billingPeriodEnd: "2026-11-01T00:00:00.000Z" };
    await write((tx) =>
      insertLines(tx, org, [
        line({ ...period, importId: "imp_old", tags: { team: "web" } }),
        line({ ...period, importId: "imp_old", tags: { team: "data", env: "dev" }, chargeCategory: "Purchase" }),
        line({ ...period, importId: "imp_new", tags: { team: "web" }, billedCost: "7" }),
        line({
          source: "usage",
          eventId: "ev-u",
          tags: { team: "ml" },
          billedCost: null,
          effectiveCost: null,
          listCost: null,
          currency: null,
          priced: false,
          unpricedReason: "no_pricing_label",
        }),
      ]),
    );
    expect((await rollupMatchesLines(org)).tagRows).toBe(4);
    const superseded = await write((tx) =>
      deleteSupersededLines(tx, org, "imp_new", [{ billingAccountId: "acct-s", start: period.billingPeriodStart, end: period.billingPeriodEnd }]),
    );
    // The lines' import records are what deleteSupersededLines reads to find earlier imports of the account.
    expect(superseded).toEqual([]);
    await ctx.db.sql.query(
      `INSERT INTO spend_imports (organization_id, id, focus_version, rows, allocated_rows, unallocated_rows, billing_account_ids, billing_periods, totals, superseded_import_ids)
       VALUES ($1, 'imp_old', '1.2', 2, 2, 0, ARRAY['acct-s'], '[]', '[]', ARRAY[]::text[])`,
      [org],
    );
    expect(
      await write((tx) =>
        deleteSupersededLines(tx, org, "imp_new", [{ billingAccountId: "acct-s", start: period.billingPeriodStart, end: period.billingPeriodEnd }]),
      ),
    ).toEqual(["imp_old"]);
    expect((await rollupMatchesLines(org)).tagRows).toBe(2);

    const [unpriced] = await ctx.db.sql.query<{ id: string }>("SELECT id FROM spend_lines WHERE organization_id = $1 AND NOT priced", [org]);
    const priced = await write((tx) =>
      setLinePricing(tx, org, [
        {
          id: unpriced.id,
          priced: true,
          unpricedReason: null,
          pricingId: "mdl_1",
          unitPrices: { input: "0.15" },
          currency: "USD",
          billedCost: "0.3",
          effectiveCost: "0.3",
          listCost: "0.3",
          contractedCost: "0.3",
          model: "gpt-4o-mini",
        },
      ]),
    );
    expect(priced).toEqual([unpriced.id]);
    const after = await rollupMatchesLines(org);
    expect(after.tagRows).toBe(2);
    const [tag] = await ctx.db.sql.query<{ contracted_cost: string; unpriced_reason: string }>(
      "SELECT trim_scale(contracted_cost)::text AS contracted_cost, unpriced_reason FROM spend_tag_daily WHERE organization_id = $1 AND tag_key = 'team' AND tag_value = 'ml'",
      [org],
    );
    expect(tag).toEqual({ contracted_cost: "0.3", unpriced_reason: "" });
  });
});
