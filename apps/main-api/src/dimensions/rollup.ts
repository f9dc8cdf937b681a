import type { DimensionRule } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { compileAssignment, type FieldReader } from "./assign";
import { fieldsRead } from "./preview";
import {
  addRows,
  DIMENSION_ROLLUP_COLUMNS,
  type DimensionRollupRow,
  dropEmptyRows,
  groupLines,
  lockDimensionsShared,
  type RawTx,
  ROLLUP_SUMS,
  type RollupLineGroup,
  type RollupVersion,
  readRollupVersions,
} from "./rollup-repository";

/** Every dimension of an organization as a function of a line group: its value under the newest version effective by the group's month. */
export interface OrganizationAssigner {
  /** The line fields and `tag:<key>`s any version reads, in the order groups carry them. */
  fields: string[];
  keys: string[];
  /** Each key's value (null: unallocated) for a group of `month` (YYYY-MM) with these field values. */
  assign(month: string, values: (string | null)[]): Map<string, string | null>;
}

export function compileAssigner(versions: RollupVersion[]): OrganizationAssigner {
  const fields = new Set<string>();
  const byKey = new Map<string, { from: string; assign: ReturnType<typeof compileAssignment> }[]>();
  for (const row of versions) {
    for (const field of fieldsRead(row.rules as DimensionRule[]).fields) fields.add(field);
    // Newest first (as read): the first whose month is not after the line's applies.
    const list = byKey.get(row.key) ?? [];
    list.push({ from: row.effective_from, assign: compileAssignment({ rules: row.rules, default_value: row.default_value }) });
    byKey.set(row.key, list);
  }
  const ordered = [...fields].sort();
  const column = new Map(ordered.map((field, i) => [field, i]));
  return {
    fields: ordered,
    keys: [...byKey.keys()].sort(),
    assign(month, values) {
      const memo = new Map<string, string | null>();
      const dimensionValue = (key: string): string | null => {
        if (memo.has(key)) return memo.get(key) ?? null;
        const version = byKey.get(key)?.find((v) => v.from <= month);
        // Set before evaluating: references are acyclic (checked on every PUT), so this is never read early.
        memo.set(key, null);
        const value = version ? version.assign(read).value : null;
        memo.set(key, value);
        return value;
      };
      const read: FieldReader = (field) => {
        if (field.startsWith("dimension:")) return dimensionValue(field.slice("dimension:".length));
        return values[column.get(field) as number] ?? null;
      };
      for (const key of byKey.keys()) dimensionValue(key);
      return memo;
    },
  };
}

/** The groups' rows of spend_dimension_daily for `keys` (every dimension by default), summed per row, times `sign`. */
export function dimensionRows(assigner: OrganizationAssigner, groups: RollupLineGroup[], sign: 1 | -1, keys: string[] = assigner.keys): DimensionRollupRow[] {
  const rows = new Map<string, { row: DimensionRollupRow; sums: Decimal[]; lines: number }>();
  for (const group of groups) {
    const values = assigner.assign(group.day.slice(0, 7), group.fields);
    const base = [group.day, group.tenant_id, ...DIMENSION_ROLLUP_COLUMNS.map((name) => group[name])];
    for (const key of keys) {
      const value = values.get(key) ?? "";
      const id = JSON.stringify([key, value, ...base]);
      let entry = rows.get(id);
      if (!entry) {
        const row = { dimension_key: key, day: group.day, tenant_id: group.tenant_id, value, line_count: 0 } as DimensionRollupRow;
        for (const name of DIMENSION_ROLLUP_COLUMNS) row[name] = group[name];
        entry = { row, sums: ROLLUP_SUMS.map(() => new Decimal(0)), lines: 0 };
        rows.set(id, entry);
      }
      ROLLUP_SUMS.forEach((name, i) => {
        entry.sums[i] = entry.sums[i].plus(group[name]);
      });
      entry.lines += Number(group.line_count);
    }
  }
  return [...rows.values()].map(({ row, sums, lines }) => {
    ROLLUP_SUMS.forEach((name, i) => {
      row[name] = (sign < 0 ? sums[i].negated() : sums[i]).toFixed();
    });
    row.line_count = sign * lines;
    return row;
  });
}

/**
 * Adds `sign` times the lines of `selected` (a relation of spend_lines rows aliased l: $1 the
 * organization, `params` from $2) to the dimension roll-up, in the caller's transaction: the lines
 * grouped by day, tenant, the roll-up's columns and the fields the rules read, each group assigned
 * once per dimension. Nothing to do for an organization without dimensions. Line writers share the
 * organization's dimension lock, so a version change (and its re-apply) sees their lines either
 * all or none.
 */
export async function addLinesToDimensionRollup(tx: RawTx, organizationId: string, selected: string, params: unknown[], sign: 1 | -1): Promise<void> {
  let versions = await readRollupVersions(tx, organizationId);
  if (versions.length === 0) return;
  await lockDimensionsShared(tx, organizationId);
  // Read again under the lock: a version committed while this waited applies.
  versions = await readRollupVersions(tx, organizationId);
  if (versions.length === 0) return;
  const assigner = compileAssigner(versions);
  const groups = await groupLines(tx, organizationId, selected, params, assigner.fields);
  if (groups.length === 0) return;
  await addRows(tx, organizationId, dimensionRows(assigner, groups, sign));
  if (sign < 0)
    await dropEmptyRows(
      tx,
      organizationId,
      groups.map((group) => group.day),
    );
}
