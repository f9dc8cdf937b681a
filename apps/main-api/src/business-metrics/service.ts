import {
  type BusinessMetric,
  MAX_BUSINESS_METRICS,
  type MetricValueInput,
  type MetricValues,
  type MetricValuesMode,
  type MetricValuesPosted,
  type MetricValuesQuery,
  type PutBusinessMetricRequest,
} from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { Decimal } from "@cloudcost/decimal";
import { badRequest, HttpError, notFound } from "@cloudcost/http";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import type { BusinessMetric as BusinessMetricRow } from "../generated/prisma/client";
import { byteOrder } from "../dimensions/split";
import type { BusinessMetricRepository } from "./repository";

/** The most rows one values read answers: beyond, the range is too fine-grained (too many labels) to read at once. */
export const MAX_VALUE_ROWS = 100_000;

export interface BusinessMetricServiceDeps {
  /** Opens the transactions; every query goes through `metrics`. */
  prisma: Prisma;
  metrics: BusinessMetricRepository;
  clock: () => Date;
}

function toMetric(row: BusinessMetricRow): BusinessMetric {
  return {
    name: row.name,
    unit: row.unit,
    description: row.description,
    dimension: row.dimensionKey,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const missing = (name: string) => notFound(`Business metric ${name} is not in this organization.`);

/**
 * The request's amounts as one per (day, label) ('' for none), amounts of the same pair added
 * together, in (day, label) byte order.
 */
export function mergeValues(values: MetricValueInput[]): { day: string; label: string; amount: string }[] {
  const merged = new Map<string, { day: string; label: string; amount: Decimal }>();
  for (const value of values) {
    const label = value.label ?? "";
    const id = `${value.date}\u0000${label}`;
    const entry = merged.get(id);
    if (entry) entry.amount = entry.amount.plus(value.amount);
    else merged.set(id, { day: value.date, label, amount: new Decimal(value.amount) });
  }
  return [...merged.values()]
    .sort((a, b) => (a.day !== b.day ? byteOrder(a.day, b.day) : byteOrder(a.label, b.label)))
    .map((entry) => ({ day: entry.day, label: entry.label, amount: entry.amount.toFixed() }));
}

export type BusinessMetricService = ReturnType<typeof createBusinessMetricService>;

/** The organization's business metrics (every role reads; owners and admins write: the route table's roles). */
export function createBusinessMetricService(deps: BusinessMetricServiceDeps) {
  const { prisma, metrics } = deps;

  return {
    async putMetric({ organization: { id: organizationId } }: OrganizationContext, name: string, body: PutBusinessMetricRequest): Promise<BusinessMetric> {
      const row = await prisma.$transaction(async (tx) => {
        await metrics.lockMetrics(tx, organizationId);
        if (!(await metrics.findMetric(tx, organizationId, name))) {
          const count = await metrics.countMetrics(tx, organizationId);
          if (count >= MAX_BUSINESS_METRICS)
            throw new HttpError(
              "limit_reached",
              `The organization has ${count} business metrics, at most ${MAX_BUSINESS_METRICS}: delete one before creating another.`,
            );
        }
        return metrics.upsertMetric(
          tx,
          organizationId,
          name,
          { unit: body.unit, description: body.description || null, dimensionKey: body.dimension ?? null },
          deps.clock(),
        );
      }, TRANSACTION_OPTIONS);
      return toMetric(row);
    },

    async listMetrics({ organization: { id: organizationId } }: OrganizationContext): Promise<{ items: BusinessMetric[] }> {
      return { items: (await metrics.findMetrics(prisma, organizationId)).map(toMetric) };
    },

    async getMetric({ organization: { id: organizationId } }: OrganizationContext, name: string): Promise<BusinessMetric> {
      const row = await metrics.findMetric(prisma, organizationId, name);
      if (!row) throw missing(name);
      return toMetric(row);
    },

    async deleteMetric({ organization: { id: organizationId } }: OrganizationContext, name: string): Promise<void> {
      const deleted = await prisma.$transaction((tx) => metrics.deleteMetric(tx, organizationId, name), TRANSACTION_OPTIONS);
      if (deleted === 0) throw missing(name);
    },

    /**
     * Stores the amounts all or nothing: the metric held against a concurrent delete, then one
     * statement writing every (day, label) pair (`sum` adds, `replace` puts in place).
     */
    async postValues(
      { organization: { id: organizationId } }: OrganizationContext,
      name: string,
      mode: MetricValuesMode,
      values: MetricValueInput[],
    ): Promise<MetricValuesPosted> {
      const rows = mergeValues(values);
      await prisma.$transaction(async (tx) => {
        if (!(await metrics.holdMetric(tx, organizationId, name))) throw missing(name);
        await metrics.writeValues(tx, organizationId, name, mode, rows);
      }, TRANSACTION_OPTIONS);
      return { name, mode, received: values.length, stored: rows.length, first_date: rows[0].day, last_date: rows[rows.length - 1].day };
    },

    async listValues({ organization: { id: organizationId } }: OrganizationContext, name: string, query: MetricValuesQuery): Promise<MetricValues> {
      const metric = await metrics.findMetric(prisma, organizationId, name);
      if (!metric) throw missing(name);
      const rows = await metrics.findValues(prisma, organizationId, name, query.start, query.end, MAX_VALUE_ROWS + 1);
      if (rows.length > MAX_VALUE_ROWS)
        throw badRequest(`Invalid query: end: the range holds more than ${MAX_VALUE_ROWS} (date, label) amounts; read a shorter one`, [
          { path: "end", message: `more than ${MAX_VALUE_ROWS} amounts over the range` },
        ]);
      return {
        name,
        unit: metric.unit,
        start: query.start,
        end: query.end,
        rows: rows.map((row) => ({ date: row.date, label: row.label === "" ? null : row.label, amount: row.amount })),
      };
    },
  };
}
