import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { insertLines, type LedgerLineInput } from "../../src/spend/lines-repository";
import type { TestContext } from "./context";

/** One priced line of `cost` (billed = effective = list) on a UTC day, through the ledger (lines and roll-up). */
export function dayLine(tenantId: string, day: string, cost: string, overrides: Partial<LedgerLineInput> = {}): LedgerLineInput {
  const start = new Date(`${day}T00:00:00.000Z`);
  return {
    tenantId,
    source: "focus_import",
    chargePeriodStart: start.toISOString(),
    chargePeriodEnd: new Date(start.getTime() + 86_400_000).toISOString(),
    chargeCategory: "Usage",
    provider: "aws",
    serviceName: "Amazon EC2",
    billedCost: cost,
    effectiveCost: cost,
    listCost: cost,
    currency: "USD",
    priced: true,
    ...overrides,
  };
}

export async function seedSpend(ctx: Pick<TestContext, "prisma">, organizationId: string, lines: LedgerLineInput[]): Promise<void> {
  await ctx.prisma.$transaction((tx) => insertLines(tx, organizationId, lines), TRANSACTION_OPTIONS);
}

/** YYYY-MM-DD of `n` days after `day`. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
