import type { IngestUsageRequest, IngestUsageResponse, RepriceRequest, RepriceResponse, UsageLine } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { currencyTotals } from "./amounts";
import type { LinePricing, SpendLinesRepository } from "./lines-repository";
import { costOutOfRange, pricedState, usageLedgerLine } from "./usage";
import { UNPRICED_CHUNK, type UsageRepository } from "./usage-repository";
import type { TenantRef } from "../context";

export interface UsageServiceDeps extends Pick<AppDeps, "prisma" | "db" | "pricingApi"> {
  /** `prisma` opens the transactions the lines are written in; `db` is what the unpriced lines are read from. */
  lines: SpendLinesRepository;
  usage: UsageRepository;
}

export type UsageService = ReturnType<typeof createUsageService>;

/** The pricing API's usage call takes the usage line shape only. */
const pricingLine = ({ event_id: _eventId, ...line }: UsageLine & { event_id?: string }): UsageLine => line;

/** A tenant's usage lines: stored priced (ingest) and priced again (reprice). */
export function createUsageService(deps: UsageServiceDeps) {
  const { lines: ledger, usage: unpriced } = deps;

  /**
   * Prices the lines with the organization's prices (its pricing account) and stores them all or
   * nothing. PricingUnavailableError (from the pricing client) propagates before anything is written.
   */
  async function ingestUsage(tenant: TenantRef, usage: IngestUsageRequest["usage"]): Promise<IngestUsageResponse> {
    const priced = await deps.pricingApi.priceUsage(tenant.organizationId, usage.map(pricingLine));
    const lines = usage.map((line, index) => usageLedgerLine(tenant.id, line, priced.lines[index]));
    const outOfRange = lines.findIndex((line) => costOutOfRange(line.billedCost));
    if (outOfRange !== -1)
      throw badRequest(
        `Invalid body: usage.${outOfRange}.quantities: cost ${lines[outOfRange].billedCost} at its price; a line's cost is below 10^18 in absolute value`,
      );
    const result = await deps.prisma.$transaction((tx) => ledger.insertLines(tx, tenant.organizationId, lines), TRANSACTION_OPTIONS);
    return {
      accepted: result.inserted,
      duplicates: usage.length - result.inserted,
      priced: result.priced,
      unpriced: result.unpriced,
      totals: currencyTotals(result.totals.map((total) => ({ currency: total.currency, cost: total.billed_cost }))),
    };
  }

  /**
   * Prices the tenant's unpriced usage lines of the range again (at their own timestamps), a chunk
   * of 10,000 at a time, each chunk in its own transaction; lines that stay unpriced keep their
   * (possibly new) reason. Priced lines are never read for writing.
   */
  async function repriceUsage(tenant: TenantRef, range: RepriceRequest): Promise<RepriceResponse> {
    let repriced = 0;
    let after: { at: string; id: string } | null = null;
    const costs: { currency: string; cost: string }[] = [];
    for (;;) {
      const rows = await unpriced.readUnpricedChunk(deps.db, tenant, range, after);
      if (rows.length === 0) break;
      const answer = await deps.pricingApi.priceUsage(
        tenant.organizationId,
        rows.map((row) => row.usage),
      );
      const updates: LinePricing[] = [];
      rows.forEach((row, index) => {
        const state = pricedState(row.usage, answer.lines[index]);
        // A price registered since may make a stored quantity cost more than any amount the ledger keeps: it stays unpriced.
        if (costOutOfRange(state.billedCost)) return;
        if (state.priced || state.unpricedReason !== row.unpriced_reason) updates.push({ id: row.id, ...state });
      });
      const changed = new Set(await deps.prisma.$transaction((tx) => ledger.setLinePricing(tx, tenant.organizationId, updates), TRANSACTION_OPTIONS));
      for (const update of updates) {
        if (!update.priced || !changed.has(update.id) || update.currency === null || update.billedCost === null) continue;
        repriced++;
        costs.push({ currency: update.currency, cost: update.billedCost });
      }
      if (rows.length < UNPRICED_CHUNK) break;
      const last = rows[rows.length - 1];
      after = { at: last.at, id: last.id };
    }
    const left = await unpriced.countUnpriced(deps.db, tenant, range);
    return { repriced, still_unpriced: left, totals: currencyTotals(costs) };
  }

  return { ingestUsage, repriceUsage };
}
