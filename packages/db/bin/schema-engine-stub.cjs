#!/usr/bin/env node
// Stands in for Prisma's native schema engine, which cannot be downloaded on this network.
// `prisma generate`, `validate` and `format` work without it; migrations are applied by
// @cloudcost/db's runner and authored with bin/db-diff.mjs (the schema engine compiled to wasm).
if (process.argv.includes("--version")) {
  process.stdout.write("schema-engine-cli 0.0.0-stub (cloudcost: native engine not installed)\n");
  process.exit(0);
}
process.stderr.write(
  "The native Prisma schema engine is not installed here. Apply migrations with `pnpm db:migrate`; " +
    "write a new one with `pnpm --filter <app> db:new <name>`.\n",
);
process.exit(1);
