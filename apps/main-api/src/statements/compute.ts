import type { SplitRule, StatementLine, StatementSection } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import { byteOrder, type DaySplit, splitAmount } from "../dimensions/split";
import type { CorrectionRow, DimensionRow, SourceRow, TenantRow } from "./cost-repository";

const ZERO = new Decimal(0);
/** Exact text of an amount ("0", never "-0"). */
export const exact = (value: Decimal): string => (value.isZero() ? "0" : value.toFixed());

/** Where a charge category's cost goes; the categories FOCUS does not name go with adjustments, so that the sections always add up. */
const SECTION_OF: Record<string, StatementSection> = { Usage: "usage", Purchase: "commitment_fees", Credit: "credits", Tax: "tax", Adjustment: "adjustments" };
const sectionOf = (category: string): StatementSection => SECTION_OF[category] ?? "adjustments";

export type Sections = Record<StatementSection, StatementLine[]>;

export interface ComputedRecipient {
  value: string;
  total: Decimal;
  sections: Sections;
}

export interface Computed {
  recipients: ComputedRecipient[];
  unallocated: Decimal;
}

/** A recipient's direct cost per (charge category, service) and its corrections per the same. */
class Account {
  direct = new Map<string, Decimal>();
  corrections = new Map<string, Decimal>();
  /** Per split id: what it received (in) or gave (out). */
  shared = new Map<string, { split: SplitRule; in: Decimal; out: Decimal }>();

  addDirect(category: string, service: string, cost: Decimal) {
    const id = JSON.stringify([category, service]);
    this.direct.set(id, (this.direct.get(id) ?? ZERO).plus(cost));
  }
  addCorrection(category: string, service: string, cost: Decimal) {
    const id = JSON.stringify([category, service]);
    this.corrections.set(id, (this.corrections.get(id) ?? ZERO).plus(cost));
  }
  addShared(split: SplitRule, side: "in" | "out", amount: Decimal) {
    const entry = this.shared.get(split.id) ?? { split, in: ZERO, out: ZERO };
    entry[side] = entry[side].plus(amount);
    this.shared.set(split.id, entry);
  }
  /** Everything it carries: direct - shared out + shared in (corrections are inside direct). */
  total(): Decimal {
    let total = ZERO;
    for (const cost of this.direct.values()) total = total.plus(cost);
    for (const entry of this.shared.values()) total = total.plus(entry.in).minus(entry.out);
    return total;
  }
}

const line = (description: string, amount: Decimal, shared?: { source: string | null; method: string | null; ratio: string | null }): StatementLine => ({
  description,
  source: shared?.source ?? null,
  method: shared?.method ?? null,
  ratio: shared?.ratio ?? null,
  amount: exact(amount),
});

/**
 * A recipient's sections: its direct cost by charge category and service with the corrections
 * taken out of where the roll-up holds them and listed apart, then its shared lines (in: one per
 * split rule it received from, ratio = its amount / what the rule moved from the source; out: one
 * negative line per rule that shared it). The total is the sum of the lines, exactly.
 */
function sectionsOf(account: Account, moved: Map<string, Decimal>): { sections: Sections; total: Decimal } {
  const sections: Sections = { usage: [], shared: [], commitment_fees: [], credits: [], tax: [], adjustments: [], corrections: [] };
  const keys = [...new Set([...account.direct.keys(), ...account.corrections.keys()])].sort(byteOrder);
  for (const id of keys) {
    const [category, service] = JSON.parse(id) as [string, string];
    const correction = account.corrections.get(id) ?? ZERO;
    const rest = (account.direct.get(id) ?? ZERO).minus(correction);
    const section = sectionOf(category);
    const name = service === "" ? "(no service)" : service;
    if (!rest.isZero())
      sections[section].push(line(section === "adjustments" && category !== "Adjustment" ? `${category || "(no category)"}: ${name}` : name, rest));
    if (!correction.isZero()) sections.corrections.push(line(`${category || "(no category)"}: ${name}`, correction));
  }
  const shared = [...account.shared.values()].sort((a, b) => byteOrder(a.split.source ?? "", b.split.source ?? "") || byteOrder(a.split.id, b.split.id));
  for (const entry of shared) {
    const method = entry.split.method;
    if (!entry.in.isZero()) {
      const total = moved.get(entry.split.id) ?? ZERO;
      const ratio = total.isZero() ? null : exact(entry.in.dividedBy(total).toDecimalPlaces(10, Decimal.ROUND_HALF_UP));
      sections.shared.push(line(`Shared from ${entry.split.source ?? "unallocated"}`, entry.in, { source: entry.split.source, method, ratio }));
    }
    if (!entry.out.isZero()) sections.shared.push(line("Shared out", entry.out.negated(), { source: entry.split.source, method, ratio: null }));
  }
  let total = ZERO;
  for (const lines of Object.values(sections)) for (const item of lines) total = total.plus(item.amount);
  return { sections, total };
}

