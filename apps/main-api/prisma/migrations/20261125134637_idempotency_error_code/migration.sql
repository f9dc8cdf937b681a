-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN     "error_code" TEXT;
