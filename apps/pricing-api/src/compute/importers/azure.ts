import type { CatalogRow } from "../catalog-file";
import { finishImport, type ImportedCatalog, type ImportedRow, importError, parseJson, SkipCounter, stripZeros } from "./imported-catalog";

// Azure Retail Prices API result pages (learn.microsoft.com/rest/api/cost-management/retail-prices/
// azure-retail-prices): `{BillingCurrency, CustomerEntityId, Items: [...], NextPageLink, Count}`, one
// item per meter. The API carries no vCPU or memory figures: sizes come from the catalog's existing
// rows of the same Azure type (any region); a type the catalog does not know yet is skipped and counted.

/** vCPU, memory, GPU count, architecture and family of an Azure type, as the catalog already holds them. */
export type KnownSize = Pick<CatalogRow, "cpuCores" | "ramGb" | "gpuCount" | "architecture" | "family">;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseAzureRetailPages(pages: { name: string; text: string }[], knownSizes: Map<string, KnownSize>): ImportedCatalog {
  const skipped = new SkipCounter();
  const unknownTypes = new Set<string>();
  const rows: ImportedRow[] = [];
  for (const page of pages) {
    const body = parseJson(page.text, page.name);
    if (!isObject(body) || !Array.isArray(body.Items)) throw importError(page.name, "Items is missing (not a Retail Prices API page)");
    for (const [i, item] of (body.Items as unknown[]).entries()) {
      const place = `${page.name} Items[${i}]`;
      if (!isObject(item)) throw importError(place, "not an object");
      const text = (field: string, required = true): string => {
        const value = item[field];
        if (typeof value === "string" && (value !== "" || !required)) return value;
        if (!required && value === undefined) return "";
        throw importError(`${place}.${field}`, "missing or not a string");
      };
      if (text("serviceName") !== "Virtual Machines") {
        skipped.skip("service other than Virtual Machines");
        continue;
      }
      const type = text("type");
      if (type !== "Consumption") {
        skipped.skip(type === "DevTestConsumption" ? "DevTest" : "type other than Consumption (Reservation ...)");
        continue;
      }
      const meterName = text("meterName");
      const skuName = text("skuName", false);
      if (/Low Priority/i.test(meterName) || /Low Priority/i.test(skuName)) {
        skipped.skip("Low Priority");
        continue;
      }
      if (item.isPrimaryMeterRegion === false) {
        skipped.skip("not the primary meter region");
        continue;
      }
      const armSkuName = text("armSkuName", false);
      if (armSkuName === "") {
        skipped.skip("no armSkuName");
        continue;
      }
      if (text("currencyCode") !== "USD") throw importError(`${place}.currencyCode`, `"${item.currencyCode}" is not USD`);
      if (text("unitOfMeasure") !== "1 Hour") throw importError(`${place}.unitOfMeasure`, `"${item.unitOfMeasure}" is not 1 Hour`);
      const price = item.retailPrice;
      if (typeof price !== "number" || !Number.isFinite(price) || price < 0) throw importError(`${place}.retailPrice`, "not a non-negative number");
      const date = /^(\d{4}-\d{2}-\d{2})T/.exec(text("effectiveStartDate"));
      if (!date) throw importError(`${place}.effectiveStartDate`, `"${item.effectiveStartDate}" is not a date-time`);
      const region = text("armRegionName");
      const size = knownSizes.get(armSkuName);
      if (!size) {
        unknownTypes.add(armSkuName);
        skipped.skip("type without known sizes");
        continue;
      }
      rows.push({
        place,
        provider: "azure",
        region,
        instanceType: armSkuName,
        family: size.family,
        cpuCores: size.cpuCores,
        ramGb: size.ramGb,
        gpuCount: size.gpuCount,
        architecture: size.architecture,
        operatingSystem: /Windows/.test(text("productName")) ? "windows" : "linux",
        usageType: /Spot/.test(meterName) ? "spot" : "on_demand",
        // retailPrice is a JSON number; its shortest decimal text is the published figure.
        pricePerHour: stripZeros(decimalText(price)),
        priceDate: date[1],
      });
    }
  }
  const warnings =
    unknownTypes.size > 0 ? [`${unknownTypes.size} Azure type(s) skipped, the catalog has no sizes for them: ${[...unknownTypes].sort().join(", ")}`] : [];
  return finishImport(rows, "azure-retail-prices", skipped, warnings);
}

/** A JSON number as plain decimal text (no exponent), at most 10 decimals as the catalog stores. */
function decimalText(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(10) : text;
}

/** Sizes of the Azure types the catalog holds, by type name. */
export function azureSizes(rows: CatalogRow[]): Map<string, KnownSize> {
  const sizes = new Map<string, KnownSize>();
  for (const r of rows) {
    if (r.provider === "azure" && !sizes.has(r.instanceType)) {
      sizes.set(r.instanceType, { cpuCores: r.cpuCores, ramGb: r.ramGb, gpuCount: r.gpuCount, architecture: r.architecture, family: r.family });
    }
  }
  return sizes;
}
