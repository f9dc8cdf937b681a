// Two dimensions over the demo bill (docs/api.md, "Dimensions"): `team` from the `team` tag, with the
// platform team's and the support plan's cost shared among the other teams in proportion to their
// own cost each day; `cost_center` by account. A preview of the last 30 days shows what `team` does.
import { SUB_ACCOUNTS } from "./focus.mjs";

const TEAM = {
  name: "Team",
  description: "Who owns the cost: the team tag; the platform team and the support plan shared by the teams' own cost",
  rules: [
    { value: "support", match: { field: "service_name", op: "prefix", value: "AWS Support" } },
    { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
  ],
  default_value: null,
  splits: [
    { source: "platform", targets: "*", method: "proportional" },
    { source: "support", targets: "*", method: "proportional" },
  ],
};

const COST_CENTER = {
  name: "Cost center",
  description: "Finance's cost centers, by AWS account",
  rules: [
    { value: "CC-100 Production", match: { field: "sub_account_id", op: "eq", value: SUB_ACCOUNTS.production } },
    { value: "CC-200 Staging", match: { field: "sub_account_id", op: "eq", value: SUB_ACCOUNTS.staging } },
  ],
  default_value: "CC-900 Shared",
};

/** The demo's dimensions by key (the console's e2e test stores the same ones). */
export const DEMO_DIMENSIONS = { team: TEAM, cost_center: COST_CENTER };

export async function loadDimensions({ main, org, now, log }) {
  await main.putDimension({ params: { org_id: org, key: "team" }, body: TEAM });
  await main.putDimension({ params: { org_id: org, key: "cost_center" }, body: COST_CENTER });
  const day = (offset) => new Date(now + offset * 86_400_000).toISOString().slice(0, 10);
  const preview = await main.previewDimension({ params: { org_id: org, key: "team" }, query: { start: day(-30), end: day(1) }, body: TEAM });
  const values = preview.values.map((v) => `${v.value} ${v.cost}`).join(", ");
  log(`  Dimensions: team (${preview.coverage.percent ?? "0"} % of the last 30 days' cost by tag; after the splits: ${values}) and cost_center`);
  // The service applies a new version in the background; the Spend page groups by it once applied.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const dimensions = await main.listDimensions({ params: { org_id: org } });
    if (dimensions.items.every((d) => d.status === "applied")) break;
    if (Date.now() > deadline) {
      log("  Dimensions: still being applied to the ledger; the Spend page shows them once they are");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log("  Dimensions applied: Spend > Group by > Team (dimension) shows each team's cost with its shared costs");
}
