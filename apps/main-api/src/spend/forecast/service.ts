import type { SpendForecast, SpendForecastQuery } from "@cloudcost/contracts";
import { centsText, type Decimal } from "@cloudcost/decimal";
import type { TenantRef } from "../../context";
import type { AppDeps } from "../../deps";
import { badRequest } from "@cloudcost/http";
import { spendReport } from "../dimension-query";
import type { SpendReads } from "../spend-reads";
import { hasDimension, recurringDimensionMatcher } from "./dimension-filter";
import { periodBounds } from "./periods";
import type { ForecastRepository } from "./repository";
import { computeForecast } from "./rules";
import { dayCosts, forecastRanges, lineMatcher, recurringCharges } from "./series";

const orNull = (value: Decimal | null) => (value === null ? null : centsText(value));

export interface ForecastServiceDeps extends Pick<AppDeps, "prisma"> {
  /** The spend query and the dimensions are read through `reads`; `prisma` is the client the recurring lines are read with. */
  reads: SpendReads;
  forecasts: ForecastRepository;
}

export type ForecastService = ReturnType<typeof createForecastService>;

/** The spend forecast of a tenant. */
export function createForecastService(deps: ForecastServiceDeps) {
  const { forecasts } = deps;

  /**
   * The forecast of the tenant's current period (docs/api.md, "Spend forecast"), with every filter
   * of the spend queries: its days are read through the spend query (which picks the roll-up that
   * answers the filters), grouped by charge frequency.
   */
  async function forecastSpend(tenant: TenantRef, query: SpendForecastQuery, now = new Date()): Promise<SpendForecast> {
    const period = periodBounds(query.period, now);
    const ranges = forecastRanges(period, now);
    const [key, values] = Object.entries(query.dimension_filters ?? {})[0] ?? [];
    const dimension = key === undefined ? null : { key, values };
    if (dimension && !(await hasDimension(deps.reads, tenant.organizationId, dimension.key)))
      throw badRequest(`Invalid query: dimension:${dimension.key}: no dimension ${dimension.key} in this organization`, [
        { path: `dimension:${dimension.key}`, message: `no dimension ${dimension.key} in this organization` },
      ]);
    const report = await spendReport(
      deps.reads,
      { organizationId: tenant.organizationId, tenantIds: [tenant.id] },
      {
        start: `${ranges.days.from}T00:00:00.000Z`,
        end: `${ranges.days.to}T00:00:00.000Z`,
        granularity: "day",
        metric: query.metric,
        group_by: ["charge_frequency"],
        filters: query.filters,
        tags: query.tags,
        dimension_filters: query.dimension_filters,
      },
    );
    // A day with lines in any currency has data (zero in this one).
    const days = dayCosts(
      report.rows.map((row) => {
        const cost = row.currency === query.currency ? row.cost : "0";
        const usageBased = row.group.charge_frequency === "Usage-Based";
        return { day: row.period_start.slice(0, 10), usage: usageBased ? cost : "0", other: usageBased ? "0" : cost };
      }),
    );
    const lines = await forecasts.readRecurringLines(deps.prisma, tenant, ranges.recurring);
    const matches = lineMatcher(query.filters, query.tags);
    const inDimension = dimension ? await recurringDimensionMatcher(deps.reads, tenant.organizationId, tenant.id, dimension) : () => true;
    const recurring = recurringCharges(lines, query.metric, query.currency, (line) => matches(line) && inDimension(line));
    const forecast = computeForecast({ period, now, days, recurring });
    return {
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      rows: forecast.rows.map((row) => ({
        day: row.day,
        actual: row.actual === null ? null : centsText(row.actual),
        expected: orNull(row.expected),
        expected_low: orNull(row.expectedLow),
        expected_high: orNull(row.expectedHigh),
      })),
      data_through: forecast.dataThrough,
      spent: centsText(forecast.spent),
      recurring_remaining: centsText(forecast.recurringRemaining),
      usage_remaining: centsText(forecast.usageRemaining),
      forecast: orNull(forecast.forecast),
      forecast_low: orNull(forecast.forecastLow),
      forecast_high: orNull(forecast.forecastHigh),
      currency: query.currency,
      basis: forecast.basis,
    };
  }

  return { forecastSpend };
}
