-- Dimensions (docs/api.md, "Dimensions"): an organization's virtual tags, one row per version.
-- A version is immutable once written; a PUT adds the next one. Keys lead with the organization
-- (distributable by it).
CREATE TABLE "dimension_versions" (
    "organization_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "effective_from" DATE NOT NULL,
    "rules" JSONB NOT NULL,
    "default_value" TEXT,
    "splits" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "applied_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dimension_versions_pkey" PRIMARY KEY ("organization_id","key","version")
);
