import path from "node:path";
import { defineConfig } from "prisma/config";

// Prisma's CLI would download its native schema engine, which this network cannot reach: point it at
// a stub (generate/validate/format need no engine) and turn its update check off.
process.env.CHECKPOINT_DISABLE = "1";
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(__dirname, "../../packages/db/bin/schema-engine-stub.cjs");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
