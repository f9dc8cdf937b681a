import { z } from "zod";
import { Currency, TimestampOutput } from "../../common.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import { SpendMetric } from "../spend/schemas.js";

/** How far back a statement's period may be, in months before the current one. */
export const MAX_STATEMENT_MONTHS_BACK = 36;

/** An exact decimal amount as a string (no exponent, as many decimal places as it has). */
export const StatementAmount = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({ id: "StatementAmount", description: "Exact decimal amount as a string, e.g. `-12.5` (no rounding: as many decimal places as the ledger holds)." });

export const StatementPeriod = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month YYYY-MM")
  .meta({ id: "StatementPeriod", description: "A calendar month in UTC, `YYYY-MM`." });

export const StatementBy = z
  .string()
  .regex(/^(tenant|dimension:[a-z][a-z0-9_]{0,39})$/, 'must be "tenant" or "dimension:<key>"')
  .meta({
    id: "StatementBy",
    description: "Who the recipients are: `tenant` (each tenant) or `dimension:<key>` (each value of the dimension, after its splits).",
  });

export const CreateStatementRequest = z
  .object({
    period: StatementPeriod,
    by: StatementBy,
    metric: SpendMetric.default("effective_cost"),
    currency: Currency,
  })
  .meta({ id: "CreateStatementRequest", description: "A statement of a month, by tenant or by a dimension's values, in one currency and cost metric." });
export type CreateStatementRequest = z.output<typeof CreateStatementRequest>;

export const StatementStatus = z.enum(["draft", "final"]).meta({ id: "StatementStatus", description: "`draft` (may be deleted) or `final` (never changes)." });

export const StatementReconciliation = z
  .object({
    bill_total: StatementAmount.meta({ description: "The metric summed over every line of the organization in the period and currency." }),
    allocated_total: StatementAmount.meta({ description: "The recipients' totals." }),
    unallocated_total: StatementAmount.meta({
      description: "What no recipient carries: lines without a tenant, or the dimension's unallocated cost after its splits.",
    }),
    difference: StatementAmount.meta({ description: 'bill_total - allocated_total - unallocated_total: "0" when the statement adds up.' }),
  })
  .meta({ id: "StatementReconciliation", description: 'How the recipients add up to the bill: difference is "0" when they do.' });

export const StatementChange = z
  .object({
    value: z.string(),
    previous_total: StatementAmount.meta({ description: '"0" when the recipient is new.' }),
    total: StatementAmount.meta({ description: '"0" when the recipient is gone.' }),
    difference: StatementAmount,
  })
  .meta({ id: "StatementChange", description: "A recipient's change against the superseded statement." });

export const Statement = z
  .object({
    id: z.string(),
    number: z.string().meta({ description: "`<period>-<sequence>`, e.g. `2026-10-0001`: sequential per organization and period." }),
    period: StatementPeriod,
    by: z.string(),
    metric: SpendMetric,
    currency: z.string(),
    status: StatementStatus,
    created_at: TimestampOutput,
    finalized_at: TimestampOutput.nullable(),
    supersedes: z
      .string()
      .nullable()
      .meta({ description: "The id of the latest final statement of the same period, by, metric and currency when this one was made." }),
    changes: z.array(StatementChange).nullable().meta({ description: "With `supersedes`: each recipient of either statement, by value." }),
    recipients: z.array(z.object({ value: z.string(), total: StatementAmount })).meta({ description: "By value (byte order)." }),
    reconciliation: StatementReconciliation,
  })
  .meta({ id: "Statement", description: "A showback statement: stored as computed when it was created." });
export type Statement = z.output<typeof Statement>;

export const Statements = z.object({ items: z.array(Statement) }).meta({ id: "Statements", description: "The organization's statements, newest first." });

export const StatementLine = z
  .object({
    description: z.string(),
    source: z.string().nullable().meta({ description: "Shared lines: the split's source value (null: the unallocated cost)." }),
    method: z.string().nullable().meta({ description: "Shared lines: the split's method." }),
    ratio: StatementAmount.nullable().meta({
      description: "Shared lines: this recipient's amount / what the split moved from the source in the period (10 places).",
    }),
    amount: StatementAmount,
  })
  .meta({ id: "StatementLine", description: "A line of a recipient's statement section." });
export type StatementLine = z.output<typeof StatementLine>;

export const STATEMENT_SECTIONS = ["usage", "shared", "commitment_fees", "credits", "tax", "adjustments", "corrections"] as const;
export type StatementSection = (typeof STATEMENT_SECTIONS)[number];

export const RecipientStatement = z
  .object({
    statement_id: z.string(),
    organization: z.object({ id: z.string(), name: z.string() }),
    number: z.string(),
    period: StatementPeriod,
    by: z.string(),
    metric: SpendMetric,
    currency: z.string(),
    status: StatementStatus,
    recipient: z.string(),
    sections: z.object(
      Object.fromEntries(STATEMENT_SECTIONS.map((name) => [name, z.array(StatementLine)])) as Record<StatementSection, z.ZodArray<typeof StatementLine>>,
    ),
    total: StatementAmount.meta({ description: "The sum of every section's lines, exactly." }),
  })
  .meta({ id: "RecipientStatement", description: "A recipient's statement: its sections and total." });
export type RecipientStatement = z.output<typeof RecipientStatement>;

export const StatementPathParams = OrganizationPathParams.extend({ id: z.string().min(1).max(64) }).meta({
  id: "StatementPathParams",
  description: "Path parameters of .../statements/{id}.",
});
export const RecipientPathParams = StatementPathParams.extend({ value: z.string().min(1).max(128) }).meta({
  id: "RecipientPathParams",
  description: "Path parameters of .../statements/{id}/recipients/{value}.",
});

export const StatementCsvFile = z
  .string()
  .meta({ id: "StatementCsvFile", description: "CSV: section,description,source,method,ratio,amount; one row per line, then a total row." });
export const StatementPdfFile = z.string().meta({ id: "StatementPdfFile", description: "A one-page PDF of the recipient's statement." });
