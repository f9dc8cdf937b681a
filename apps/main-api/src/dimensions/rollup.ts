import type { DimensionRule } from "@cloudcost/contracts";
import { compileAssignment, type FieldReader } from "./assign";
import { fieldsRead } from "./preview";
import { lockDimensionsShared } from "./repository";
import {
  addLines,
  addStaged,
  type CombinationValue,
  dropEmptyRows,
  type LineCombination,
  lineCombinations,
  type RawTx,
  type RollupVersion,
  readRollupVersions,
  stageLines,
} from "./rollup-repository";

/** Every dimension of an organization as a function of a line group: its value under the newest version effective by the group's month. */
export interface OrganizationAssigner {
  /** The line fields and `tag:<key>`s any version reads, in the order groups carry them. */
  fields: string[];
  keys: string[];
  /** Each key's value (null: unallocated) for a group of `month` (YYYY-MM) with these field values. */
  assign(month: string, values: (string | null)[]): Map<string, string | null>;
}

/** What compileAssigner reads of a version. */
export type AssignerVersion = Pick<RollupVersion, "key" | "effective_from" | "rules" | "default_value">;

/** The versions (newest first per key, as read) compiled; pass only the dimensions a caller needs and those they read (versionsRead). */
export function compileAssigner(versions: AssignerVersion[]): OrganizationAssigner {
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

/** Each combination's value under each of `keys` ('' unallocated): the rows the roll-up statement joins its lines to. */
export function combinationValues(assigner: OrganizationAssigner, combinations: LineCombination[], keys: string[]): CombinationValue[] {
  const out: CombinationValue[] = [];
  for (const combination of combinations) {
    const values = assigner.assign(combination.month, combination.fields);
    for (const key of keys) out.push({ month: combination.month, fields: combination.fields, key, value: values.get(key) ?? "" });
  }
  return out;
}

/**
 * Adds `sign` times the lines of `selected` (a relation of spend_lines rows aliased l: $1 the
 * organization, `params` from $2) to the dimension roll-ups of `keys`: the rules are evaluated once
 * per distinct (month, values of the fields they read) of those lines, and the database sums the
 * lines by the values it is told. Answers the days touched.
 */
export async function addLinesToRollup(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  sign: 1 | -1,
  assigner: OrganizationAssigner,
  keys: string[] = assigner.keys,
): Promise<string[]> {
  const combinations = await lineCombinations(tx, organizationId, selected, params, assigner.fields);
  return addLines(tx, organizationId, selected, params, assigner.fields, combinationValues(assigner, combinations, keys), sign);
}

/** A rebuild's chunk (the lines of `selected`) added to the roll-ups of `keys` in one read of its lines (stageLines). */
export async function rebuildChunk(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  assigner: OrganizationAssigner,
  keys: string[],
): Promise<void> {
  const combinations = await stageLines(tx, organizationId, selected, params, assigner.fields);
  await addStaged(tx, organizationId, combinationValues(assigner, combinations, keys));
}

/** addLinesToRollup in one read of the lines (through a temporary table): for imports' large writes. */
async function addLinesStaged(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  sign: 1 | -1,
  assigner: OrganizationAssigner,
): Promise<string[]> {
  const combinations = await stageLines(tx, organizationId, selected, params, assigner.fields, sign);
  return addStaged(tx, organizationId, combinationValues(assigner, combinations, assigner.keys));
}

/**
 * Adds `sign` times the lines of `selected` to the dimension roll-ups in the caller's transaction
 * (every line write calls it). Nothing to do for an organization without dimensions. Line writers
 * share the organization's dimension lock, so a version change (and its re-apply) sees their lines
 * either all or none.
 */
export async function addLinesToDimensionRollup(
  tx: RawTx,
  organizationId: string,
  selected: string,
  params: unknown[],
  sign: 1 | -1,
  /** Read the lines once through a temporary table (imports' large writes; not for frequent small batches). */
  options: { staged?: boolean } = {},
): Promise<void> {
  let versions = await readRollupVersions(tx, organizationId);
  if (versions.length === 0) return;
  await lockDimensionsShared(tx, organizationId);
  // Read again under the lock: a version committed while this waited applies.
  versions = await readRollupVersions(tx, organizationId);
  if (versions.length === 0) return;
  const assigner = compileAssigner(versions);
  const days = options.staged
    ? await addLinesStaged(tx, organizationId, selected, params, sign, assigner)
    : await addLinesToRollup(tx, organizationId, selected, params, sign, assigner);
  if (sign < 0) await dropEmptyRows(tx, organizationId, days);
}
