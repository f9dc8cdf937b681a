-- CreateTable
CREATE TABLE "service_token_jtis" (
    "jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "service_token_jtis_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE INDEX "service_token_jtis_expires_at_idx" ON "service_token_jtis"("expires_at");
