// Recommendations over time in the demo's Production tenant: an m5.2xlarge downsized on the
// analysis' advice about two weeks ago (its bill lines, in the demo's FOCUS bill, at both prices),
// an idle VM terminated and retired today, and a recommendation the team dismissed.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The downsized VM: its advice came from samples of the old shape 14 to 12.5 days ago, the resize
 * 12 days ago. Hourly prices are the demo organization's negotiated m5 prices in us-east-1 (20 % off
 * the list prices 0.384 and 0.192: prices.json), as its bill shows them.
 */
export const RESIZED = {
  resource_id: "web-legacy-01",
  from: "m5.2xlarge",
  to: "m5.xlarge",
  listHourly: { before: 0.384, after: 0.192 },
  hourly: { before: 0.3072, after: 0.1536 },
  resizedDaysAgo: 12,
};
const RETIRED = { resource_id: "batch-idle-07", type: "m5.large" };
const DISMISSED = { resource_id: "reports-02", type: "m5.2xlarge", reason: "Runs the month-end reports: sized for the last two days of the month" };

const vm = (resource_id, instance_type, extra = {}) => ({
  resource_id,
  name: resource_id,
  resource_type: "virtual_machine",
  provider: "aws",
  region: "us-east-1",
  availability_zone: "us-east-1a",
  instance_type,
  architecture: "x86_64",
  operating_system: "linux",
  labels: { team: "platform", story: "recommendations-over-time" },
  ...extra,
});

/** `count` hourly samples ending `endAgoMs` before `now`, CPU and memory wobbling a little around the given levels. */
function hourly(resource_id, now, count, endAgoMs, cpu, memory) {
  return Array.from({ length: count }, (_, i) => ({
    resource_id,
    timestamp: new Date(now - endAgoMs - (count - 1 - i) * HOUR_MS).toISOString(),
    cpu_utilization: Math.round(cpu * (1 + 0.1 * Math.sin(i)) * 100) / 100,
    memory_utilization: memory,
  }));
}

/** The resized VM's daily bill lines (days before today, cost): 14 days at the old price, then the new one. */
export function resizedBillDays() {
  const days = [];
  for (let daysAgo = RESIZED.resizedDaysAgo + 14; daysAgo >= 1; daysAgo--) {
    const after = daysAgo <= RESIZED.resizedDaysAgo;
    days.push({
      daysAgo,
      type: after ? RESIZED.to : RESIZED.from,
      hourly: after ? RESIZED.hourly.after : RESIZED.hourly.before,
      listHourly: after ? RESIZED.listHourly.after : RESIZED.listHourly.before,
    });
  }
  return days;
}

/**
 * Runs in the Production tenant after its first analysis: the advice, the resize, the retirement
 * and the dismissal, then a last analysis (the resized VM waits for evidence of its new shape).
 */
export async function loadHistory(main, tenant, now, log) {
  const resizedAt = new Date(Math.floor(now / DAY_MS) * DAY_MS - RESIZED.resizedDaysAgo * DAY_MS);
  await main.upsertResources({
    tenant,
    body: { resources: [vm(RESIZED.resource_id, RESIZED.from), vm(RETIRED.resource_id, RETIRED.type), vm(DISMISSED.resource_id, DISMISSED.type)] },
  });
  await main.ingestMetrics({
    tenant,
    body: {
      samples: [
        // 34 hours of the old shape at ~18 % CPU, ending before the resize
        ...hourly(RESIZED.resource_id, resizedAt.getTime(), 35, 6 * HOUR_MS, 18, 30),
        ...hourly(RETIRED.resource_id, now, 48, 60_000, 1, 10),
        ...hourly(DISMISSED.resource_id, now, 48, 60_000, 15, 35),
      ],
    },
  });
  await main.analyzeRecommendations({ tenant });
  const { items } = await main.listRecommendations({ tenant, query: { action: ["DOWNSIZE", "TERMINATE"], limit: 500 } });
  const advice = items.find((i) => i.resource_id === RESIZED.resource_id);
  if (advice?.recommended_instance_type !== RESIZED.to)
    log(
      `  (history: ${RESIZED.resource_id} was advised ${advice?.action} to ${advice?.recommended_instance_type}, not ${RESIZED.to}: its resize shows as not followed)`,
    );

  // The collector saw the new shape 12 days ago; samples of it since.
  await main.upsertResources({ tenant, body: { resources: [vm(RESIZED.resource_id, RESIZED.to, { observed_at: resizedAt.toISOString() })] } });
  await main.ingestMetrics({ tenant, body: { samples: hourly(RESIZED.resource_id, now, 12 * 24 - 2, 60_000, 36, 60) } });
  await main.retireResource({ tenant, params: { resource_id: RETIRED.resource_id } });
  await main.updateRecommendationState({ tenant, params: { resource_id: DISMISSED.resource_id }, body: { state: "dismissed", reason: DISMISSED.reason } });
  await main.analyzeRecommendations({ tenant });
  const savings = await main.getRealizedSavings({ tenant, query: { start: new Date(now - 30 * DAY_MS).toISOString().slice(0, 10) } });
  log(
    `  Production: ${RESIZED.resource_id} downsized ${RESIZED.resizedDaysAgo} days ago, ${RETIRED.resource_id} retired, ${DISMISSED.resource_id}'s advice dismissed; realized ${savings.totals.realized} USD a month of ${savings.totals.estimated} estimated`,
  );
}
