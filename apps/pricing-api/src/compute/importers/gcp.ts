import { Decimal } from "@cloudcost/decimal";
import { finishImport, type ImportedCatalog, type ImportedRow, importError, parseJson, SkipCounter, stripZeros } from "./imported-catalog";

// Google Cloud Billing Catalog SKUs of Compute Engine (services/6F81-5844-456A/skus,
// docs.cloud.google.com/billing/v1/how-tos/catalog-api): per-vCPU and per-GB-RAM SKUs per machine
// family and region, priced in `pricingInfo[].pricingExpression.tieredRates[].unitPrice {units, nanos}`.
// Combined with machine specs (the Compute Engine machineTypes list: name, guestCpus, memoryMb, zone),
// a type's price is vCPU x core rate + GB x RAM rate.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

// "N2 Instance Core running in Americas", "Spot Preemptible N2D AMD Instance Ram running in Belgium".
const SKU_DESCRIPTION = /^(Spot Preemptible )?([A-Z][A-Z0-9]*)(?: AMD| Arm)? Instance (Core|Ram) running in /;
const SHARED_CORE = new Set(["e2-micro", "e2-small", "e2-medium", "f1-micro", "g1-small"]);
const ARM_FAMILIES = new Set(["t2a", "c4a", "n4a"]);

interface Rate {
  price: Decimal;
  date: string;
}

export function parseGcpSkus(skusText: string, machineTypesText: string): ImportedCatalog {
  const skipped = new SkipCounter();
  // family|region|usage -> { core, ram }
  const rates = new Map<string, { core?: Rate; ram?: Rate }>();
  const body = parseJson(skusText, "SKU file");
  if (!isObject(body) || !Array.isArray(body.skus)) throw importError("SKU file", "skus is missing (not a services/.../skus list)");
  for (const [i, sku] of (body.skus as unknown[]).entries()) {
    const place = `skus[${i}]`;
    if (!isObject(sku) || !isObject(sku.category)) throw importError(`${place}.category`, "missing");
    const { resourceFamily, usageType } = sku.category;
    if (resourceFamily !== "Compute") {
      skipped.skip("resource family other than Compute");
      continue;
    }
    if (usageType !== "OnDemand" && usageType !== "Preemptible") {
      skipped.skip("usage type other than OnDemand or Preemptible (commitments ...)");
      continue;
    }
    if (typeof sku.description !== "string") throw importError(`${place}.description`, "missing");
    const match = SKU_DESCRIPTION.exec(sku.description);
    if (!match) {
      skipped.skip("not a per-vCPU or per-GB SKU of a predefined machine family (custom, sole-tenant, licences ...)");
      continue;
    }
    if (!Array.isArray(sku.serviceRegions) || sku.serviceRegions.length === 0) throw importError(`${place}.serviceRegions`, "missing");
    const rate = priceOf(sku.pricingInfo, place, match[3] === "Core" ? "h" : "GiBy.h");
    const usage = usageType === "OnDemand" ? "on_demand" : "spot";
    for (const region of sku.serviceRegions) {
      if (typeof region !== "string") throw importError(`${place}.serviceRegions`, "not a list of region names");
      const key = `${match[2].toLowerCase()}|${region}|${usage}`;
      const entry = rates.get(key) ?? {};
      const part = match[3] === "Core" ? "core" : "ram";
      if (entry[part]) throw importError(place, `a second ${part} SKU for ${key.replaceAll("|", " ")}`);
      entry[part] = rate;
      rates.set(key, entry);
    }
  }

  const rows: ImportedRow[] = [];
  const types = parseJson(machineTypesText, "machine types file");
  const items = isObject(types) ? types.items : undefined;
  if (!Array.isArray(items)) throw importError("machine types file", "items is missing (not a machineTypes list)");
  const seen = new Set<string>();
  for (const [i, item] of (items as unknown[]).entries()) {
    const place = `machine types items[${i}]`;
    if (!isObject(item)) throw importError(place, "not an object");
    const { name, guestCpus, memoryMb, zone } = item;
    if (typeof name !== "string" || name === "") throw importError(`${place}.name`, "missing");
    if (!Number.isInteger(guestCpus) || (guestCpus as number) <= 0) throw importError(`${place}.guestCpus`, "not a positive integer");
    if (!Number.isInteger(memoryMb) || (memoryMb as number) <= 0) throw importError(`${place}.memoryMb`, "not a positive integer");
    if (typeof zone !== "string") throw importError(`${place}.zone`, "missing");
    const region =
      zone
        .split("/")
        .pop()
        ?.replace(/-[a-z]$/, "") ?? "";
    if (SHARED_CORE.has(name)) {
      skipped.skip("shared-core type (priced by its own SKUs)");
      continue;
    }
    const family = name.split("-")[0];
    const gpus = Array.isArray(item.accelerators)
      ? item.accelerators.reduce((n: number, a: unknown) => n + (isObject(a) ? Number(a.guestAcceleratorCount) || 0 : 0), 0)
      : 0;
    for (const usage of ["on_demand", "spot"] as const) {
      const key = `${name}|${region}|${usage}`;
      // The list repeats each type per zone; one row per region.
      if (seen.has(key)) continue;
      seen.add(key);
      const rate = rates.get(`${family}|${region}|${usage}`);
      if (!rate?.core || !rate.ram) {
        skipped.skip(`${usage} type without a core and a RAM rate in its region`);
        continue;
      }
      const gb = new Decimal(memoryMb as number).div(1024);
      const price = rate.core.price.mul(guestCpus as number).plus(rate.ram.price.mul(gb));
      rows.push({
        place,
        provider: "gcp",
        region,
        instanceType: name,
        family,
        cpuCores: String(guestCpus),
        ramGb: stripZeros(gb.toDecimalPlaces(3).toFixed()),
        gpuCount: gpus,
        architecture: ARM_FAMILIES.has(family) ? "arm64" : "x86_64",
        operatingSystem: "linux",
        usageType: usage,
        pricePerHour: stripZeros(price.toDecimalPlaces(10).toFixed()),
        priceDate: [rate.core.date, rate.ram.date].sort()[1],
      });
    }
  }
  return finishImport(rows, "gcp-billing-catalog", skipped);
}

