-- An ingest updates the claim rows of its batch's clusters for the batch's days and month: read
-- through these, a tenant's other clusters' rows are not scanned.
CREATE INDEX "kubernetes_claim_days_cluster" ON "kubernetes_claim_days"("tenant_id", "cluster", "day");
CREATE INDEX "kubernetes_claim_months_cluster" ON "kubernetes_claim_months"("tenant_id", "cluster", "month");
