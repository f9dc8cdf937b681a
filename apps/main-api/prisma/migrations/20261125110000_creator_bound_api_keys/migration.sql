-- CreateIndex
CREATE INDEX "api_keys_organization_id_created_by_user_id_idx" ON "api_keys"("organization_id", "created_by_user_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_created_by_user_id_fkey" FOREIGN KEY ("organization_id", "created_by_user_id") REFERENCES "users"("organization_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Re-sync every live key to the pricing API with its effective role (the lower of the key's and its
-- creator's current role) and whether it is suspended (creator deactivated or missing): keys
-- provisioned before keys carried a role act as admin there until this message is delivered.
INSERT INTO "outbox" ("organization_id", "topic", "aggregate_id", "payload")
SELECT k."organization_id", 'pricing.api_key.provision', k."id",
       jsonb_build_object(
         'key_hash', k."key_hash", 'id', k."id", 'prefix', k."prefix", 'name', k."name",
         'role', CASE WHEN u."role" IS NOT NULL
                       AND array_position(ARRAY['viewer','member','admin','owner'], u."role"::text)
                         < array_position(ARRAY['viewer','member','admin','owner'], k."role"::text)
                      THEN u."role"::text ELSE k."role"::text END,
         'suspended', u."active" IS NOT TRUE)
  FROM "api_keys" k
  LEFT JOIN "users" u ON u."organization_id" = k."organization_id" AND u."id" = k."created_by_user_id"
 WHERE k."revoked_at" IS NULL;
