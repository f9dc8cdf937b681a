-- Hand-written. E-mails are stored with only their ASCII letters lower-cased (src/auth/email.ts):
-- lower() under the database's locale also folds other letters (U+212A KELVIN SIGN into "k"), so
-- the checks refused such addresses; under the "C" collation lower() changes A-Z only. Every stored
-- e-mail passes (lower-casing left no A-Z in them).
ALTER TABLE "users" DROP CONSTRAINT "manual_users_email_lower";
ALTER TABLE "users" ADD CONSTRAINT "manual_users_email_lower" CHECK ("email" = lower("email" COLLATE "C"));
ALTER TABLE "invitations" DROP CONSTRAINT "manual_invitations_email_lower";
ALTER TABLE "invitations" ADD CONSTRAINT "manual_invitations_email_lower" CHECK ("email" = lower("email" COLLATE "C"));
