// Reads bench/results/*.json (written by each benchmark) and writes bench/results/latest.md: one
// table of figures with their baseline (where one is defined), ratio and target, and the machine.
//   pnpm bench        (runs every benchmark, then this)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = path.join(__dirname, "results");
const read = <T>(name: string): T | undefined => {
  const file = path.join(dir, `${name}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : undefined;
};

type Row = { benchmark: string; figure: string; baseline: string; ratio: string; target: string; met: boolean | undefined };
const rows: Row[] = [];
const add = (benchmark: string, figure: string, target: string, met: boolean | undefined, baseline = "—", ratio = "—") =>
  rows.push({ benchmark, figure, baseline, ratio, target, met });
const ms = (n: number) => `${n} ms`;
const round2 = (n: number) => Math.round(n * 100) / 100;

interface OutsideRun {
  requests_per_s: number;
  p99_ms: number;
}
interface Compute {
  compute_query: { requests_per_s: number; p99_ms: number };
  bare_route: { requests_per_s: number };
  ratio: number;
  batch_1000: { median_ms: number };
  duration_s: number;
  separate_process?: {
    database: string;
    duration_s: number;
    connections: number;
    alternations: { negotiated: OutsideRun; plain: OutsideRun; bare: OutsideRun; ratio_negotiated: number; ratio_plain: number }[];
    median_ratio_negotiated: number;
    median_ratio_plain: number;
    median_requests_per_s: { negotiated: number; plain: number; bare: number };
    ratio_target: number;
  };
}
const pct0 = (ratio: number) => `${(ratio * 100).toFixed(0)}%`;
const compute = read<Compute>("compute-query");
if (compute) {
  const outside = compute.separate_process;
  if (outside) {
    const n = outside.alternations.length;
    const where = `from a separate process (${outside.database}, median of ${n} alternations of ${outside.duration_s} s, ${outside.connections} connections)`;
    for (const [kind, label] of [
      ["negotiated", "account with negotiated entries"],
      ["plain", "account without"],
    ] as const) {
      const ratioKey = kind === "negotiated" ? "ratio_negotiated" : "ratio_plain";
      const median = kind === "negotiated" ? outside.median_ratio_negotiated : outside.median_ratio_plain;
      add(
        `compute price query ${where}, ${label}`,
        `${outside.median_requests_per_s[kind]} req/s (p99 ${Math.max(...outside.alternations.map((a) => a[kind].p99_ms))} ms)`,
        kind === "negotiated" ? "≥ 60% of the bare route" : "— (reported)",
        kind === "negotiated" ? median >= outside.ratio_target : undefined,
        `bare Express route in its own process ${outside.median_requests_per_s.bare} req/s`,
        `${pct0(median)} (per alternation ${outside.alternations.map((a) => pct0(a[ratioKey])).join(", ")})`,
      );
    }
  }
  add(
    `compute price query in process (client and both servers in one process${outside ? ", reported beside the figure above" : ""})`,
    `${Math.round(compute.compute_query.requests_per_s)} req/s (p99 ${compute.compute_query.p99_ms} ms)`,
    outside ? "— (reported)" : "≥ 60% of the bare route",
    outside ? undefined : compute.ratio >= 0.6,
    `bare Express route ${Math.round(compute.bare_route.requests_per_s)} req/s`,
    pct0(compute.ratio),
  );
  add("compute batch of 1000 items (median)", ms(compute.batch_1000.median_ms), "< 100 ms", compute.batch_1000.median_ms < 100);
}

interface Marketplace {
  register_1000_models: { median_ms: number; median_cpu_ms: number };
  price_10000_usage_lines: { median_ms: number; median_cpu_ms: number };
  runs: number;
}
const market = read<Marketplace>("marketplace");
if (market) {
  const r = market.register_1000_models;
  const u = market.price_10000_usage_lines;
  add("register 1000 model entries (median)", `${ms(r.median_ms)} (CPU ${r.median_cpu_ms} ms)`, "< 300 ms", r.median_ms < 300);
  add("price 10000 usage lines (median)", `${ms(u.median_ms)} (CPU ${u.median_cpu_ms} ms)`, "< 500 ms", u.median_ms < 500);
}

interface Rightsizing {
  database: string;
  resources: number;
  summary_resources: number;
  ingest: { samples_per_second: number };
  analysis: { resources: number; seconds: number; bare_stats_sql_seconds: number };
  summary: Record<string, { resources: number; http: { p50_ms: number; p99_ms: number }; bare_sql: { p50_ms: number }; ratio_p50: number }>;
}
const rs = read<Rightsizing>("rightsizing");
if (rs) {
  add(
    `metric ingest over HTTP (${rs.database})`,
    `${rs.ingest.samples_per_second.toLocaleString("en")} samples/s`,
    "> 50,000 samples/s",
    rs.ingest.samples_per_second > 50_000,
  );
  add(
    `analysis cycle, ${rs.analysis.resources.toLocaleString("en")} resources`,
    `${rs.analysis.seconds} s`,
    rs.analysis.resources >= 10_000 ? "< 30 s" : "< 30 s at 10k",
    rs.analysis.seconds < 30,
    // The raw statistics query is only timed on request (BENCH_RAW_STATS=1): the cycle uses roll-ups.
    rs.analysis.bare_stats_sql_seconds == null ? "—" : `stats SQL alone ${rs.analysis.bare_stats_sql_seconds} s`,
    rs.analysis.bare_stats_sql_seconds == null ? "—" : `${(rs.analysis.seconds / Math.max(rs.analysis.bare_stats_sql_seconds, 0.01)).toFixed(1)}×`,
  );
  for (const [key, s] of Object.entries(rs.summary)) {
    const big = s.resources >= 100_000;
    add(
      `summary p50, ${s.resources.toLocaleString("en")} resources, ${key.endsWith("no_filters") ? "no filters" : "filters"}`,
      `${ms(s.http.p50_ms)} (p99 ${s.http.p99_ms} ms)`,
      big ? "p50 < 50 ms and ≤ 2× SQL" : "≤ 2× SQL",
      (big ? s.http.p50_ms < 50 : true) && s.ratio_p50 <= 2,
      `bare SQL p50 ${ms(s.bare_sql.p50_ms)}`,
      `${s.ratio_p50}×`,
    );
  }
}

interface Mixed {
  database: string;
  fleet: number;
  duration_s: number;
  load: {
    kinds: Record<
      string,
      { requests: number; requests_per_s: number; p50_ms: number; p99_ms: number; during_cycles?: { p99_ms: number }; outside_cycles?: { p99_ms: number } }
    >;
    fivexx: number;
    analysis: { status_counts: Record<string, number> };
  };
  p99: Record<string, { p99_ms: number; target_p99_ms: number; within: boolean; basis: string; empty_server_p99_ms?: number }>;
  analysis_ms: number[];
  rss_kib: { before: Record<string, number>; after: Record<string, number>; tolerance: number };
  live_heap_mib?: { before: Record<string, number>; after: Record<string, number>; tolerance: number };
  rates_per_s?: Record<string, number>;
  /** Median per window of the run, the first window's and the last's (mixed-load.ts, windowsOf). */
  trend?: Record<string, { first_p50_ms: number; last_p50_ms: number; ratio: number }>;
  trend_window_s?: number;
  trend_limit?: number;
  dead_rows?: { at_s: number; tables: Record<string, { live: number; dead: number; autovacuums: number }> }[];
  passed: boolean;
}
const mixed = read<Mixed>("mixed-load");
const notes: string[] = [];
if (mixed) {
  const where = `mixed load ${mixed.duration_s} s, ${mixed.fleet} resources, ${mixed.database}`;
  if (mixed.rates_per_s)
    notes.push(
      `Mixed load offered rates (req/s): ${Object.entries(mixed.rates_per_s)
        .map(([k, v]) => `${k.replace("_", " ")} ${v}`)
        .join(", ")}; an analysis cycle every 5 s.`,
    );
  for (const [kind, p] of Object.entries(mixed.p99)) {
    const k = mixed.load.kinds[kind];
    const split = k.during_cycles && k.outside_cycles ? `; p99 during cycles ${k.during_cycles.p99_ms} ms, outside ${k.outside_cycles.p99_ms} ms` : "";
    // The baseline is the machine's floor in the same run: an empty server's p99 (reliability/canary.ts).
    const floor = p.empty_server_p99_ms;
    add(
      `${where}: ${kind.replace("_", " ")} p99`,
      `${ms(p.p99_ms)} (p50 ${k.p50_ms} ms, ${k.requests_per_s} req/s${split})`,
      `< ${p.target_p99_ms} ms (${p.basis})`,
      p.within,
      floor == null ? "—" : `empty server on the same machine meanwhile: p99 ${ms(floor)}`,
      floor == null ? "—" : `${(p.p99_ms / Math.max(floor, 0.1)).toFixed(1)}×`,
    );
  }
  // The trend: a service falling behind the offered rates shows as medians growing over the run
  // (a p99 over the whole run does not tell a slow start from a collapse at the end).
  for (const [kind, t] of Object.entries(mixed.trend ?? {})) {
    const limit = mixed.trend_limit ?? 1.5;
    add(
      `${where}: ${kind.replace("_", " ")} median, last ${mixed.trend_window_s} s vs first`,
      `${ms(t.last_p50_ms)} vs ${ms(t.first_p50_ms)}`,
      `≤ ${limit}× the first`,
      t.ratio <= limit,
      `first ${mixed.trend_window_s} s: ${ms(t.first_p50_ms)}`,
      `${t.ratio}×`,
    );
  }
  const deadAtEnd = mixed.dead_rows?.at(-1);
  if (deadAtEnd)
    notes.push(
      `Dead rows at the end of the mixed load (pg_stat_user_tables, ${deadAtEnd.at_s} s): ${Object.entries(deadAtEnd.tables)
        .map(([table, v]) => `${table} ${v.dead.toLocaleString("en")} dead / ${v.live.toLocaleString("en")} live (${v.autovacuums} autovacuums)`)
        .join("; ")}.`,
    );
  add(`${where}: 5xx answers`, String(mixed.load.fivexx), "0", mixed.load.fivexx === 0);
  const cycles = mixed.analysis_ms;
  add(`${where}: analysis cycles`, `${cycles.length} (max ${Math.max(0, ...cycles)} ms)`, "< 30 s each", cycles.length > 0 && Math.max(...cycles) < 30_000);
  const pct = (growth: number) => `${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)}%`;
  for (const [service, key] of [
    ["main API", "main_api"],
    ["pricing API", "pricing_api"],
  ]) {
    const live = mixed.live_heap_mib;
    if (live) {
      const growth = live.after[key] / live.before[key] - 1;
      add(
        `${where}: ${service} live heap (leak check)`,
        `${live.after[key]} MiB after`,
        "within 20% of before",
        growth <= live.tolerance,
        `${live.before[key]} MiB after warm-up`,
        pct(growth),
      );
    }
    const before = mixed.rss_kib.before[`${key}_kib`];
    const after = mixed.rss_kib.after[`${key}_kib`];
    // RSS is reported, not a target: V8 keeps heap capacity it grew under load (and the heap
    // snapshot of the leak check itself takes memory), so RSS rises to a plateau without a leak.
    add(
      `${where}: ${service} RSS (reported)`,
      `${Math.round(after / 1024)} MiB after`,
      "—",
      undefined,
      `${Math.round(before / 1024)} MiB after warm-up`,
      pct(after / before - 1),
    );
  }
}

interface Alerts {
  database: string;
  ledger_lines: number;
  budget_status_20_budgets: {
    calls: number;
    p50_ms: number;
    p99_ms: number;
    bare_read_p50_ms: number;
    ratio_p50: number;
    plan_indexes: string[];
    target_p50_ms: number;
  };
  forecast_endpoint?: { calls: number; p50_ms: number; p99_ms: number; bare_read_p50_ms: number; ratio_p50: number; target_p50_ms: number };
  anomaly_detection: {
    tenants: number;
    services: number;
    days: number;
    total_s: number;
    anomalies: number;
    bare_read_s: number;
    ratio_to_bare_read: number;
    organization_call_s: number;
    target_s: number;
  };
}
const alerts = read<Alerts>("alerts");
if (alerts) {
  const b = alerts.budget_status_20_budgets;
  add(
    `budget status, 20 budgets of a tenant over the roll-up of a ${(alerts.ledger_lines / 1e6).toFixed(1)}M-line ledger (${alerts.database}, p50 of ${b.calls}; plan reads ${b.plan_indexes.join(", ")})`,
    `${ms(b.p50_ms)} (p99 ${b.p99_ms} ms)`,
    `p50 < ${b.target_p50_ms} ms`,
    b.p50_ms < b.target_p50_ms,
    `bare read of the tenant's rows of its widest period: p50 ${ms(b.bare_read_p50_ms)}`,
    `${b.ratio_p50}×`,
  );
  const f = alerts.forecast_endpoint;
  if (f) {
    add(
      `spend forecast of a tenant's month (GET /api/v1/tenant/spend/forecast's work) over the same roll-up (${alerts.database}, p50 of ${f.calls})`,
      `${ms(f.p50_ms)} (p99 ${f.p99_ms} ms)`,
      `p50 < ${f.target_p50_ms} ms`,
      f.p50_ms < f.target_p50_ms,
      `bare read of the tenant's rows of the month: p50 ${ms(f.bare_read_p50_ms)}`,
      `${f.ratio_p50}×`,
    );
  }
  const a = alerts.anomaly_detection;
  add(
    `anomaly detection, ${a.tenants} tenants x ${a.services} services x ${a.days} days, one call per tenant (${alerts.database}, ${a.anomalies} anomalies)`,
    `${a.total_s} s (one call for the organization's ${a.tenants} tenants ${a.organization_call_s} s)`,
    `< ${a.target_s} s`,
    a.total_s < a.target_s,
    `bare read of the daily costs ${a.bare_read_s} s`,
    `${a.ratio_to_bare_read}× the bare read`,
  );
} else notes.push("Budgets and anomalies (alerts.ts): not run; its figures are for PostgreSQL (set BENCH_DATABASE_URL).");

