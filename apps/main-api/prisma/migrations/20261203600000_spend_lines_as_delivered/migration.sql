-- Bill columns kept as the provider delivered them (docs/api.md, "Cloud bills: FOCUS import"): names
-- of accounts, zone and region name, publisher, invoice, commitment name and the provider's own row
-- id. Lines stored before this have none of them: they stay null (nothing is recovered or guessed).
ALTER TABLE "spend_lines"
    ADD COLUMN "billing_account_name" TEXT,
    ADD COLUMN "sub_account_name" TEXT,
    ADD COLUMN "availability_zone" TEXT,
    ADD COLUMN "region_name" TEXT,
    ADD COLUMN "publisher_name" TEXT,
    ADD COLUMN "invoice_id" TEXT,
    ADD COLUMN "commitment_discount_name" TEXT,
    ADD COLUMN "row_id" TEXT;
ALTER TABLE "spend_staged_lines"
    ADD COLUMN "billing_account_name" TEXT,
    ADD COLUMN "sub_account_name" TEXT,
    ADD COLUMN "availability_zone" TEXT,
    ADD COLUMN "region_name" TEXT,
    ADD COLUMN "publisher_name" TEXT,
    ADD COLUMN "invoice_id" TEXT,
    ADD COLUMN "commitment_discount_name" TEXT,
    ADD COLUMN "row_id" TEXT;

-- Amounts and quantities keep every delivered decimal place up to 20 (they were rounded to 10). The
-- bound on a bill's decimals (below 10^18) fits 18 integer digits. Stored values do not change.
ALTER TABLE "spend_lines"
    ALTER COLUMN "consumed_quantity" TYPE DECIMAL(38,20),
    ALTER COLUMN "billed_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "effective_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "list_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "pricing_quantity" TYPE DECIMAL(38,20),
    ALTER COLUMN "contracted_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "contracted_unit_price" TYPE DECIMAL(38,20),
    ALTER COLUMN "list_unit_price" TYPE DECIMAL(38,20),
    ALTER COLUMN "commitment_discount_quantity" TYPE DECIMAL(38,20);
ALTER TABLE "spend_staged_lines"
    ALTER COLUMN "consumed_quantity" TYPE DECIMAL(38,20),
    ALTER COLUMN "billed_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "effective_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "list_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "pricing_quantity" TYPE DECIMAL(38,20),
    ALTER COLUMN "contracted_cost" TYPE DECIMAL(38,20),
    ALTER COLUMN "contracted_unit_price" TYPE DECIMAL(38,20),
    ALTER COLUMN "list_unit_price" TYPE DECIMAL(38,20),
    ALTER COLUMN "commitment_discount_quantity" TYPE DECIMAL(38,20);

-- The spend roll-ups sum those amounts exactly (any scale), so that a query read from them and the
-- same read from the lines round once, at the end, to the same 10 places.
ALTER TABLE "spend_daily"
    ALTER COLUMN "billed_cost" TYPE DECIMAL,
    ALTER COLUMN "effective_cost" TYPE DECIMAL,
    ALTER COLUMN "list_cost" TYPE DECIMAL,
    ALTER COLUMN "contracted_cost" TYPE DECIMAL;
ALTER TABLE "spend_service_daily"
    ALTER COLUMN "billed_cost" TYPE DECIMAL,
    ALTER COLUMN "effective_cost" TYPE DECIMAL,
    ALTER COLUMN "list_cost" TYPE DECIMAL,
    ALTER COLUMN "contracted_cost" TYPE DECIMAL;
ALTER TABLE "spend_tag_daily"
    ALTER COLUMN "billed_cost" TYPE DECIMAL,
    ALTER COLUMN "effective_cost" TYPE DECIMAL,
    ALTER COLUMN "list_cost" TYPE DECIMAL,
    ALTER COLUMN "contracted_cost" TYPE DECIMAL;