/** The first-tier unit price of the latest pricingInfo entry, exact from {units, nanos}. */
function priceOf(pricingInfo: unknown, place: string, unit: string): Rate {
  if (!Array.isArray(pricingInfo) || pricingInfo.length === 0) throw importError(`${place}.pricingInfo`, "missing");
  const info = pricingInfo[pricingInfo.length - 1];
  const at = `${place}.pricingInfo[${pricingInfo.length - 1}]`;
  if (!isObject(info) || !isObject(info.pricingExpression)) throw importError(`${at}.pricingExpression`, "missing");
  const date = typeof info.effectiveTime === "string" ? /^(\d{4}-\d{2}-\d{2})T/.exec(info.effectiveTime) : null;
  if (!date) throw importError(`${at}.effectiveTime`, "missing or not a date-time");
  const expression = info.pricingExpression;
  if (expression.usageUnit !== unit) throw importError(`${at}.pricingExpression.usageUnit`, `"${String(expression.usageUnit)}" is not ${unit}`);
  const tiers = expression.tieredRates;
  if (!Array.isArray(tiers) || tiers.length === 0) throw importError(`${at}.pricingExpression.tieredRates`, "missing");
  const first = tiers.find((t) => isObject(t) && (t.startUsageAmount ?? 0) === 0) as Json | undefined;
  const price = first?.unitPrice;
  const tierAt = `${at}.pricingExpression.tieredRates[${first ? tiers.indexOf(first) : 0}].unitPrice`;
  if (!isObject(price)) throw importError(tierAt, "missing");
  if (price.currencyCode !== undefined && price.currencyCode !== "USD")
    throw importError(`${tierAt}.currencyCode`, `"${String(price.currencyCode)}" is not USD`);
  const units = price.units ?? "0";
  const nanos = price.nanos ?? 0;
  if ((typeof units !== "string" && typeof units !== "number") || !/^\d+$/.test(String(units)))
    throw importError(`${tierAt}.units`, "not a non-negative integer");
  if (!Number.isInteger(nanos) || (nanos as number) < 0 || (nanos as number) >= 1e9) throw importError(`${tierAt}.nanos`, "not an integer in [0, 1e9)");
  return { price: new Decimal(String(units)).plus(new Decimal(nanos as number).div(1e9)), date: date[1] };
}
