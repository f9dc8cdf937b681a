/** The `team` dimension the dimensions and statements benchmarks apply: 200 rules and 3 splits. */

/** 200 rules: models 0-198 to 12 teams, then the `team` tag's own value. */
export const RULES = [
  ...Array.from({ length: 199 }, (_, m) => ({ value: `team-${m % 12}`, match: { field: "model", op: "eq", value: `model-${m}` } })),
  { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
];

/** A platform shared by every team's cost, the unallocated rest by fixed percentages, support evenly. */
export const SPLITS = [
  { id: "spl_bench_platform", source: "team-0", targets: "*", method: "proportional" },
  { id: "spl_bench_unallocated", source: null, targets: ["team-1", "team-2"], method: "fixed", percentages: { "team-1": "60", "team-2": "40" } },
  { id: "spl_bench_support", source: "team-3", targets: ["team-4", "team-5", "team-6"], method: "even" },
];

/** Stores version 1 of `team` for `org` (effective from 2026-01) with RULES and SPLITS. */
export const TEAM_VERSION_SQL = `INSERT INTO dimension_versions (organization_id, key, version, name, effective_from, rules, default_value, splits)
  VALUES ($1, 'team', 1, 'Team', '2026-01-01', $2::jsonb, NULL, $3::jsonb)`;
export const teamVersionParams = (org: string) => [org, JSON.stringify(RULES), JSON.stringify(SPLITS)];
