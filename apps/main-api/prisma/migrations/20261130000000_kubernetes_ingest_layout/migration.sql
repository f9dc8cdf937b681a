-- Pod samples keyed hour first: an agent sends one hour at a time, so a batch's keys land together
-- at the right edge of the key instead of across every pod's history, and the reads by hour range
-- (allocation by pod or label, the largest pod of a pool) use the key: the separate hour index goes.
ALTER TABLE "kubernetes_pod_samples" DROP CONSTRAINT "kubernetes_pod_samples_pkey",
  ADD CONSTRAINT "kubernetes_pod_samples_pkey" PRIMARY KEY ("tenant_id", "hour", "cluster", "namespace", "pod");
DROP INDEX "kubernetes_pod_samples_hour";

-- Every hour's batch updates the day's claim and node-day rows in place: free room on their pages
-- keeps those updates HOT (no new index entries; the old versions are pruned in place).
ALTER TABLE "kubernetes_claim_days" SET (fillfactor = 70);
ALTER TABLE "kubernetes_node_days" SET (fillfactor = 70);
