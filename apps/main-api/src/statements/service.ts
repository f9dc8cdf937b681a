import {
  type CreateStatementRequest,
  MAX_STATEMENT_MONTHS_BACK,
  type RecipientStatement,
  type SplitRule,
  type Statement,
  type StatementLine,
} from "@cloudcost/contracts";
import { newId, type SqlClient, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { Decimal } from "@cloudcost/decimal";
import { badRequest, conflict, notFound } from "@cloudcost/http";
import { metricAmountLookup, splitMetricNames } from "../business-metrics/amounts";
import type { MetricAmountsRepository } from "../business-metrics/amounts-repository";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import { compileAssigner } from "../dimensions/rollup";
import { dayShares } from "../dimensions/split";
import type { OrganizationRepository } from "../organizations/repository";
import type { DimensionSpendRepository } from "../spend/dimension-spend-repository";
import { type Computed, computeByDimension, computeByTenant, exact, type Sections } from "./compute";
import type { StatementRepository, StatementWithRecipients } from "./repository";
import type { StatementCostRepository } from "./cost-repository";

export interface StatementServiceDeps {
  /** Opens the transactions; the statements are read and written through `statements`. */
  prisma: Prisma;
  /** The client the costs are read with (`costs`, `dimensionSpend`, `metricAmounts`). */
  sql: Pick<SqlClient, "query">;
  clock: () => Date;
  statements: StatementRepository;
  costs: StatementCostRepository;
  dimensionSpend: Pick<DimensionSpendRepository, "readVersionsOf" | "organizationDayCosts">;
  metricAmounts: Pick<MetricAmountsRepository, "findMetricAmounts">;
  /** The organization's name, on a recipient's statement. */
  organizations: Pick<OrganizationRepository, "findOrganization">;
}

const monthIndex = (period: string) => Number(period.slice(0, 4)) * 12 + Number(period.slice(5, 7)) - 1;
const monthStart = (index: number) => `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}-01`;
const text = (value: { toFixed(): string }) => exact(new Decimal(value.toFixed()));

function toStatement(row: StatementWithRecipients): Statement {
  return {
    id: row.id,
    number: row.number,
    period: row.period,
    by: row.by,
    metric: row.metric as Statement["metric"],
    currency: row.currency,
    status: row.status as Statement["status"],
    created_at: row.createdAt.toISOString(),
    finalized_at: row.finalizedAt?.toISOString() ?? null,
    supersedes: row.supersedesId,
    changes: (row.changes as Statement["changes"]) ?? null,
    recipients: row.recipients.map((recipient) => ({ value: recipient.value, total: text(recipient.total) })),
    reconciliation: {
      bill_total: text(row.billTotal),
      allocated_total: text(row.allocatedTotal),
      unallocated_total: text(row.unallocatedTotal),
      difference: text(row.difference),
    },
  };
}

const missing = (id: string) => notFound(`Statement ${id} is not in this organization.`);

export type StatementService = ReturnType<typeof createStatementService>;

/** Showback statements (docs/api.md, "Statements"): owners and admins only (the route table's roles). */
export function createStatementService(deps: StatementServiceDeps) {
  const { prisma, sql, clock, statements, costs } = deps;

  /** The period's recipients, read from the roll-ups (and the correction lines through their partial index). */
  async function compute(organizationId: string, body: CreateStatementRequest, from: string, to: string): Promise<Computed> {
    const fromTs = `${from}T00:00:00.000Z`;
    const toTs = `${to}T00:00:00.000Z`;
    if (body.by === "tenant") {
      const [rows, corrections] = await Promise.all([
        costs.tenantRows(sql, organizationId, body.metric, from, to, body.currency),
        costs.correctionRows(sql, organizationId, body.metric, fromTs, toTs, body.currency, []),
      ]);
      return computeByTenant(rows, corrections);
    }
    const key = body.by.slice("dimension:".length);
    const { versions, unknown } = await deps.dimensionSpend.readVersionsOf(sql, organizationId, [key]);
    if (unknown.length)
      throw badRequest(`Invalid body: by: no dimension ${key} in this organization`, [{ path: "by", message: `no dimension ${key} in this organization` }]);
    // One version per month: the newest whose month is not after the period's.
    const version = versions.find((row) => row.key === key && row.effective_from <= body.period);
    const splits: SplitRule[] = version?.splits ?? [];
    const assigner = compileAssigner(versions);
    const [rows, sources, corrections, dayCosts] = await Promise.all([
      costs.dimensionRows(sql, organizationId, key, body.metric, from, to, body.currency),
      costs.sourceRows(
        sql,
        organizationId,
        key,
        body.metric,
        from,
        to,
        body.currency,
        splits.map((split) => split.source ?? ""),
      ),
      costs.correctionRows(sql, organizationId, body.metric, fromTs, toTs, body.currency, assigner.fields),
      splits.length ? deps.dimensionSpend.organizationDayCosts(sql, organizationId, key, body.metric, from, to) : Promise.resolve([]),
    ]);
    const metrics = splitMetricNames(splits);
    const metricAmount = metricAmountLookup(metrics.length ? await deps.metricAmounts.findMetricAmounts(sql, organizationId, metrics, from, to) : []);
    const shares = dayShares(dayCosts, metricAmount);
    const assigned = corrections.map((row) => ({ value: assigner.assign(body.period, row.fields as (string | null)[]).get(key) ?? null, row }));
    return computeByDimension(rows, sources, assigned, splits, (day, daySplits) => shares(day, body.currency, daySplits));
  }

  async function recipientOf(ctx: OrganizationContext, id: string, value: string): Promise<RecipientStatement> {
    const organizationId = ctx.organization.id;
    const [statement, recipient, organization] = await Promise.all([
      statements.findStatement(prisma, organizationId, id),
      statements.findRecipient(prisma, organizationId, id, value),
      deps.organizations.findOrganization(prisma, organizationId),
    ]);
    if (!statement) throw missing(id);
    if (!recipient) throw notFound(`${value} is not a recipient of statement ${statement.number}.`);
    return {
      statement_id: statement.id,
      organization: organization ? { id: organization.id, name: organization.name } : { id: organizationId, name: organizationId },
      number: statement.number,
      period: statement.period,
      by: statement.by,
      metric: statement.metric as RecipientStatement["metric"],
      currency: statement.currency,
      status: statement.status as RecipientStatement["status"],
      recipient: value,
      sections: recipient.sections as unknown as Sections,
      total: text(recipient.total),
    };
  }

  return {
    async create(ctx: OrganizationContext, body: CreateStatementRequest): Promise<Statement> {
      const organizationId = ctx.organization.id;
      const now = clock();
      const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
      const month = monthIndex(body.period);
      if (month > current) throw badRequest(`Invalid body: period: ${body.period} is in the future`, [{ path: "period", message: "is in the future" }]);
      if (current - month > MAX_STATEMENT_MONTHS_BACK)
        throw badRequest(`Invalid body: period: ${body.period} is more than ${MAX_STATEMENT_MONTHS_BACK} months back`, [
          { path: "period", message: `is more than ${MAX_STATEMENT_MONTHS_BACK} months back` },
        ]);
      const from = monthStart(month);
      const to = monthStart(month + 1);
      const [computed, bill] = await Promise.all([
        compute(organizationId, body, from, to),
        costs.billTotal(sql, organizationId, body.metric, from, to, body.currency),
      ]);
      const allocated = computed.recipients.reduce((sum, recipient) => sum.plus(recipient.total), new Decimal(0));
      const difference = new Decimal(bill).minus(allocated).minus(computed.unallocated);
      const id = newId("stm");
      const created = await prisma.$transaction(async (tx) => {
        await statements.lockPeriod(tx, organizationId, body.period);
        const sequence = await statements.nextSequence(tx, organizationId, body.period);
        const previous = await statements.latestFinal(tx, organizationId, { period: body.period, by: body.by, metric: body.metric, currency: body.currency });
        let changes: Statement["changes"] = null;
        if (previous) {
          const before = new Map(previous.recipients.map((recipient) => [recipient.value, new Decimal(recipient.total.toFixed())]));
          const after = new Map(computed.recipients.map((recipient) => [recipient.value, recipient.total]));
          changes = [...new Set([...before.keys(), ...after.keys()])].sort().map((value) => {
            const was = before.get(value) ?? new Decimal(0);
            const is = after.get(value) ?? new Decimal(0);
            return { value, previous_total: exact(was), total: exact(is), difference: exact(is.minus(was)) };
          });
        }
        await statements.insertStatement(
          tx,
          {
            organizationId,
            id,
            period: body.period,
            sequence,
            number: `${body.period}-${String(sequence).padStart(4, "0")}`,
            by: body.by,
            metric: body.metric,
            currency: body.currency,
            status: "draft",
            supersedesId: previous?.id ?? null,
            changes: changes ?? undefined,
            billTotal: bill,
            allocatedTotal: exact(allocated),
            unallocatedTotal: exact(computed.unallocated),
            difference: exact(difference),
            createdAt: now,
          },
          computed.recipients.map((recipient) => ({
            organizationId,
            statementId: id,
            value: recipient.value,
            total: exact(recipient.total),
            sections: recipient.sections as unknown as Record<string, StatementLine[]>,
          })),
        );
        return statements.findStatement(tx, organizationId, id);
      }, TRANSACTION_OPTIONS);
      return toStatement(created as StatementWithRecipients);
    },

    async list(ctx: OrganizationContext): Promise<{ items: Statement[] }> {
      return { items: (await statements.findStatements(prisma, ctx.organization.id)).map(toStatement) };
    },

    async get(ctx: OrganizationContext, id: string): Promise<Statement> {
      const row = await statements.findStatement(prisma, ctx.organization.id, id);
      if (!row) throw missing(id);
      return toStatement(row);
    },

    async finalize(ctx: OrganizationContext, id: string): Promise<Statement> {
      const organizationId = ctx.organization.id;
      const row = await prisma.$transaction(async (tx) => {
        // Only a draft turns final: the condition makes two concurrent finalizations one success and one 409.
        const count = await statements.finalizeDraft(tx, organizationId, id, clock());
        const found = await statements.findStatement(tx, organizationId, id);
        if (!found) throw missing(id);
        if (count === 0) throw conflict(`Statement ${found.number} is already final.`);
        return found;
      }, TRANSACTION_OPTIONS);
      return toStatement(row);
    },

    async remove(ctx: OrganizationContext, id: string): Promise<void> {
      const organizationId = ctx.organization.id;
      await prisma.$transaction(async (tx) => {
        const count = await statements.deleteDraft(tx, organizationId, id);
        if (count > 0) return;
        const found = await statements.findStatement(tx, organizationId, id);
        if (!found) throw missing(id);
        throw conflict(`Statement ${found.number} is final: a final statement is never deleted.`);
      }, TRANSACTION_OPTIONS);
    },

    recipient: recipientOf,
  };
}