interface SpendQueryFigure {
  rollup: { p50_ms: number; p99_ms: number };
  lines_baseline: { p50_ms: number };
  ratio: number;
}
/** A query the code answers from the lines (tag: grouping or filters): reported, no target. */
interface SpendLineQueryFigure {
  query: { p50_ms: number; p99_ms: number };
  lines_baseline: { p50_ms: number };
  ratio: number;
}
interface Spend {
  usage_ingestion_10000_lines?: { batches: number; p50_ms: number; max_ms: number; pricing_call_p50_ms?: number };
  usage_load_average?: number[];
  ledger?: { lines: number; rollup_rows: number; service_rollup_rows?: number };
  queries?: {
    tenant_90_days_by_day_and_service: SpendQueryFigure;
    org_month_by_tenant_and_service: SpendQueryFigure;
    tenant_90_days_by_day_and_tag?: SpendLineQueryFigure & { source?: string };
    tenant_90_days_by_day_and_service_filtered_by_tag?: SpendLineQueryFigure & { source?: string };
  };
}
const spend = read<Spend>("spend");
if (spend) {
  const usage = spend.usage_ingestion_10000_lines;
  if (usage) {
    const load = spend.usage_load_average ? `, load average ${spend.usage_load_average[0]}` : "";
    const pricingCall = `${usage.pricing_call_p50_ms == null ? "" : `, the pricing call alone p50 ${usage.pricing_call_p50_ms} ms`}${load}`;
    add(
      `spend: usage batch of 10,000 lines priced and stored (PostgreSQL, median of ${usage.batches})`,
      `${ms(usage.p50_ms)} (max ${usage.max_ms} ms${pricingCall})`,
      "< 1 s",
      usage.p50_ms < 1000,
    );
  }
  const ledger = spend.ledger;
  if (ledger && spend.queries) {
    const full = ledger.lines >= 10_000_000;
    const size = `${ledger.lines.toLocaleString("en")} lines`;
    for (const [label, figure, target] of [
      ["a tenant's 90 days by day and service_name", spend.queries.tenant_90_days_by_day_and_service, 100],
      ["the organization's month by tenant and service_name", spend.queries.org_month_by_tenant_and_service, 150],
    ] as const) {
      add(
        `spend query p50 over ${size} (PostgreSQL): ${label}`,
        `${ms(figure.rollup.p50_ms)} (p99 ${figure.rollup.p99_ms} ms)`,
        full ? `p50 < ${target} ms` : `p50 < ${target} ms at 10M lines`,
        full ? figure.rollup.p50_ms < target : undefined,
        `the same aggregation over the lines p50 ${ms(figure.lines_baseline.p50_ms)}`,
        `${figure.ratio}× faster`,
      );
    }
    const tag = spend.queries.tenant_90_days_by_day_and_tag;
    if (tag) {
      const fromRollup = tag.source === "spend_tag_daily";
      add(
        `spend query p50 over ${size} (PostgreSQL): a tenant's 90 days by day and tag:team (${fromRollup ? "the tag roll-up" : "read from the lines"})`,
        `${ms(tag.query.p50_ms)} (p99 ${tag.query.p99_ms} ms)`,
        full ? "p50 < 100 ms" : "p50 < 100 ms at 10M lines",
        full && fromRollup ? tag.query.p50_ms < 100 : undefined,
        `the same aggregation over the lines p50 ${ms(tag.lines_baseline.p50_ms)}`,
        `${tag.ratio}× faster`,
      );
    }
    const filtered = spend.queries.tenant_90_days_by_day_and_service_filtered_by_tag;
    if (filtered) {
      const fromRollup = filtered.source === "spend_tag_service_daily";
      add(
        `spend query p50 over ${size} (PostgreSQL): a tenant's 90 days by day and service_name, filtered by a tag (${fromRollup ? "the tag-service roll-up" : "read from the lines"})`,
        `${ms(filtered.query.p50_ms)} (p99 ${filtered.query.p99_ms} ms)`,
        full ? "p50 < 150 ms" : "p50 < 150 ms at 10M lines",
        full && fromRollup ? filtered.query.p50_ms < 150 : undefined,
        `the same aggregation over the lines p50 ${ms(filtered.lines_baseline.p50_ms)}`,
        `${filtered.ratio}×`,
      );
    }
  }
}

