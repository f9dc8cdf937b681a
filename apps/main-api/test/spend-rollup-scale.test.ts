// Issue #47 ("anomalies" attack): a FOCUS bill of 6,000 whole-day lines of 2,000 services took
// ~2 minutes to import on PostgreSQL. Each roll-up upsert waits for the one before by reading its
// count; written as a join with that count, the planner (the new lines without statistics, every
// estimate 1 row) put the count inside a nested loop and re-read the previous upsert's rows once
// per line: 6,000 x 144,000 hourly rows for the last one (afterCte, spend/commitment-rollups-repository.ts).
// These tests import that file (and a session of it, and its delete) and check the plans of the
// roll-up statements on fresh tables: the plans, not the clock, are what regress (a 20 s bound on
// these imports failed on a slower CI host at 22.6 s and 32 s with correct plans; bench/ measures time).
import request from "supertest";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { deleteImportLines, insertLines, type LedgerLineInput, type LedgerTx, rollupImport, rollupImports } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { rollupsMatchLines } from "./helpers/rollup";

const SERVICES = 2000;
const DAYS = 3;
let ctx: TestContext;
let org: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Many services" });
});
afterAll(async () => {
  await ctx.close();
});

const base = () => `/api/v1/organizations/${org.organization.id}/spend`;
const auth = () => ({ Authorization: `Bearer ${org.token}` });
const cost = (s: number) => String(1 + (s % 13));

/** Services [from, to) x DAYS whole UTC days of Standard compute usage, one billing account. */
function bill(from: number, to: number): string {
  const rows: Record<string, string>[] = [];
  for (let s = from; s < to; s++)
    for (let d = 1; d <= DAYS; d++)
      rows.push({
        ServiceName: `svc-${s}`,
        ChargePeriodStart: `2026-10-0${d}T00:00:00Z`,
        ChargePeriodEnd: `2026-10-0${d + 1}T00:00:00Z`,
        PricingCategory: "Standard",
        BilledCost: cost(s),
        EffectiveCost: cost(s),
        ListCost: cost(s),
        ContractedCost: cost(s),
      });
  return focusCsvText(rows, ["PricingCategory"]);
}

const post = (body: string, query = "") =>
  request(ctx.app).post(`${base()}/imports${query}`).set(auth()).set("Content-Type", "text/csv").send(Buffer.from(body));

async function countLines(organizationId: string): Promise<number> {
  const [row] = await ctx.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM spend_lines WHERE organization_id = $1", [organizationId]);
  return row.n;
}

