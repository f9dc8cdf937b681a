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
import { findMetricAmounts } from "../business-metrics/repository";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import { compileAssigner } from "../dimensions/rollup";
import { dayShares } from "../dimensions/split";
import { organizationDayCosts, readVersionsOf } from "../spend/dimension-spend-repository";
import { type Computed, computeByDimension, computeByTenant, exact, type Sections } from "./compute";
import {
  billTotal,
  correctionRows,
  dimensionRows,
  findRecipient,
  findStatement,
  findStatements,
  latestFinal,
  lockPeriod,
  nextSequence,
  sourceRows,
  type StatementWithRecipients,
  tenantRows,
} from "./repository";

export interface StatementServiceDeps {
  prisma: Prisma;
  sql: Pick<SqlClient, "query">;
  clock: () => Date;
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
  const { prisma, sql, clock } = deps;

  /** The period's recipients, read from the roll-ups (and the correction lines through their partial index). */
  async function compute(organizationId: string, body: CreateStatementRequest, from: string, to: string): Promise<Computed> {
    const fromTs = `${from}T00:00:00.000Z`;
    const toTs = `${to}T00:00:00.000Z`;
    if (body.by === "tenant") {
      const [rows, corrections] = await Promise.all([
        tenantRows(sql, organizationId, body.metric, from, to, body.currency),
        correctionRows(sql, organizationId, body.metric, fromTs, toTs, body.currency, []),
      ]);
      return computeByTenant(rows, corrections);
    }
    const key = body.by.slice("dimension:".length);
    const { versions, unknown } = await readVersionsOf(sql, organizationId, [key]);
    if (unknown.length)
      throw badRequest(`Invalid body: by: no dimension ${key} in this organization`, [{ path: "by", message: `no dimension ${key} in this organization` }]);
    // One version per month: the newest whose month is not after the period's.
    const version = versions.find((row) => row.key === key && row.effective_from <= body.period);
    const splits: SplitRule[] = version?.splits ?? [];
    const assigner = compileAssigner(versions);
    const [rows, sources, corrections, dayCosts] = await Promise.all([
      dimensionRows(sql, organizationId, key, body.metric, from, to, body.currency),
      sourceRows(
        sql,
        organizationId,
        key,
        body.metric,
        from,
        to,
        body.currency,
        splits.map((split) => split.source ?? ""),
      ),
      correctionRows(sql, organizationId, body.metric, fromTs, toTs, body.currency, assigner.fields),
      splits.length ? organizationDayCosts(sql, organizationId, key, body.metric, from, to) : Promise.resolve([]),
    ]);
    const metrics = splitMetricNames(splits);
    const metricAmount = metricAmountLookup(metrics.length ? await findMetricAmounts(sql, organizationId, metrics, from, to) : []);
    const shares = dayShares(dayCosts, metricAmount);
    const assigned = corrections.map((row) => ({ value: assigner.assign(body.period, row.fields as (string | null)[]).get(key) ?? null, row }));
    return computeByDimension(rows, sources, assigned, splits, (day, daySplits) => shares(day, body.currency, daySplits));
  }

  async function recipientOf(ctx: OrganizationContext, id: string, value: string): Promise<RecipientStatement> {
    const organizationId = ctx.organization.id;
    const [statement, recipient, organization] = await Promise.all([
      findStatement(prisma, organizationId, id),
      findRecipient(prisma, organizationId, id, value),
      prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true } }),
    ]);
    if (!statement) throw missing(id);
    if (!recipient) throw notFound(`${value} is not a recipient of statement ${statement.number}.`);
    return {
      statement_id: statement.id,
      organization: organization ?? { id: organizationId, name: organizationId },
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
        billTotal(sql, organizationId, body.metric, from, to, body.currency),
      ]);
      const allocated = computed.recipients.reduce((sum, recipient) => sum.plus(recipient.total), new Decimal(0));
      const difference = new Decimal(bill).minus(allocated).minus(computed.unallocated);
      const id = newId("stm");
      const created = await prisma.$transaction(async (tx) => {
        await lockPeriod(tx, organizationId, body.period);
        const sequence = await nextSequence(tx, organizationId, body.period);
        const previous = await latestFinal(tx, organizationId, { period: body.period, by: body.by, metric: body.metric, currency: body.currency });
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
        await tx.statement.create({
          data: {
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
        });
        if (computed.recipients.length)
          await tx.statementRecipient.createMany({
            data: computed.recipients.map((recipient) => ({
              organizationId,
              statementId: id,
              value: recipient.value,
              total: exact(recipient.total),
              sections: recipient.sections as unknown as Record<string, StatementLine[]>,
            })),
          });
        return findStatement(tx, organizationId, id);
      }, TRANSACTION_OPTIONS);
      return toStatement(created as StatementWithRecipients);
    },

    async list(ctx: OrganizationContext): Promise<{ items: Statement[] }> {
      return { items: (await findStatements(prisma, ctx.organization.id)).map(toStatement) };
    },

    async get(ctx: OrganizationContext, id: string): Promise<Statement> {
      const row = await findStatement(prisma, ctx.organization.id, id);
      if (!row) throw missing(id);
      return toStatement(row);
    },

    async finalize(ctx: OrganizationContext, id: string): Promise<Statement> {
      const organizationId = ctx.organization.id;
      const row = await prisma.$transaction(async (tx) => {
        // Only a draft turns final: the condition makes two concurrent finalizations one success and one 409.
        const { count } = await tx.statement.updateMany({ where: { organizationId, id, status: "draft" }, data: { status: "final", finalizedAt: clock() } });
        const found = await findStatement(tx, organizationId, id);
        if (!found) throw missing(id);
        if (count === 0) throw conflict(`Statement ${found.number} is already final.`);
        return found;
      }, TRANSACTION_OPTIONS);
      return toStatement(row);
    },

    async remove(ctx: OrganizationContext, id: string): Promise<void> {
      const organizationId = ctx.organization.id;
      await prisma.$transaction(async (tx) => {
        const { count } = await tx.statement.deleteMany({ where: { organizationId, id, status: "draft" } });
        if (count > 0) return;
        const found = await findStatement(tx, organizationId, id);
        if (!found) throw missing(id);
        throw conflict(`Statement ${found.number} is final: a final statement is never deleted.`);
      }, TRANSACTION_OPTIONS);
    },

    recipient: recipientOf,
  };
}
