-- Commitment rates (Savings Plans, Reserved Instances, committed use), versioned like negotiated compute prices.
-- CreateTable
CREATE TABLE "commitment_rates" (
    "account_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "commitment_type" TEXT NOT NULL,
    "term_months" INTEGER NOT NULL,
    "payment_option" TEXT NOT NULL,
    "service_category" TEXT NOT NULL DEFAULT '',
    "region" TEXT NOT NULL DEFAULT '',
    "family" TEXT NOT NULL DEFAULT '',
    "discount_percent" DECIMAL(30,12) NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_to" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commitment_rates_pkey" PRIMARY KEY ("account_id","id"),
    CONSTRAINT "commitment_rates_discount" CHECK ("discount_percent" BETWEEN 0 AND 100)
);

-- CreateIndex
CREATE INDEX "commitment_rates_account_id_provider_commitment_type_term_m_idx" ON "commitment_rates"("account_id", "provider", "commitment_type", "term_months", "payment_option", "service_category", "region", "family", "effective_from");

-- AddForeignKey
ALTER TABLE "commitment_rates" ADD CONSTRAINT "commitment_rates_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One open version per identity: the last line of defence behind the registration's advisory locks.
CREATE UNIQUE INDEX "commitment_rates_one_open" ON "commitment_rates"("account_id", "provider", "commitment_type", "term_months", "payment_option", "service_category", "region", "family") WHERE "effective_to" IS NULL;
