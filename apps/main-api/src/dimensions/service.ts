import {
  type Dimension,
  type DimensionPreview,
  type DimensionPreviewQuery,
  type DimensionRule,
  MAX_DIMENSION_VERSIONS,
  MAX_DIMENSIONS,
  MAX_EFFECTIVE_MONTHS_BACK,
  type PutDimensionRequest,
  type SplitRule,
} from "@cloudcost/contracts";
import { newId, type SqlClient, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, conflict, type FieldError, HttpError, notFound } from "@cloudcost/http";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import type { DimensionVersion, Prisma as Models } from "../generated/prisma/client";
import { metricAmountLookup, splitMetricNames } from "../business-metrics/amounts";
import type { MetricAmountRow } from "../business-metrics/amounts-repository";
import { findCycle, invalidRegexes, referencedDimensions } from "./conditions";
import { fieldsRead, MAX_PREVIEW_GROUPS, previewFromGroups, versionsRead } from "./preview";
import type { DimensionRepository } from "./repository";
import type { clearRows } from "./rollup-repository";

/** A version takes effect this many months before the current one unless it says otherwise. */
const DEFAULT_MONTHS_BACK = 12;
/** How far ahead a version may be scheduled. */
const MAX_MONTHS_AHEAD = 12;
const DAY_MS = 86_400_000;

export interface DimensionServiceDeps {
  /** Opens the transactions; every query goes through `dimensions`. */
  prisma: Prisma;
  dimensions: DimensionRepository;
  /** The roll-up rows of a deleted dimension. */
  rollups: { clearRows: typeof clearRows };
  /** The line queries (the preview's grouping). */
  sql: SqlClient;
  /** The organization's default currency (a preview's, unless it names one). */
  defaultCurrency: (organizationId: string) => Promise<string>;
  /** The amounts of business metrics (`names`) of days [from, to): what a preview's `metric` splits share by. */
  metricAmounts: (organizationId: string, names: string[], from: string, to: string) => Promise<MetricAmountRow[]>;
  clock: () => Date;
}

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
const invalid = (errors: FieldError[]) =>
  badRequest(
    `Invalid body: ${errors
      .map((e) => `${e.path}: ${e.message}`)
      .slice(0, 5)
      .join("; ")}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ""}`,
    errors,
  );