function finish(accounts: Map<string, Account>, moved: Map<string, Decimal>, unallocated: Account | undefined): Computed {
  const recipients = [...accounts]
    .sort(([a], [b]) => byteOrder(a, b))
    .map(([value, account]) => {
      const { sections, total } = sectionsOf(account, moved);
      return { value, total, sections };
    });
  return { recipients, unallocated: unallocated?.total() ?? ZERO };
}

/** By tenant: each tenant with lines in the period is a recipient; lines without a tenant ('') are the unallocated rest. */
export function computeByTenant(rows: TenantRow[], corrections: CorrectionRow[]): Computed {
  const accounts = new Map<string, Account>();
  const accountOf = (tenant: string) => {
    let account = accounts.get(tenant);
    if (!account) {
      account = new Account();
      accounts.set(tenant, account);
    }
    return account;
  };
  for (const row of rows) accountOf(row.tenant).addDirect(row.charge_category, row.service_name, new Decimal(row.cost));
  for (const row of corrections) accountOf(row.tenant).addCorrection(row.charge_category, row.service_name, new Decimal(row.cost));
  const unallocated = accounts.get("");
  accounts.delete("");
  return finish(accounts, new Map(), unallocated);
}

/**
 * By a dimension's values: each row's direct cost under its value; a split source's priced cost of
 * a day and charge category its split takes (`sources`) is shared among the targets in that day's
 * shares (pieces exact, the rest to the largest share), as the spend query by the dimension alone
 * shares it; corrections are assigned a value by the month's rules. The unallocated value ('') is
 * no recipient: what it keeps after its splits is the unallocated rest.
 */
export function computeByDimension(
  rows: DimensionRow[],
  sources: SourceRow[],
  corrections: { value: string | null; row: CorrectionRow }[],
  splits: SplitRule[],
  sharesOf: (day: string, splits: SplitRule[]) => DaySplit["shares"],
): Computed {
  const accounts = new Map<string, Account>();
  const accountOf = (value: string) => {
    let account = accounts.get(value);
    if (!account) {
      account = new Account();
      accounts.set(value, account);
    }
    return account;
  };
  const moved = new Map<string, Decimal>();
  for (const row of rows) accountOf(row.value).addDirect(row.charge_category, row.service_name, new Decimal(row.cost));
  for (const row of sources) {
    const cost = new Decimal(row.cost);
    if (cost.isZero()) continue;
    const source = row.value === "" ? null : row.value;
    const category = row.charge_category;
    const split = splits.find((rule) => rule.source === source && (!rule.charge_categories?.length || (rule.charge_categories as string[]).includes(category)));
    const targets = split ? sharesOf(row.day, splits).get(split.id) : undefined;
    if (!split || !targets) continue;
    accountOf(row.value).addShared(split, "out", cost);
    moved.set(split.id, (moved.get(split.id) ?? ZERO).plus(cost));
    for (const [target, piece] of splitAmount(cost, targets)) accountOf(target).addShared(split, "in", piece);
  }
  for (const { value, row } of corrections) accountOf(value ?? "").addCorrection(row.charge_category, row.service_name, new Decimal(row.cost));
  const unallocated = accounts.get("");
  accounts.delete("");
  return finish(accounts, moved, unallocated);
}
