#!/usr/bin/env node
// Derives prisma/seed/aws-instance-specs.csv (local NVMe size and accelerators of AWS instance types)
// from Karpenter's instance-type reference, the spec source the compute seed already uses:
//   git -C <karpenter-provider-aws> show 692ccdd0629e488300821443f0fa0bc3c3e08047:website/content/en/preview/reference/instance-types.md > instance-types.md
//   node scripts/derive-aws-instance-specs.mjs instance-types.md [output.csv]
// Every documented type gets a row, so "documented without local NVMe" (0) differs from "not documented" (no row).
// A GPU count of 0 (g6f, gr6f) is a share of one GPU: the share is the type's GPU memory over a whole
// GPU's of the same model (instance-gpu-memory is per GPU), rounded to 4 decimals.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!process.argv[2]) {
  console.error("usage: node scripts/derive-aws-instance-specs.mjs <instance-types.md> [output.csv]");
  process.exit(1);
}
const input = path.resolve(process.argv[2]);
const output = path.resolve(process.argv[3] ?? path.join(appDir, "prisma/seed/aws-instance-specs.csv"));

// Karpenter's label values -> the catalog's vendor and model names (the vendors' own product names).
const VENDORS = { nvidia: "nvidia", amd: "amd", aws: "aws", qualcomm: "qualcomm", habana: "habana", xilinx: "xilinx" };
const MODELS = {
  a100: "A100",
  a10g: "A10G",
  b200: "B200",
  b300: "B300",
  h100: "H100",
  h200: "H200",
  l4: "L4",
  l40s: "L40S",
  t4: "T4",
  t4g: "T4G",
  v100: "V100",
  "rtx-pro-4500": "RTX PRO 4500",
  "rtx-pro-server-6000": "RTX PRO 6000",
  "radeon-pro-v520": "Radeon Pro V520",
  inferentia: "Inferentia",
  inferentia2: "Inferentia2",
  trainium: "Trainium",
  trainium2: "Trainium2",
  "qualcomm-ai100": "Cloud AI 100",
};

const text = fs.readFileSync(input, "utf8");
const types = text
  .split("\n### `")
  .slice(1)
  .map((section) => ({
    type: section.slice(0, section.indexOf("`")),
    labels: Object.fromEntries([...section.matchAll(/\|karpenter\.k8s\.aws\/([a-z-]+)\|([^|]*)\|/g)].map((m) => [m[1], m[2]])),
  }));
const wholeGpuMemory = new Map();
for (const { labels } of types) {
  if (Number(labels["instance-gpu-count"]) >= 1) {
    const name = labels["instance-gpu-name"];
    wholeGpuMemory.set(name, Math.max(wholeGpuMemory.get(name) ?? 0, Number(labels["instance-gpu-memory"])));
  }
}
const rows = [];
for (const { type, labels } of types) {
  const kind = labels["instance-gpu-name"] ? "gpu" : labels["instance-accelerator-name"] ? "accelerator" : null;
  let vendor = "",
    model = "",
    count = "";
  if (kind) {
    const maker = labels[`instance-${kind}-manufacturer`];
    const name = labels[`instance-${kind}-name`];
    vendor = VENDORS[maker];
    model = MODELS[name];
    count = labels[`instance-${kind}-count`];
    if (!vendor || !model || !/^\d+$/.test(count)) throw new Error(`${type}: unmapped ${kind} ${maker}/${name}/${count}`);
    if (count === "0") {
      const whole = wholeGpuMemory.get(name);
      const share = Number(labels["instance-gpu-memory"]) / whole;
      if (!whole || !(share > 0 && share < 1)) throw new Error(`${type}: no share of a whole ${name}`);
      count = String(Math.round(share * 10000) / 10000);
    }
  }
  const nvme = labels["instance-local-nvme"] ?? "0";
  if (!/^\d+$/.test(nvme)) throw new Error(`${type}: local NVMe ${nvme}`);
  rows.push([type, nvme, vendor, model, count].join(","));
}
rows.sort();
fs.writeFileSync(output, `${["instance_type,local_nvme_gb,accelerator_vendor,accelerator_model,accelerator_count", ...rows].join("\n")}\n`);
console.log(`${rows.length} types from ${input}\n-> ${output}`);