interface Dimensions {
  lines: number;
  rules: number;
  splits: number;
  apply_s: number;
  by_dimension_day_90d_p50_ms: number;
  by_dimension_day_90d_p99_ms: number;
  baseline_over_lines_p50_ms: number;
  load_average_at_apply?: number[];
  load_average_at_query?: number[];
}
const dimensions = read<Dimensions>("dimensions");
if (dimensions) {
  const full = dimensions.lines >= 10_000_000;
  const size = `${dimensions.lines.toLocaleString("en")} lines`;
  add(
    `dimensions: a version of ${dimensions.rules} rules and ${dimensions.splits} splits applied to ${size} (PostgreSQL, load average ${dimensions.load_average_at_apply?.[0] ?? "?"})`,
    `${dimensions.apply_s} s`,
    full ? "< 120 s" : "< 120 s at 10M lines",
    full ? dimensions.apply_s < 120 : undefined,
  );
  add(
    `dimensions: a tenant's 90 days by day and dimension:team with splits over ${size} (PostgreSQL, load average ${dimensions.load_average_at_query?.[0] ?? "?"})`,
    `${ms(dimensions.by_dimension_day_90d_p50_ms)} (p99 ${dimensions.by_dimension_day_90d_p99_ms} ms)`,
    full ? "p50 < 150 ms" : "p50 < 150 ms at 10M lines",
    full ? dimensions.by_dimension_day_90d_p50_ms < 150 : undefined,
    `the same lines' direct cost by value read from the lines p50 ${ms(dimensions.baseline_over_lines_p50_ms)}`,
    `${round2(dimensions.baseline_over_lines_p50_ms / dimensions.by_dimension_day_90d_p50_ms)}× faster`,
  );
}