describe("a bill of 6,000 day lines of 2,000 services (every line to the default tenant)", () => {
  beforeAll(async () => {
    await request(ctx.app)
      .put(`${base()}/allocation-rules`)
      .set(auth())
      .send({ rules: [{ tenant_id: org.tenant.id }] })
      .expect(200);
  });

  test("imports, and deletes the import; the roll-ups equal the lines", async () => {
    const imported = await post(bill(0, SERVICES));
    expect(imported.status).toBe(201);
    expect(imported.body.data.import.rows).toBe(SERVICES * DAYS);
    const sizes = await rollupsMatchLines(ctx, org.organization.id);
    expect(sizes).toMatchObject({ rows: SERVICES * DAYS, hourlyRows: SERVICES * DAYS * 24 });

    const deleted = await request(ctx.app).delete(`${base()}/imports/${imported.body.data.import.id}`).set(auth());
    expect(deleted.status).toBe(204);
    expect(await rollupsMatchLines(ctx, org.organization.id)).toMatchObject({ rows: 0, hourlyRows: 0 });
    expect(await countLines(org.organization.id)).toBe(0);
  }, 600_000);

  test("as an import session of two parts: the part that commits it completes the session", async () => {
    await post(bill(0, SERVICES / 2), "?session=many-services&part=1&parts=2").expect(201);
    const last = await post(bill(SERVICES / 2, SERVICES), "?session=many-services&part=2&parts=2");
    expect(last.status).toBe(201);
    expect(last.body.data.session.state).toBe("completed");
    expect(await countLines(org.organization.id)).toBe(SERVICES * DAYS);
    expect(await rollupsMatchLines(ctx, org.organization.id)).toMatchObject({ rows: SERVICES * DAYS, hourlyRows: SERVICES * DAYS * 24 });
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// The plans (no timing): every CTE of a roll-up statement is read once, however many lines.

const ORG = "org_rollup_plans";

function lines(importId: string, from: number, to: number): LedgerLineInput[] {
  const out: LedgerLineInput[] = [];
  for (let s = from; s < to; s++)
    for (let d = 1; d <= DAYS; d++)
      out.push({
        tenantId: "ten_default",
        source: "focus_import",
        chargePeriodStart: `2026-10-0${d}T00:00:00.000Z`,
        chargePeriodEnd: `2026-10-0${d + 1}T00:00:00.000Z`,
        chargeCategory: "Usage",
        pricingCategory: "Standard",
        // Measured in hours: the hourly on-demand roll-up holds only usage eligible for a commitment.
        pricingUnit: "Hours",
        serviceCategory: "Compute",
        serviceName: `svc-${s}`,
        billedCost: cost(s),
        effectiveCost: cost(s),
        listCost: cost(s),
        contractedCost: cost(s),
        currency: "USD",
        billingAccountId: "acct-1",
        billingPeriodStart: "2026-10-01T00:00:00.000Z",
        billingPeriodEnd: "2026-11-01T00:00:00.000Z",
        importId,
        priced: true,
      });
  return out;
}

interface PlanNode {
  "Node Type": string;
  "CTE Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/** The CTE scans of a plan that ran more than once ("rollup_daily read 6000 times"). */
function repeatedCteScans(node: PlanNode): string[] {
  const here = node["Node Type"] === "CTE Scan" && (node["Actual Loops"] ?? 0) > 1 ? [`${node["CTE Name"]} read ${node["Actual Loops"]} times`] : [];
  return [...here, ...(node.Plans ?? []).flatMap(repeatedCteScans)];
}

/**
 * `tx`, whose roll-up statements are first run under EXPLAIN ANALYZE (rolled back to a savepoint)
 * and then for real; `found` gathers the repeated CTE scans of each.
 */
function explaining(tx: LedgerTx, found: string[][]): LedgerTx {
  const explain = async (sql: string, params: unknown[]) => {
    if (!sql.includes("rollup_groups")) return;
    await tx.$executeRawUnsafe("SAVEPOINT plan_check");
    const [row] = await tx.$queryRawUnsafe<Record<string, unknown>[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, ...params);
    await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT plan_check");
    const value = row["QUERY PLAN"];
    const [plan] = (typeof value === "string" ? JSON.parse(value) : value) as { Plan: PlanNode }[];
    found.push(repeatedCteScans(plan.Plan));
  };
  return {
    $queryRawUnsafe: (async (sql: string, ...params: unknown[]) => {
      await explain(sql, params);
      return tx.$queryRawUnsafe(sql, ...params);
    }) as LedgerTx["$queryRawUnsafe"],
    $executeRawUnsafe: (async (sql: string, ...params: unknown[]) => {
      await explain(sql, params);
      return tx.$executeRawUnsafe(sql, ...params);
    }) as LedgerTx["$executeRawUnsafe"],
  };
}

const write = <T>(fn: (tx: LedgerTx) => Promise<T>) => ctx.prisma.$transaction((tx) => fn(tx), { ...TRANSACTION_OPTIONS, timeout: 600_000 });

test("the roll-up of an import, of a session's imports and the delete of an import read each CTE once (fresh tables, no statistics)", async () => {
  await write((tx) => insertLines(tx, ORG, lines("imp_plan_1", 0, SERVICES), { rollup: false }));
  const onImport: string[][] = [];
  await write((tx) => rollupImport(explaining(tx, onImport), ORG, "imp_plan_1"));
  expect(onImport).toEqual([[]]);
  expect(await rollupsMatchLines(ctx, ORG)).toMatchObject({ rows: SERVICES * DAYS, hourlyRows: SERVICES * DAYS * 24 });

  const onDelete: string[][] = [];
  expect(await write((tx) => deleteImportLines(explaining(tx, onDelete), ORG, ["imp_plan_1"]))).toBe(SERVICES * DAYS);
  expect(onDelete).toEqual([[]]);
  expect(await rollupsMatchLines(ctx, ORG)).toMatchObject({ rows: 0, hourlyRows: 0 });

  await write(async (tx) => {
    await insertLines(tx, ORG, lines("imp_plan_2", 0, SERVICES / 2), { rollup: false });
    await insertLines(tx, ORG, lines("imp_plan_3", SERVICES / 2, SERVICES), { rollup: false });
  });
  const onSession: string[][] = [];
  await write((tx) => rollupImports(explaining(tx, onSession), ORG, ["imp_plan_2", "imp_plan_3"]));
  expect(onSession).toEqual([[]]);
  expect(await rollupsMatchLines(ctx, ORG)).toMatchObject({ rows: SERVICES * DAYS, hourlyRows: SERVICES * DAYS * 24 });
}, 900_000);
