-- The dimension roll-up (docs/api.md, "Dimensions"): each line's direct cost under every
-- dimension of its organization, per (organization, dimension, UTC day, tenant, value and
-- spend_service_daily's dimensions), '' for null (value '' is unallocated). Maintained in the
-- transaction of every line write; rebuilt in the background when a version changes. Splits are
-- applied when read, from these direct costs. Keys lead with the organization (distributable by it).
CREATE TABLE "spend_dimension_daily" (
    "organization_id" TEXT NOT NULL,
    "dimension_key" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "dims_key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "charge_category" TEXT NOT NULL,
    "charge_frequency" TEXT NOT NULL,
    "pricing_category" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "service_name" TEXT NOT NULL,
    "service_category" TEXT NOT NULL,
    "unpriced_reason" TEXT NOT NULL,
    "billed_cost" DECIMAL NOT NULL,
    "effective_cost" DECIMAL NOT NULL,
    "list_cost" DECIMAL NOT NULL,
    "contracted_cost" DECIMAL NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_dimension_daily_pkey" PRIMARY KEY ("organization_id","dimension_key","day","tenant_id","dims_key")
);

-- Each value's priced direct cost per (organization, dimension, UTC day, currency), over every
-- tenant: what a day's split shares are made of, read by every query with splits. Maintained in the
-- same statements as spend_dimension_daily (the same deltas, summed).
CREATE TABLE "spend_dimension_value_daily" (
    "organization_id" TEXT NOT NULL,
    "dimension_key" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "currency" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "billed_cost" DECIMAL NOT NULL,
    "effective_cost" DECIMAL NOT NULL,
    "list_cost" DECIMAL NOT NULL,
    "contracted_cost" DECIMAL NOT NULL,
    "line_count" BIGINT NOT NULL,

    CONSTRAINT "spend_dimension_value_daily_pkey" PRIMARY KEY ("organization_id","dimension_key","day","currency","value")
);