interface Statements {
  lines: number;
  period: string;
  by_team_p50_ms: number;
  by_team_max_ms: number;
  by_team_recipients: number;
  by_team_baseline_over_lines_p50_ms: number;
  by_tenant_p50_ms: number;
  by_tenant_recipients: number;
  by_tenant_baseline_over_lines_p50_ms: number;
  load_average?: number[];
}
const statements = read<Statements>("statements");
if (statements) {
  const full = statements.lines >= 10_000_000;
  const size = `${statements.lines.toLocaleString("en")} lines`;
  add(
    `statements: a month's (${statements.period}) statements by dimension:team (${statements.by_team_recipients} recipients, 3 splits) over ${size} (PostgreSQL, load average ${statements.load_average?.[0] ?? "?"})`,
    `p50 ${ms(statements.by_team_p50_ms)} (max ${ms(statements.by_team_max_ms)})`,
    full ? "< 5 s" : "< 5 s at 10M lines",
    full ? statements.by_team_p50_ms < 5000 : undefined,
    `the month's direct cost by value read from the lines p50 ${ms(statements.by_team_baseline_over_lines_p50_ms)}`,
    `${round2(statements.by_team_baseline_over_lines_p50_ms / statements.by_team_p50_ms)}× faster`,
  );
  add(
    `statements: the same month by tenant (${statements.by_tenant_recipients} recipients) over ${size}`,
    `p50 ${ms(statements.by_tenant_p50_ms)}`,
    "— (reported)",
    undefined,
    `the month's lines summed by tenant, category and service p50 ${ms(statements.by_tenant_baseline_over_lines_p50_ms)}`,
    `${round2(statements.by_tenant_baseline_over_lines_p50_ms / statements.by_tenant_p50_ms)}× faster`,
  );
}

