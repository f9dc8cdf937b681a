-- Staged lines come from bills only, whose BillingAccountId is required: the session's supersede
-- reads the (billing account, billing period) pairs of its parts and must never see a null one.
ALTER TABLE "spend_staged_lines" ALTER COLUMN "billing_account_id" SET NOT NULL;
