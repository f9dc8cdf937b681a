-- AlterTable
ALTER TABLE "outbox" ADD COLUMN "leased_until" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_organization_id_webhook_id_created_at_idx" ON "webhook_deliveries"("organization_id", "webhook_id", "created_at");

-- The outbox is claimed by queue (a set of topics): API-key changes apart from webhook deliveries,
-- so that neither waits behind the other. The API-key queue claims its topics in due order; the
-- webhook queue walks the organizations with pending messages and takes each one's earliest due
-- messages, up to its free delivery slots, counted from the messages leased (in flight).
DROP INDEX "manual_outbox_pending";
CREATE INDEX "manual_outbox_pending_topic" ON "outbox" ("topic", "next_attempt_at", "id") WHERE "delivered_at" IS NULL;
CREATE INDEX "manual_outbox_pending_org_topic" ON "outbox" ("organization_id", "topic", "next_attempt_at", "id") WHERE "delivered_at" IS NULL;
CREATE INDEX "manual_outbox_leased" ON "outbox" ("organization_id", "topic") WHERE "leased_until" IS NOT NULL AND "delivered_at" IS NULL;