interface FocusImport {
  rows: number;
  file_mb: number;
  import_ms: number;
  reimport_superseding_ms: number;
  import_with_5_dimensions_ms?: number;
  load_average_at_start?: number[];
  reimport_superseding_with_5_dimensions_ms?: number;
  copy_baseline_ms: number;
  ratio_import_to_copy: number;
}
const focus = read<FocusImport>("focus-import");
if (focus) {
  const rows = `${focus.rows.toLocaleString("en")} rows (${focus.file_mb} MB${focus.load_average_at_start ? `, load average ${focus.load_average_at_start[0]} at start` : ""})`;
  const full = focus.rows >= 100_000;
  add(
    `FOCUS CSV import over HTTP, ${rows} (PostgreSQL)`,
    ms(focus.import_ms),
    full ? "< 10 s" : "< 10 s at 100,000 rows",
    full ? focus.import_ms < 10_000 : undefined,
    `COPY of the same file into a bare table ${ms(focus.copy_baseline_ms)}`,
    `${focus.ratio_import_to_copy}×`,
  );
  add(`FOCUS CSV import of the same file again (supersedes the first), ${rows}`, ms(focus.reimport_superseding_ms), "— (reported)", undefined);
  if (focus.import_with_5_dimensions_ms !== undefined)
    add(
      `FOCUS CSV import with 5 dimensions applied (their roll-ups kept in the import's transaction), ${rows}`,
      ms(focus.import_with_5_dimensions_ms),
      full ? "< 10 s" : "< 10 s at 100,000 rows",
      full ? focus.import_with_5_dimensions_ms < 10_000 : undefined,
      `the same without dimensions ${ms(focus.import_ms)}`,
    );
  if (focus.reimport_superseding_with_5_dimensions_ms !== undefined)
    add(
      `FOCUS CSV import of the same file again with 5 dimensions (supersedes), ${rows}`,
      ms(focus.reimport_superseding_with_5_dimensions_ms),
      "— (reported)",
      undefined,
      `the same without dimensions ${ms(focus.reimport_superseding_ms)}`,
    );
}
interface Savings {
  database: string;
  resources: number;
  changes: number;
  retired: number;
  analysis: { cold_seconds: number; steady_seconds: number; resources: number };
  savings: { items: number; bill_lines: number; p50_ms: number; p99_ms: number };
}
const savings = read<Savings>("savings");
if (savings) {
  const full = savings.resources >= 10_000;
  add(
    `analysis cycle of ${savings.resources.toLocaleString("en")} resources, ${savings.changes} resized and ${savings.retired} retired (${savings.database})`,
    `${savings.analysis.steady_seconds} s steady`,
    full ? "< 30 s" : "< 30 s at 10,000 resources",
    full ? savings.analysis.steady_seconds < 30 : undefined,
    `the first cycle (builds the roll-ups) ${savings.analysis.cold_seconds} s`,
    `${round2(savings.analysis.cold_seconds / savings.analysis.steady_seconds)}×`,
  );
  add(
    `GET /compute/savings over ${savings.resources.toLocaleString("en")} resources (${savings.savings.items} changes, ${savings.savings.bill_lines.toLocaleString("en")} bill lines, ${savings.database})`,
    `p50 ${ms(savings.savings.p50_ms)} (p99 ${savings.savings.p99_ms} ms)`,
    full ? "p50 < 200 ms" : "p50 < 200 ms at 10,000 resources",
    full ? savings.savings.p50_ms < 200 : undefined,
  );
}

