import type { DimensionLineField } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { metricAmountLookup, splitMetricNames } from "../business-metrics/amounts";
import { compileAssigner } from "../dimensions/rollup";
import { dayShares, splitAmount } from "../dimensions/split";
import type { QueryVersion } from "./dimension-spend-repository";
import type { FocusExportLine } from "./focus";
import type { SpendReads } from "./spend-reads";

/** An exported line with its dimension values and, when it is a split piece, the split's id and the piece's ratio. */
export type AllocatedExportLine = FocusExportLine & {
  dimensions: Record<string, string | null>;
  allocated?: { methodId: string; ratio: string };
};

const COSTS = ["billed_cost", "effective_cost", "list_cost", "contracted_cost"] as const;

/** A line's value of a condition field, as the export row holds it. */
function fieldOf(line: FocusExportLine, field: string): string | null {
  if (field.startsWith("tag:")) {
    const value = line.tags?.[field.slice(4)];
    return value === undefined || value === null ? null : String(value);
  }
  if (field === "tenant") return line.tenant_id;
  return ((line as unknown as Record<string, string | null | undefined>)[field as DimensionLineField] ?? null) as string | null;
}

/**
 * The export's lines with their values under `keys` (each by the version in force for the line's
 * month), and with `splitKey`, each priced line of a split source written once per piece: the
 * day's shares made as the spend queries make them (the organization's direct billed cost that
 * day), every cost column shared with the remainder rule (so the pieces sum to the line), the ratio
 * of each piece the same rule applied to 1 (so a line's ratios sum to 1).
 */
export async function* allocateExportLines(
  reads: Pick<SpendReads, "sql" | "dimensionSpend" | "metricAmounts">,
  organizationId: string,
  lines: AsyncIterable<FocusExportLine>,
  versions: QueryVersion[],
  keys: string[],
  splitKey: string | null,
  range: { start: string; end: string },
): AsyncGenerator<AllocatedExportLine> {
  const assigner = compileAssigner(versions);
  const splitVersions = splitKey ? versions.filter((row) => row.key === splitKey) : [];
  let sharesOf: ReturnType<typeof dayShares> = () => new Map();
  if (splitKey && splitVersions.some((row) => row.splits.length > 0)) {
    const from = range.start.slice(0, 10);
    const to = new Date(Math.ceil(Date.parse(range.end) / 86_400_000) * 86_400_000).toISOString().slice(0, 10);
    // The business metrics `metric` splits share by: their amounts of the range read once.
    const metrics = splitMetricNames(splitVersions.flatMap((row) => row.splits));
    const metricAmount = metricAmountLookup(await reads.metricAmounts.findMetricAmounts(reads.sql, organizationId, metrics, from, to));
    sharesOf = dayShares(await reads.dimensionSpend.organizationDayCosts(reads.sql, organizationId, splitKey, "billed_cost", from, to), metricAmount);
  }
  for await (const line of lines) {
    const day = line.charge_period_start.toISOString().slice(0, 10);
    const values = assigner.assign(
      day.slice(0, 7),
      assigner.fields.map((field) => fieldOf(line, field)),
    );
    const dimensions = Object.fromEntries(keys.map((key) => [key, values.get(key) ?? null]));
    const version = splitKey ? splitVersions.find((row) => row.effective_from <= day.slice(0, 7)) : undefined;
    const source = splitKey ? (values.get(splitKey) ?? null) : null;
    const split =
      line.priced && version
        ? version.splits.find(
            (rule) => rule.source === source && (!rule.charge_categories?.length || (rule.charge_categories as string[]).includes(line.charge_category)),
          )
        : undefined;
    const targets = split && version ? sharesOf(day, line.currency, version.splits).get(split.id) : undefined;
    if (!split || !targets || !splitKey) {
      yield { ...line, dimensions };
      continue;
    }
    const ratios = splitAmount(new Decimal(1), targets);
    const pieces = Object.fromEntries(
      COSTS.map((column) => {
        const value = line[column];
        return [column, value === null ? null : splitAmount(new Decimal(String(value)), targets)];
      }),
    );
    for (let i = 0; i < targets.length; i++) {
      yield {
        ...line,
        ...Object.fromEntries(COSTS.map((column) => [column, pieces[column] === null ? null : (pieces[column] as [string, Decimal][])[i][1].toFixed()])),
        dimensions: { ...dimensions, [splitKey]: targets[i][0] },
        allocated: { methodId: split.id, ratio: ratios[i][1].toFixed() },
      };
    }
  }
}
