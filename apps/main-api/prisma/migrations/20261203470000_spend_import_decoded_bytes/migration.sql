-- What each import's file counted against SPEND_IMPORT_MAX_BYTES once decoded: the pending parts of
-- an organization's import sessions hold at most twice that bound between them.
ALTER TABLE "spend_imports" ADD COLUMN "decoded_bytes" BIGINT NOT NULL DEFAULT 0;
