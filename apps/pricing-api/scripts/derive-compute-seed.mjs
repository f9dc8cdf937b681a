#!/usr/bin/env node
// Derives the committed compute catalog seed from a compute price file (the project's shared
// `compute_prices.csv`, not kept in this repository; prisma/seed/PROVENANCE.md describes it):
//   node scripts/derive-compute-seed.mjs <input.csv> [output.csv.gz]
// The input is required; the output defaults to prisma/seed/compute-prices.csv.gz.
// Uses the app's own parser (the one `catalog:import` uses), so run `pnpm build` first.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!process.argv[2]) {
  console.error("usage: node scripts/derive-compute-seed.mjs <input.csv> [output.csv.gz]");
  process.exit(2);
}
const input = path.resolve(process.argv[2]);
const output = path.resolve(process.argv[3] ?? path.join(appDir, "prisma/seed/compute-prices.csv.gz"));

const compiled = path.join(appDir, "dist/compute/catalog-file.js");
if (!fs.existsSync(compiled)) {
  console.error(`${compiled} is missing: run \`pnpm --filter @cloudcost/pricing-api build\` first.`);
  process.exit(1);
}
const { parsePriceFile, formatSeed } = createRequire(import.meta.url)(compiled);

const rows = parsePriceFile(fs.readFileSync(input, "utf8"));
const csv = formatSeed(rows);
const gz = gzipSync(Buffer.from(csv, "utf8"), { level: 9 });
fs.mkdirSync(path.dirname(output), { recursive: true });
fs.writeFileSync(output, gz);
console.log(`${rows.length} rows from ${input}\n-> ${output} (${csv.length} bytes CSV, ${gz.length} bytes gzip)`);
