// Bad bills, property-based: FOCUS files with cells past the bounds on bill content (decimals with
// huge exponents or hundreds of digits, text over 64 KiB, Tags nested past 32 levels), next to odd
// but valid cells (negative zero, formula-like text, control characters). A file with a cell past a
// bound is a 400 naming a row and column, with nothing stored; no file is ever a 5xx.
// Cases: FUZZ_RUNS (default 40; `pnpm test:fuzz` runs 2000). Then the attack files of a free
// account (a Parquet file of one 320,000-row row group, a dictionary bomb, 5,000 tag keys per line,
// manifests listed), each refused or answered while /healthz keeps answering.
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import request from "supertest";
import { ErrorEnvelope } from "@cloudcost/contracts";
import { deepObjectText, extremeDecimalText, FUZZ_RUNS, FUZZ_SEED_OPTION, hugeText, STACK_OR_SQL } from "@cloudcost/testing";
import { createTestContext, type TestContext } from "./helpers/context";
import { alikeFocusParquet, FOCUS_ROW, focusCsvText, focusParquet } from "./helpers/focus-files";
import { HEALTH_BOUND_MS, watchHealth } from "./helpers/health-watch";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let org: SignedUp;

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Fuzz Bills" });
});
afterAll(async () => {
  await ctx?.close();
});

const DECIMAL_COLUMNS = ["BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "PricingQuantity", "ConsumedQuantity"];
const TEXT_COLUMNS = ["ResourceId", "ResourceName", "ServiceName", "SubAccountId", "RegionId", "ChargeDescription"];

interface Cell {
  column: string;
  value: string;
  /** Past a bound by construction: the file must be refused. */
  bad: boolean;
}

const badCell: fc.Arbitrary<Cell> = fc.oneof(
  fc.tuple(fc.constantFrom(...DECIMAL_COLUMNS), extremeDecimalText).map(([column, value]) => ({ column, value, bad: !/^-0(\.0)?$/.test(value) })),
  fc.tuple(fc.constantFrom(...TEXT_COLUMNS), hugeText).map(([column, value]) => ({ column, value, bad: true })),
  deepObjectText.map((value) => ({ column: "Tags", value, bad: true })),
  // PostgreSQL's text and jsonb hold no U+0000.
  fc.constantFrom(...TEXT_COLUMNS).map((column) => ({ column, value: "a\u0000b", bad: true })),
  fc.constant({ column: "Tags", value: '{"a":"\\u0000"}', bad: true }),
  // Nor a lone surrogate (JSON's escapes can write one; UTF-8 cannot).
  fc.constantFrom('{"a":"\\ud800"}', '{"\\udc00":"a"}', '{"a":["x\\ud83d"]}').map((value) => ({ column: "Tags", value, bad: true })),
);

const oddCell: fc.Arbitrary<Cell> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...DECIMAL_COLUMNS), fc.constantFrom("-0", "0e5", "1e17", "-1.5e-20", "999999999999999999.9999999999", "+7", ".5"))
    .map(([column, value]) => ({
      column,
      value,
      bad: false,
    })),
  fc
    .tuple(
      fc.constantFrom(...TEXT_COLUMNS),
      fc.constantFrom('=HYPERLINK("https://x")', "'=1+1", "+cmd", "@SUM(A1)", "-", "\u0007\u001b", "\ud800", "é😀\u202e"),
    )
    .map(([column, value]) => ({ column, value, bad: false })),
  fc.constantFrom('{"team":"a"}', "{}", "[]", "null", '{"a":[[[[1]]]]}').map((value) => ({ column: "Tags", value, bad: false })),
);

const file = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.oneof(badCell, oddCell), { minLength: 1, maxLength: 3 }), fc.nat())
  .map(([rows, cells, seed]) => {
    const content = Array.from({ length: rows }, () => ({}) as Record<string, string>);
    // A later cell in the same row and column replaces an earlier one: only what is sent counts.
    const placed = new Map<string, Cell>();
    cells.forEach((cell, i) => {
      const row = (seed + i) % rows;
      content[row][cell.column] = cell.value;
      placed.set(`${row}/${cell.column}`, cell);
    });
    const sent = [...placed.values()];
    const extra = [...new Set(sent.map((cell) => cell.column))].filter((column) => !(column in FOCUS_ROW));
    return { csv: focusCsvText(content, extra), bad: sent.some((cell) => cell.bad), cells: sent };
  });

const storedLines = () => ctx.prisma.spendLine.count({ where: { organizationId: org.organization.id } });