type Timed = { p50_ms: number; p99_ms: number };
interface Commitments {
  ledger: { lines: number; commitment_rollup_rows: number; coverage_rollup_rows: number; ondemand_hourly_rows: number };
  queries: Record<
    "utilization_year" | "coverage_year_by_service" | "recommendation_90_days",
    { route: Timed; lines_baseline: Timed; ratio: number; target_p50_ms: number }
  >;
}
const commitments = read<Commitments>("commitments");
if (commitments) {
  const full = commitments.ledger.lines >= 10_000_000;
  const size = `${commitments.ledger.lines.toLocaleString("en")} lines, 5 % committed`;
  for (const [label, figure] of [
    ["commitment utilization of a year", commitments.queries.utilization_year],
    ["commitment coverage of a year by service", commitments.queries.coverage_year_by_service],
    ["purchase recommendation over 90 days of hourly series", commitments.queries.recommendation_90_days],
  ] as const) {
    add(
      `${label} over ${size} (PostgreSQL)`,
      `p50 ${ms(figure.route.p50_ms)} (p99 ${figure.route.p99_ms} ms)`,
      full ? `p50 < ${figure.target_p50_ms} ms` : `p50 < ${figure.target_p50_ms} ms at 10M lines`,
      full ? figure.route.p50_ms < figure.target_p50_ms : undefined,
      `the same aggregation over the lines p50 ${ms(figure.lines_baseline.p50_ms)}`,
      `${figure.ratio}× faster`,
    );
  }
}

