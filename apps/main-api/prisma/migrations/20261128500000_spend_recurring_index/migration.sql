-- Forecasts repeat each series of Recurring lines from its latest charge: this partial index holds
-- only those lines (fees, subscriptions; a handful per tenant and month), so finding them never
-- reads the tenant's usage lines.
CREATE INDEX "manual_spend_lines_recurring" ON "spend_lines"("organization_id", "tenant_id", "charge_period_start") WHERE "charge_frequency" = 'Recurring';
