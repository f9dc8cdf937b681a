-- Invitations become pending objects the invitee accepts or declines (issue 22 finding 1). Until
-- now an invitation was a users row without an identity, linked implicitly on the first request
-- with the invited e-mail; users rows now exist only for identities that joined.

-- DropIndex (users were matched by e-mail only for the implicit link)
DROP INDEX "users_email_idx";

-- CreateTable
CREATE TABLE "invitations" (
    "organization_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "tenant_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "name" TEXT,
    "job_title" TEXT,
    "invited_by_user_id" TEXT,
    "invited_by_api_key_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "declined_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("organization_id","id")
);

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express these).
ALTER TABLE "invitations" ADD CONSTRAINT "manual_invitations_email_lower" CHECK ("email" = lower("email"));
-- An invitation ends once: accepted, declined or revoked (expiry is read from expires_at).
ALTER TABLE "invitations" ADD CONSTRAINT "manual_invitations_one_answer" CHECK (num_nonnulls("accepted_at", "declined_at", "revoked_at") <= 1);
ALTER TABLE "invitations" ADD CONSTRAINT "manual_invitations_one_inviter" CHECK ("invited_by_user_id" IS NULL OR "invited_by_api_key_id" IS NULL);
-- At most one open invitation per organization and e-mail, decided by the database under concurrency.
CREATE UNIQUE INDEX "manual_invitations_pending_email" ON "invitations" ("organization_id", "email")
  WHERE "accepted_at" IS NULL AND "declined_at" IS NULL AND "revoked_at" IS NULL;
-- The invitee lists its invitations before any organization is known (like identities), so this
-- index cannot lead with organization_id.
CREATE INDEX "manual_invitations_pending_by_email" ON "invitations" ("email")
  WHERE "accepted_at" IS NULL AND "declined_at" IS NULL AND "revoked_at" IS NULL;

-- Existing invitations (users never linked to an identity) move here, keeping their id's time-ordered
-- body under the inv_ prefix. Active ones stay open for 7 days from this migration (they had no
-- expiry); deactivated ones were withdrawn, so they arrive revoked. Such users were never able to
-- authenticate, so nothing but their tenant rows refers to them (no identity, no API key).
INSERT INTO "invitations" ("organization_id", "id", "email", "role", "tenant_ids", "name", "job_title", "created_at", "expires_at", "revoked_at")
SELECT u."organization_id", 'inv_' || substr(u."id", 5), u."email", u."role",
       COALESCE((SELECT array_agg(ut."tenant_id" ORDER BY ut."tenant_id") FROM "user_tenants" ut
                 WHERE ut."organization_id" = u."organization_id" AND ut."user_id" = u."id"), ARRAY[]::TEXT[]),
       u."name", u."job_title", u."joined_at", CURRENT_TIMESTAMP + interval '7 days',
       CASE WHEN u."active" THEN NULL ELSE u."updated_at" END
FROM "users" u
WHERE NOT EXISTS (SELECT 1 FROM "identities" i WHERE i."organization_id" = u."organization_id" AND i."user_id" = u."id");

DELETE FROM "user_tenants" ut
WHERE NOT EXISTS (SELECT 1 FROM "identities" i WHERE i."organization_id" = ut."organization_id" AND i."user_id" = ut."user_id");

DELETE FROM "users" u
WHERE NOT EXISTS (SELECT 1 FROM "identities" i WHERE i."organization_id" = u."organization_id" AND i."user_id" = u."id");