interface Kubernetes {
  pod_ingest_10000_samples: {
    runs: {
      agents: number;
      requests: number;
      samples_per_s: number;
      request_p50_ms: number;
      api_cpu_ms_per_request: number;
      postgres_cpu_ms_per_request: number;
    }[];
  };
  month: { nodes: number; pods: number; days: number; samples: number; node_days_over_committed: number };
  allocation: { by_namespace: Timed; by_namespace_per_day: Timed; every_node_day_over_committed: Timed; raw_samples_baseline: Timed; ratio: number };
}
const kubernetes = read<Kubernetes>("kubernetes");
if (kubernetes) {
  const { runs } = kubernetes.pod_ingest_10000_samples;
  const { month } = kubernetes;
  const full = month.nodes >= 1000 && month.pods >= 30_000 && month.days >= 30;
  // The service's throughput is the most it sustains: one agent leaves a core idle while the other waits on it, four contend for two cores.
  const best = Math.max(...runs.map((r) => r.samples_per_s));
  for (const r of runs) {
    const agents = r.agents === 1 ? "one agent" : `${r.agents} agents (clusters) at once`;
    add(
      `Kubernetes pod ingest over HTTP, 10,000 samples per request, ${agents} (API and PostgreSQL each in their own processes, agents in a third; PostgreSQL)`,
      `${r.samples_per_s.toLocaleString("en")} samples/s (${r.requests} requests, p50 ${ms(r.request_p50_ms)}; CPU per request: API ${r.api_cpu_ms_per_request} ms, PostgreSQL ${r.postgres_cpu_ms_per_request} ms)`,
      "> 50,000 samples/s at the best number of agents",
      r.samples_per_s === best ? best > 50_000 : undefined,
    );
  }
  const { allocation } = kubernetes;
  const cluster = `${month.days} days of ${month.nodes.toLocaleString("en")} nodes and ${month.pods.toLocaleString("en")} pods (${month.samples.toLocaleString("en")} samples, PostgreSQL)`;
  add(
    `Kubernetes allocation by namespace of ${cluster}; ${month.node_days_over_committed.toLocaleString("en")} node-days over-committed`,
    `p50 ${ms(allocation.by_namespace.p50_ms)} (p99 ${allocation.by_namespace.p99_ms} ms)`,
    full ? "p50 < 500 ms" : "p50 < 500 ms for a month of 1,000 nodes and 30,000 pods",
    full ? allocation.by_namespace.p50_ms < 500 : undefined,
    `the same aggregation over the raw samples p50 ${ms(allocation.raw_samples_baseline.p50_ms)}`,
    `${allocation.ratio}× faster`,
  );
  add(
    `The same per day (\`step=day\`, the console's chart)`,
    `p50 ${ms(allocation.by_namespace_per_day.p50_ms)} (p99 ${allocation.by_namespace_per_day.p99_ms} ms)`,
    "none set",
    undefined,
  );
  add(
    "The same over the month with every node-day over-committed (each node's capacity cut to a quarter; the worst case)",
    `p50 ${ms(allocation.every_node_day_over_committed.p50_ms)} (p99 ${allocation.every_node_day_over_committed.p99_ms} ms)`,
    "none set",
    undefined,
  );
}

