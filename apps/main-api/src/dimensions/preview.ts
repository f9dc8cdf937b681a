import {
  type DimensionPreview,
  type DimensionPreviewQuery,
  type DimensionRule,
  type PutDimensionRequest,
  type SplitRule,
  UNALLOCATED,
} from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { badRequest } from "@cloudcost/http";
import type { DimensionVersion } from "../generated/prisma/client";
import { type Assignment, compileAssignment, type FieldReader } from "./assign";
import { eachLeaf } from "./conditions";
import type { LineGroup } from "./repository";
import { byteOrder, type DayCosts, type MetricAmountOf, splitDay } from "./split";

/** The most (day, field values) groups a preview reads: beyond, the range is too fine-grained to preview at once. */
export const MAX_PREVIEW_GROUPS = 200_000;

/** The fields (line fields and `tag:<key>`, not `dimension:<key>`) the rules read, and the dimensions they read. */
export function fieldsRead(rules: DimensionRule[]): { fields: Set<string>; dimensions: Set<string> } {
  const fields = new Set<string>();
  const dimensions = new Set<string>();
  eachLeaf(rules, (leaf) => {
    const field = leaf.field as string;
    if (field.startsWith("dimension:")) dimensions.add(field.slice("dimension:".length));
    else fields.add(field);
  });
  for (const rule of rules) if (rule.value_from) fields.add(rule.value_from);
  return { fields, dimensions };
}

/** The versions of `keys` and of the dimensions they read in turn, by key, newest first. */
export function versionsRead<V extends { key: string; version: number; rules: unknown }>(keys: Set<string>, all: V[]): Map<string, V[]> {
  const byKey = new Map<string, V[]>();
  const queue = [...keys];
  while (queue.length) {
    const key = queue.pop() as string;
    if (byKey.has(key)) continue;
    const versions = all.filter((row) => row.key === key).sort((a, b) => b.version - a.version);
    byKey.set(key, versions);
    for (const row of versions) for (const other of fieldsRead(row.rules as unknown as DimensionRule[]).dimensions) queue.push(other);
  }
  return byKey;
}

const text = (amount: Decimal) => amount.toFixed();

/**
 * The draft applied to the range's line groups (each with the fields in `fields`' order): a line's
 * `dimension:<key>` is that dimension's value under its newest version effective by the line's
 * month (none: unallocated). Coverage and rules count the lines as the rules assign them; values
 * add each day's splits (a `metric` split's shares: `metricAmount` of each target that day).
 */
export function previewFromGroups(
  draft: PutDimensionRequest,
  splits: SplitRule[],
  others: Map<string, DimensionVersion[]>,
  fields: string[],
  groups: LineGroup[],
  query: DimensionPreviewQuery & { currency: string },
  metricAmount: MetricAmountOf = () => new Decimal(0),
): DimensionPreview {
  if (groups.length > MAX_PREVIEW_GROUPS)
    throw badRequest(
      `Invalid query: end: the rules read more than ${MAX_PREVIEW_GROUPS} distinct (day, field values) groups of lines over this range; preview a shorter range`,
      [{ path: "end", message: `more than ${MAX_PREVIEW_GROUPS} groups of lines over the range` }],
    );
  const assignDraft = compileAssignment({ rules: draft.rules, default_value: draft.default_value ?? null });
  const compiled = new Map(
    [...others].map(([key, versions]) => [
      key,
      versions.map((row) => ({
        from: row.effectiveFrom.toISOString().slice(0, 7),
        assign: compileAssignment({ rules: row.rules as unknown as DimensionRule[], default_value: row.defaultValue }),
      })),
    ]),
  );
  const column = new Map(fields.map((field, i) => [field, i]));
  const rules = draft.rules.map(() => ({ lines: 0, cost: new Decimal(0) }));
  const days = new Map<string, DayCosts>();
  let allocated = new Decimal(0);
  let unallocated = new Decimal(0);
  for (const group of groups) {
    const month = group.day.slice(0, 7);
    const memo = new Map<string, string | null>();
    const read: FieldReader = (field) => {
      if (!field.startsWith("dimension:")) return group.fields[column.get(field) as number] ?? null;
      const key = field.slice("dimension:".length);
      if (!memo.has(key)) {
        const version = compiled.get(key)?.find((v) => v.from <= month);
        memo.set(key, version ? version.assign(read).value : null);
      }
      return memo.get(key) ?? null;
    };
    const { value, rule }: Assignment = assignDraft(read);
    const cost = new Decimal(group.cost);
    if (rule !== null) {
      rules[rule].lines += group.lines;
      rules[rule].cost = rules[rule].cost.plus(cost);
    }
    if (value === null) unallocated = unallocated.plus(cost);
    else allocated = allocated.plus(cost);
    const day = days.get(group.day) ?? new Map<string | null, Decimal>();
    day.set(value, (day.get(value) ?? new Decimal(0)).plus(cost));
    days.set(group.day, day);
  }
  const totals = new Map<string | null, { direct: Decimal; in: Decimal; out: Decimal }>();
  const total = (value: string | null) => {
    const entry = totals.get(value) ?? { direct: new Decimal(0), in: new Decimal(0), out: new Decimal(0) };
    totals.set(value, entry);
    return entry;
  };
  for (const [day, direct] of days) {
    const moved = splitDay(direct, splits, (metric, value) => metricAmount(metric, day, value));
    for (const [value, cost] of direct) total(value).direct = total(value).direct.plus(cost);
    for (const [value, amount] of moved.sharedIn) total(value).in = total(value).in.plus(amount);
    for (const [value, amount] of moved.sharedOut) total(value).out = total(value).out.plus(amount);
  }
  const covered = allocated.plus(unallocated);
  return {
    start: query.start,
    end: query.end,
    currency: query.currency,
    metric: query.metric,
    coverage: {
      allocated: text(allocated),
      unallocated: text(unallocated),
      percent: covered.isZero() ? null : allocated.dividedBy(covered).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
    },
    values: [...totals]
      .map(([value, t]) => ({
        value: value ?? UNALLOCATED,
        direct_cost: text(t.direct),
        shared_in: text(t.in),
        shared_out: text(t.out),
        cost: text(t.direct.minus(t.out).plus(t.in)),
      }))
      .sort((a, b) => byteOrder(a.value, b.value)),
    rules: rules.map((r, index) => ({ index, lines: r.lines, cost: text(r.cost) })),
    unused_rules: rules.flatMap((r, index) => (r.lines === 0 ? [index] : [])),
  };
}
