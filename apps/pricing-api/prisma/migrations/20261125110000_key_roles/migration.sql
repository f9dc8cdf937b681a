-- Keys carry a role and a suspension, synced by the main API. Existing keys become admin: that is what
-- they could do before, and the main API migration creator_bound_api_keys re-syncs its keys with their
-- effective role; keys made by the pricing-key command are admin.
-- CreateEnum
CREATE TYPE "key_role" AS ENUM ('viewer', 'member', 'admin');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "role" "key_role" NOT NULL DEFAULT 'admin',
ADD COLUMN     "suspended" BOOLEAN NOT NULL DEFAULT false;