test("bad bills: past a bound a 400 naming row and column with nothing stored; never a 5xx", async () => {
  const path = `/api/v1/organizations/${org.organization.id}/spend/imports`;
  await fc.assert(
    fc.asyncProperty(file, async ({ csv, bad, cells }) => {
      const before = await storedLines();
      const res = await request(ctx.app).post(path).set("Authorization", `Bearer ${org.token}`).set("Content-Type", "text/csv").send(Buffer.from(csv));
      const what = `${res.status} ${JSON.stringify(res.body).slice(0, 300)}; cells ${JSON.stringify(cells.map((c) => ({ ...c, value: c.value.slice(0, 60) })))}`;
      if (res.status >= 500) throw new Error(`5xx: ${what}`);
      if (res.status === 201) {
        if (bad) throw new Error(`a cell past a bound was stored: ${what}`);
        await request(ctx.app).delete(`${path}/${res.body.data.import.id}`).set("Authorization", `Bearer ${org.token}`).expect(204);
        return;
      }
      if (res.status !== 400 || !ErrorEnvelope.safeParse(res.body).success) throw new Error(`not a 400 in the envelope: ${what}`);
      if (!/Row \d+, column \w+: /.test(res.body.message)) throw new Error(`the 400 names no row and column: ${what}`);
      if (STACK_OR_SQL.test(res.body.message) || res.body.message.length > 500) throw new Error(`the message leaks or echoes: ${what}`);
      if ((await storedLines()) !== before) throw new Error(`a refused file stored lines: ${what}`);
    }),
    { numRuns: FUZZ_RUNS, ...FUZZ_SEED_OPTION },
  );
});

describe("attack files: refused or answered in seconds, nothing stored, /healthz answering throughout", () => {
  // A small import bound, so that a refusal by the decoded-bytes bound comes early.
  const MAX_BYTES = 2_000_000;
  let small: TestContext;
  let owner: SignedUp;
  let server: ReturnType<TestContext["app"]["listen"]>;

  beforeAll(async () => {
    small = await createTestContext({ SPEND_IMPORT_MAX_BYTES: String(MAX_BYTES) });
    owner = await signUp(small, { company: "Attack Files" });
    server = small.app.listen(0);
  }, 60_000);
  afterAll(async () => {
    server?.close();
    await small?.close();
  });
  /** Runs the attack (its files built beforehand) with /healthz watched; after it, nothing stored. */
  async function underWatch(attack: () => Promise<void>): Promise<void> {
    const health = await watchHealth(server);
    try {
      await attack();
    } finally {
      expect(await health.stop()).toBeLessThan(HEALTH_BOUND_MS);
    }
    expect(await small.prisma.spendLine.count({ where: { organizationId: owner.organization.id } })).toBe(0);
    expect(await small.prisma.spendTagDaily.count({ where: { organizationId: owner.organization.id } })).toBe(0);
  }

  const post = (body: Buffer | string | ArrayBuffer, type: string, query = "") =>
    request(server)
      .post(`/api/v1/organizations/${owner.organization.id}/spend/imports${query}`)
      .set("Authorization", `Bearer ${owner.token}`)
      .set("Content-Type", type)
      // A string as it is (superagent would write a Buffer sent as JSON as its JSON form).
      .send(typeof body === "string" ? body : Buffer.from(body as Buffer));

  test("a Parquet file of one row group of 320,000 rows, one page per column: a 413 by its decoded bytes", async () => {
    const file = alikeFocusParquet(320_000);
    await underWatch(async () => {
      expectError(await post(file, "application/vnd.apache.parquet"), 413, /once decompressed \(SPEND_IMPORT_MAX_BYTES\)/);
    });
  }, 120_000);

  test("a dictionary bomb (a 60 KiB ResourceName kept once, 2,000 rows): a 413", async () => {
    const file = alikeFocusParquet(2_000, { resourceName: "r".repeat(60 * 1024) });
    await underWatch(async () => {
      expectError(await post(file, "application/vnd.apache.parquet"), 413, /once decompressed \(SPEND_IMPORT_MAX_BYTES\)/);
    });
  });

  test("5,000 tag keys on each of 100 lines (gzip CSV, Parquet): a 400 naming the first row", async () => {
    const tags = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, "v"]));
    // About 5 MB of CSV once decompressed, a few kilobytes sent.
    const csv = gzipSync(
      focusCsvText(
        Array.from({ length: 100 }, () => ({ Tags: JSON.stringify(tags) })),
        ["Tags"],
      ),
    );
    const parquet = Buffer.from(focusParquet(20, () => tags));
    await underWatch(async () => {
      const res = await request(server)
        .post(`/api/v1/organizations/${owner.organization.id}/spend/imports`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Content-Type", "text/csv")
        .set("Content-Encoding", "gzip")
        .send(csv);
      expectError(res, 400, /Row 1, column Tags: has 5000 keys/);
      expectError(await post(parquet, "application/vnd.apache.parquet"), 400, /Row 1, column Tags: has 5000 keys/);
    });
  }, 60_000);

  test("manifests of 400 long URIs each: the 21st open session is refused, the list of all of them stays small", async () => {
    const dataFiles = Array.from({ length: 400 }, (_, i) => `s3://bucket/${"p".repeat(2000)}/export-${i}.csv.gz`);
    const manifest = JSON.stringify({ dataFiles });
    for (let i = 1; i <= 20; i++) expect((await post(manifest, "application/json", `?session=m-${i}`)).status).toBe(201);
    await underWatch(async () => {
      expectError(await post(manifest, "application/json", "?session=m-21"), 409, /at most 20 open import sessions/);
      const list = await request(server)
        .get(`/api/v1/organizations/${owner.organization.id}/spend/import-sessions?limit=500`)
        .set("Authorization", `Bearer ${owner.token}`)
        .expect(200);
      expect(list.body.data.items).toHaveLength(20);
      // 20 manifests of 800 KB: without data_files, the list is a few kilobytes.
      expect(JSON.stringify(list.body).length).toBeLessThan(20 * 1024);
    });
  }, 60_000);
});
