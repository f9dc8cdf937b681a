-- Negotiated compute prices, versioned like model prices (decisions.md section 8).
-- CreateTable
CREATE TABLE "negotiated_compute_prices" (
    "account_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "region" TEXT NOT NULL DEFAULT '',
    "instance_type" TEXT NOT NULL DEFAULT '',
    "family" TEXT NOT NULL DEFAULT '',
    "operating_system" TEXT NOT NULL DEFAULT '',
    "usage_type" TEXT NOT NULL DEFAULT '',
    "price_per_hour" DECIMAL(30,12),
    "discount_percent" DECIMAL(30,12),
    "currency" CHAR(3) NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_to" TIMESTAMPTZ(3),
    "tags" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "negotiated_compute_prices_pkey" PRIMARY KEY ("account_id","id"),
    -- Exactly one of a fixed rate (for one instance type) and a discount.
    CONSTRAINT "negotiated_compute_prices_one_rate" CHECK (
      ("price_per_hour" IS NOT NULL AND "discount_percent" IS NULL AND "instance_type" <> '')
      OR ("price_per_hour" IS NULL AND "discount_percent" BETWEEN 0 AND 100))
);

-- CreateIndex
CREATE INDEX "negotiated_compute_prices_account_id_provider_region_instan_idx" ON "negotiated_compute_prices"("account_id", "provider", "region", "instance_type", "family", "operating_system", "usage_type", "effective_from");

-- AddForeignKey
ALTER TABLE "negotiated_compute_prices" ADD CONSTRAINT "negotiated_compute_prices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One open version per identity: the last line of defence behind the registration's advisory locks.
CREATE UNIQUE INDEX "negotiated_compute_prices_one_open" ON "negotiated_compute_prices"("account_id", "provider", "region", "instance_type", "family", "operating_system", "usage_type") WHERE "effective_to" IS NULL;
