-- CreateTable
CREATE TABLE "spend_imports" (
    "organization_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "file_name" TEXT,
    "focus_version" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "allocated_rows" INTEGER NOT NULL,
    "unallocated_rows" INTEGER NOT NULL,
    "billing_account_ids" TEXT[],
    "billing_periods" JSONB NOT NULL,
    "totals" JSONB NOT NULL,
    "superseded_import_ids" TEXT[],

    CONSTRAINT "spend_imports_pkey" PRIMARY KEY ("organization_id","id")
);

-- CreateTable
CREATE TABLE "spend_allocation_rules" (
    "organization_id" TEXT NOT NULL,
    "rules" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_allocation_rules_pkey" PRIMARY KEY ("organization_id")
);
