-- Showback statements (docs/api.md, "Statements"): a month's cost per recipient (a tenant or a
-- dimension's value) computed once and stored, so that later imports never change it. Keys lead
-- with the organization (distributable by it).
CREATE TABLE "statements" (
    "organization_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "supersedes_id" TEXT,
    "changes" JSONB,
    "bill_total" DECIMAL NOT NULL,
    "allocated_total" DECIMAL NOT NULL,
    "unallocated_total" DECIMAL NOT NULL,
    "difference" DECIMAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finalized_at" TIMESTAMPTZ(3),

    CONSTRAINT "statements_pkey" PRIMARY KEY ("organization_id","id")
);

-- Numbers are sequential per (organization, period): the key refuses a duplicate whatever happens.
CREATE UNIQUE INDEX "statements_organization_id_period_sequence_key" ON "statements"("organization_id", "period", "sequence");
-- The list, newest first.
CREATE INDEX "statements_organization_id_created_at_idx" ON "statements"("organization_id", "created_at");

-- A statement's recipients: each one's total and its sections (usage, shared, fees, credits, tax,
-- adjustments, corrections), as computed when the statement was made.
CREATE TABLE "statement_recipients" (
    "organization_id" TEXT NOT NULL,
    "statement_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "total" DECIMAL NOT NULL,
    "sections" JSONB NOT NULL,

    CONSTRAINT "statement_recipients_pkey" PRIMARY KEY ("organization_id","statement_id","value")
);

ALTER TABLE "statement_recipients" ADD CONSTRAINT "statement_recipients_organization_id_statement_id_fkey" FOREIGN KEY ("organization_id", "statement_id") REFERENCES "statements"("organization_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Correction lines (ChargeClass Correction) are not in the roll-ups: statements read them from the
-- lines through this partial index, which holds only them (a handful per month).
CREATE INDEX "manual_spend_lines_corrections" ON "spend_lines"("organization_id", "charge_period_start") WHERE "charge_class" = 'Correction';
