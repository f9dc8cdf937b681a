-- An invitation sent with an API key belongs to the user who created the key: it keeps both ids
-- (the user, who is revoked with its right to invite, and the key, revoked with the key).
ALTER TABLE "invitations" DROP CONSTRAINT "manual_invitations_one_inviter";

-- Invitations sent with a key before: their sender is the key's creator.
UPDATE "invitations" i
SET "invited_by_user_id" = k."created_by_user_id"
FROM "api_keys" k
WHERE i."invited_by_user_id" IS NULL
  AND i."invited_by_api_key_id" IS NOT NULL
  AND k."organization_id" = i."organization_id"
  AND k."id" = i."invited_by_api_key_id";

-- Those still open that their sender could not send now are revoked, as they would have been: the
-- key revoked, or its creator missing, deactivated, or of a role that may not invite that role
-- (owners invite any role, admins any but owner, members and viewers none).
UPDATE "invitations" i
SET "revoked_at" = CURRENT_TIMESTAMP
WHERE i."invited_by_api_key_id" IS NOT NULL
  AND i."accepted_at" IS NULL AND i."declined_at" IS NULL AND i."revoked_at" IS NULL
  AND i."expires_at" > CURRENT_TIMESTAMP
  AND (
    NOT EXISTS (SELECT 1 FROM "api_keys" k
                WHERE k."organization_id" = i."organization_id" AND k."id" = i."invited_by_api_key_id" AND k."revoked_at" IS NULL)
    OR NOT EXISTS (SELECT 1 FROM "users" u
                   WHERE u."organization_id" = i."organization_id" AND u."id" = i."invited_by_user_id" AND u."active"
                     AND (u."role" = 'owner' OR (u."role" = 'admin' AND i."role" <> 'owner')))
  );

-- From now on an invitation sent with a key names the key's user too (rows of a key that had no
-- creator keep a null user; they were revoked just above).
ALTER TABLE "invitations" ADD CONSTRAINT "manual_invitations_key_sender"
  CHECK ("invited_by_api_key_id" IS NULL OR "invited_by_user_id" IS NOT NULL) NOT VALID;