function toDimension(row: DimensionVersion): Dimension {
  return {
    key: row.key,
    name: row.name,
    description: row.description,
    version: row.version,
    effective_from: row.effectiveFrom.toISOString().slice(0, 7),
    rules: row.rules as unknown as DimensionRule[],
    default_value: row.defaultValue,
    splits: row.splits as unknown as SplitRule[],
    status: row.status as Dimension["status"],
    applied_at: row.appliedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The dimensions each version's rules read, by key (every version: an older one still applies to its months). */
function readsByKey(rows: DimensionVersion[]): Map<string, Set<string>> {
  const reads = new Map<string, Set<string>>();
  for (const row of rows) {
    const keys = reads.get(row.key) ?? new Set<string>();
    for (const key of referencedDimensions(row.rules as unknown as DimensionRule[]).keys()) keys.add(key);
    reads.set(row.key, keys);
  }
  return reads;
}

/** The draft's `dimension:<key>` conditions name dimensions of the organization, and close no cycle through them (400s naming the path). */
function checkReferences(key: string, rules: DimensionRule[], all: DimensionVersion[]): void {
  const keys = new Set(all.map((r) => r.key));
  const referenced = referencedDimensions(rules);
  const unknown = [...referenced].filter(([other]) => other !== key && !keys.has(other));
  if (unknown.length) throw invalid(unknown.map(([other, path]) => ({ path, message: `no dimension ${other} in this organization` })));
  const reads = readsByKey(all.filter((r) => r.key !== key));
  reads.set(key, new Set(referenced.keys()));
  const cycle = findCycle(key, reads);
  if (cycle) {
    const first = cycle[1];
    throw invalid([{ path: referenced.get(first) ?? "rules", message: `dimension:${first} closes a cycle: ${cycle.join(" -> ")}` }]);
  }
}

export type DimensionService = ReturnType<typeof createDimensionService>;

/** The organization's dimensions (every role reads; owners and admins write: the route table's roles). */
export function createDimensionService(deps: DimensionServiceDeps) {
  const { prisma, dimensions } = deps;

  /** The month a new version takes effect from: its own (at most 36 months back, 12 ahead) or 12 months back. */
  function effectiveMonth(requested: string | undefined): string {
    const now = deps.clock();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (requested === undefined) return monthOf(current - DEFAULT_MONTHS_BACK);
    const index = monthIndex(requested);
    if (index < current - MAX_EFFECTIVE_MONTHS_BACK || index > current + MAX_MONTHS_AHEAD)
      throw invalid([
        {
          path: "effective_from",
          message: `must be from ${monthOf(current - MAX_EFFECTIVE_MONTHS_BACK)} (${MAX_EFFECTIVE_MONTHS_BACK} months back) to ${monthOf(current + MAX_MONTHS_AHEAD)}`,
        },
      ]);
    return requested;
  }

  async function existing(organizationId: string, key: string, version?: number): Promise<DimensionVersion> {
    const row = await dimensions.findVersion(prisma, organizationId, key, version);
    if (!row) throw notFound(version === undefined ? `Dimension ${key} is not in this organization.` : `Dimension ${key} has no version ${version}.`);
    return row;
  }

  return {
    /** Adds the next version of `key` (its first creates it). */
    async putDimension({ organization: { id: organizationId } }: OrganizationContext, key: string, body: PutDimensionRequest): Promise<Dimension> {
      const regexErrors = invalidRegexes(body.rules);
      if (regexErrors.length) throw invalid(regexErrors);
      const effectiveFrom = effectiveMonth(body.effective_from);
      const row = await prisma.$transaction(async (tx) => {
        await dimensions.lockDimensions(tx, organizationId);
        const all = await dimensions.findAllVersions(tx, organizationId);
        const keys = new Set(all.map((r) => r.key));
        if (!keys.has(key) && keys.size >= MAX_DIMENSIONS)
          throw new HttpError("limit_reached", `The organization has ${keys.size} dimensions, at most ${MAX_DIMENSIONS}: delete one before creating another.`);
        checkReferences(key, body.rules, all);
        const versions = all.filter((r) => r.key === key);
        if (versions.length >= MAX_DIMENSION_VERSIONS)
          throw new HttpError(
            "limit_reached",
            `Dimension ${key} has ${versions.length} versions, at most ${MAX_DIMENSION_VERSIONS}: delete it and create it again with the rules it should keep.`,
          );
        const version = (versions[0]?.version ?? 0) + 1;
        const splits: SplitRule[] = (body.splits ?? []).map((split) => ({ id: newId("spl"), ...split }));
        return dimensions.insertVersion(tx, {
          organizationId,
          key,
          version,
          name: body.name,
          description: body.description || null,
          effectiveFrom: new Date(`${effectiveFrom}-01T00:00:00Z`),
          rules: body.rules as unknown as Models.InputJsonValue,
          defaultValue: body.default_value ?? null,
          splits: splits as unknown as Models.InputJsonValue,
        });
      }, TRANSACTION_OPTIONS);
      return toDimension(row);
    },

    /** What the draft would do to the range's lines; nothing is stored. */
    async previewDimension(
      { organization: { id: organizationId } }: OrganizationContext,
      key: string,
      body: PutDimensionRequest,
      query: DimensionPreviewQuery,
    ): Promise<DimensionPreview> {
      const regexErrors = invalidRegexes(body.rules);
      if (regexErrors.length) throw invalid(regexErrors);
      const all = (await dimensions.findAllVersions(prisma, organizationId)).filter((row) => row.key !== key);
      checkReferences(key, body.rules, all);
      const read = fieldsRead(body.rules);
      const others = versionsRead(read.dimensions, all);
      const fields = new Set(read.fields);
      for (const versions of others.values())
        for (const row of versions) for (const field of fieldsRead(row.rules as unknown as DimensionRule[]).fields) fields.add(field);
      const currency = query.currency ?? (await deps.defaultCurrency(organizationId));
      const ordered = [...fields];
      const groups = await dimensions.findLineGroups(deps.sql, organizationId, { ...query, currency }, ordered, MAX_PREVIEW_GROUPS + 1);
      const splits: SplitRule[] = (body.splits ?? []).map((split, i) => ({ id: `spl_preview_${i + 1}`, ...split }));
      const lastDay = new Date(Math.ceil(Date.parse(query.end) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
      const amounts = await deps.metricAmounts(organizationId, splitMetricNames(splits), query.start.slice(0, 10), lastDay);
      return previewFromGroups(body, splits, others, ordered, groups, { ...query, currency }, metricAmountLookup(amounts));
    },

    async listDimensions({ organization: { id: organizationId } }: OrganizationContext): Promise<{ items: Dimension[] }> {
      return { items: (await dimensions.findNewestVersions(prisma, organizationId)).map(toDimension) };
    },

    async getDimension({ organization: { id: organizationId } }: OrganizationContext, key: string, version?: number): Promise<Dimension> {
      return toDimension(await existing(organizationId, key, version));
    },

    async listVersions({ organization: { id: organizationId } }: OrganizationContext, key: string): Promise<{ items: Dimension[] }> {
      const rows = await dimensions.findVersions(prisma, organizationId, key);
      if (!rows.length) throw notFound(`Dimension ${key} is not in this organization.`);
      return { items: rows.map(toDimension) };
    },

    /** Deletes the dimension with its versions; refused while another dimension's rules read it. */
    async deleteDimension({ organization: { id: organizationId } }: OrganizationContext, key: string): Promise<void> {
      await prisma.$transaction(async (tx) => {
        await dimensions.lockDimensions(tx, organizationId);
        const all = await dimensions.findAllVersions(tx, organizationId);
        if (!all.some((r) => r.key === key)) throw notFound(`Dimension ${key} is not in this organization.`);
        const readers = [...readsByKey(all.filter((r) => r.key !== key))].filter(([, reads]) => reads.has(key)).map(([reader]) => reader);
        if (readers.length) throw conflict(`Dimension ${key} is read by the rules of ${readers.join(", ")} (dimension:${key}): change those first.`);
        await dimensions.deleteDimensionRows(tx, organizationId, key);
        await deps.rollups.clearRows(tx, organizationId, [key], null, null);
      }, TRANSACTION_OPTIONS);
    },
  };
}