const notRunPostgres = ["spend", "focus-import", "commitments", "kubernetes"].filter((name) => !read(name));
if (notRunPostgres.length) notes.push(`Not run (PostgreSQL only: BENCH_DATABASE_URL): ${notRunPostgres.join(", ")}.`);

// Written by the e2e suite's console test (e2e/test/console.test.ts), not by `pnpm bench`.
const web = read<{ initial_js_gzip_kb: number; overview_interactive_ms: { median: number; runs: number[] } }>("console");
if (web) {
  add("console", `initial JavaScript ${web.initial_js_gzip_kb} KB gzipped (route chunks apart)`, "< 250 KB", web.initial_js_gzip_kb < 250);
  const runs = web.overview_interactive_ms.runs;
  add(
    "console",
    `overview interactive, median of ${runs.length} cold loads ${ms(web.overview_interactive_ms.median)}`,
    "< 1500 ms",
    web.overview_interactive_ms.median < 1500,
  );
}

const faults = read<{ database: string; checks: { pass: boolean }[]; passed: boolean; scenarios: string[] }>("faults");

const load = os
  .loadavg()
  .map((n) => n.toFixed(2))
  .join(" ");
const lines = [
  "# Benchmark report",
  "",
  `Written by \`bench/report.ts\` at ${new Date().toISOString()} from \`bench/results/*.json\`. Reproduce with \`pnpm install && pnpm build && pnpm bench\``,
  "(size knobs in each benchmark's header comment; `BENCH_DATABASE_URL=postgresql://…` runs the right-sizing and mixed-load benchmarks on PostgreSQL).",
  "",
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, Node ${process.version}, ${os.platform()} ${os.release()}, load average ${load} (1/5/15 min) when the report was written.`,
  "Figures from a shared or loaded machine are noisy: compare ratios to their baselines rather than absolute times.",
  "",
  "| benchmark | figure | baseline | ratio | target | met |",
  "|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.benchmark} | ${r.figure} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met === undefined ? "—" : r.met ? "yes" : "**no**"} |`),
  "",
];
lines.push(...notes.map((n) => `${n}\n`));
if (faults)
  lines.push(
    `Last fault run (${faults.scenarios.join(", ")}, ${faults.database}): ${faults.checks.filter((c) => c.pass).length} of ${faults.checks.length} checks passed (\`pnpm --filter @cloudcost/bench faults\`; \`.ci/reliability.sh\` runs them with a short mixed load).`,
    "",
  );
const missing = ["compute-query", "marketplace", "rightsizing", "mixed-load"].filter((name) => !read(name));
if (missing.length) lines.push(`Not run: ${missing.join(", ")}.`, "");
fs.writeFileSync(path.join(dir, "latest.md"), lines.join("\n"));
console.log(lines.join("\n"));
