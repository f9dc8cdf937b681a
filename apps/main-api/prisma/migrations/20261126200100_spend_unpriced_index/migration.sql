-- Reprice reads a tenant's unpriced usage lines: a partial index keeps that read off the priced ones.
CREATE INDEX "manual_spend_lines_unpriced" ON "spend_lines"("organization_id", "tenant_id", "charge_period_start", "id") WHERE NOT "priced";
