import type { SpendAllocationRules, PaginationQuery, SpendImport } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest, HttpError, notFound, type RawBody } from "@cloudcost/http";
import type { Principal } from "../../auth/principal";
import type { Prisma } from "../../db";
import type { SpendImport as ImportRow } from "../../generated/prisma/client";
import { decodeCursor, toPage } from "../../http/pagination";
import { assertMember } from "../../organizations/access";
import { assertLiveTenants } from "../../tenants/validate";
import { emitWebhookEvent } from "../../webhooks/events";
import { FocusFormatError, type FocusReadInfo, FocusTooLargeError } from "../focus";
import { deleteImportLines, deleteSupersededLines, insertLines, type LedgerLineInput, rollupImport } from "../ledger";
import { allocator, reallocateImports } from "./allocation";
import { focusLinesOf, type ReceivedFocusBody, receiveFocusBody } from "./body";
import { ImportTally, textTags, toLedgerLine } from "./import-lines";
import { deleteImportRow, findImport, findImports, insertImport, lockOrganizationImports, readRules, writeRules } from "./repository";

const BATCH_LINES = 5000;
/** An import parses its whole (already received) file inside its transaction. */
const IMPORT_TRANSACTION = { maxWait: 20_000, timeout: 30 * 60_000 } as const;
const TRANSACTION = { maxWait: 20_000, timeout: 120_000 } as const;

function toSpendImport(row: ImportRow): SpendImport {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    file_name: row.fileName,
    focus_version: row.focusVersion as SpendImport["focus_version"],
    rows: row.rows,
    allocated_rows: row.allocatedRows,
    unallocated_rows: row.unallocatedRows,
    billing_account_ids: row.billingAccountIds,
    billing_periods: row.billingPeriods as SpendImport["billing_periods"],
    totals: row.totals as SpendImport["totals"],
    superseded_import_ids: row.supersededImportIds,
  };
}

/**
 * Imports the request's FOCUS file: every line allocated by the rules and
 * stored with the daily roll-up, then the lines of earlier imports for the same (billing account,
 * billing period) pairs deleted, all in one transaction with its `import.completed` event (the
 * caller kicks the outbox). A bad row is a 400 and nothing is stored.
 */
export async function importFocus(
  prisma: Prisma,
  caller: Principal,
  organizationId: string,
  raw: RawBody,
  options: { maxBytes: number; fileName?: string },
): Promise<SpendImport> {
  assertMember(caller, organizationId);
  const id = newId("imp");
  const info: FocusReadInfo = {};
  let body: ReceivedFocusBody | undefined;
  try {
    body = await receiveFocusBody(raw, options.maxBytes);
    const received = body;
    const row = await prisma.$transaction(async (tx) => {
      await lockOrganizationImports(tx, organizationId);
      const allocate = allocator(await readRules(tx, organizationId));
      const tally = new ImportTally();
      // The database stores one batch while the next is parsed: at most one insert in flight.
      let inFlight: Promise<void> = Promise.resolve();
      const store = async (lines: LedgerLineInput[]) => {
        await inFlight;
        inFlight = insertLines(tx, organizationId, lines, { rollup: false }).then((stored) => tally.addStored(stored));
      };
      let batch: LedgerLineInput[] = [];
      try {
        for await (const parsed of focusLinesOf(received, info, options.maxBytes)) {
          const line = { ...parsed, tags: textTags(parsed.tags) };
          const tenantId = allocate(line);
          tally.add(line, tenantId);
          batch.push(toLedgerLine(line, tenantId, id));
          if (batch.length === BATCH_LINES) {
            await store(batch);
            batch = [];
          }
        }
        if (batch.length) await store(batch);
      } finally {
        // Never leave the transaction with a statement still running (a parse error rolls back after it).
        await inFlight.catch(() => undefined);
      }
      await inFlight;
      await rollupImport(tx, organizationId, id);
      const superseded = await deleteSupersededLines(tx, organizationId, id, tally.billingPairs());
      const created = await insertImport(tx, {
        organizationId,
        id,
        fileName: options.fileName ?? null,
        focusVersion: info.reader?.version ?? "1.0",
        rows: tally.rows,
        allocatedRows: tally.allocated,
        unallocatedRows: tally.rows - tally.allocated,
        billingAccountIds: tally.billingAccountIds(),
        billingPeriods: tally.billingPeriods(),
        totals: tally.currencyTotals(),
        supersededImportIds: superseded,
      });
      const imported = toSpendImport(created);
      await emitWebhookEvent(tx, { organizationId, type: "import.completed", data: { ...imported } });
      return imported;
    }, IMPORT_TRANSACTION);
    return row;
  } catch (err) {
    // The rest of a refused body is read and dropped, so that the answer reaches the client.
    if (!raw.stream.readableEnded) raw.stream.resume();
    if (err instanceof FocusFormatError) throw badRequest(`Invalid FOCUS file: ${err.message}`);
    if (err instanceof FocusTooLargeError) throw new HttpError("payload_too_large", err.message);
    throw err;
  } finally {
    await body?.remove();
  }
}

/** The organization's imports, newest first. */
export async function listImports(prisma: Prisma, caller: Principal, organizationId: string, query: PaginationQuery) {
  assertMember(caller, organizationId);
  const before = decodeCursor(query.cursor);
  const rows = await findImports(prisma, organizationId, before, query.limit + 1);
  return toPage(rows, query.limit, toSpendImport);
}

export async function getImport(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<SpendImport> {
  assertMember(caller, organizationId);
  const row = await findImport(prisma, organizationId, id);
  if (!row) throw notFound(`No import ${id} in this organization.`);
  return toSpendImport(row);
}

/** Deletes an import and its lines (those no later import superseded), keeping the roll-up right. */
export async function deleteImport(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<void> {
  assertMember(caller, organizationId);
  await prisma.$transaction(async (tx) => {
    await lockOrganizationImports(tx, organizationId);
    if ((await deleteImportRow(tx, organizationId, id)) === 0) throw notFound(`No import ${id} in this organization.`);
    await deleteImportLines(tx, organizationId, [id]);
  }, TRANSACTION);
}

export async function getAllocationRules(prisma: Prisma, caller: Principal, organizationId: string): Promise<SpendAllocationRules> {
  assertMember(caller, organizationId);
  return { rules: await readRules(prisma, organizationId) };
}

/** Replaces the rules and re-allocates every stored import line under them, in one transaction. */
export async function putAllocationRules(prisma: Prisma, caller: Principal, organizationId: string, body: SpendAllocationRules) {
  assertMember(caller, organizationId);
  return prisma.$transaction(async (tx) => {
    await lockOrganizationImports(tx, organizationId);
    await assertLiveTenants(
      tx,
      organizationId,
      body.rules.map((rule) => rule.tenant_id),
      "rules.tenant_id",
    );
    await writeRules(tx, organizationId, body.rules);
    const moved = await reallocateImports(tx, organizationId, body.rules);
    return { rules: body.rules, reallocated_lines: moved };
  }, TRANSACTION);
}
