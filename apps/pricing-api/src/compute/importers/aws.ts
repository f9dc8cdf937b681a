import { parse } from "csv-parse/sync";
import { finishImport, type ImportedCatalog, type ImportedRow, importError, parseJson, SkipCounter, stripZeros } from "./imported-catalog";

// AWS Price List offer file for Amazon EC2 (docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/
// reading-service-price-list-file-for-services.html): JSON with `products` (by SKU, with attributes)
// and `terms.OnDemand[sku][offerTermCode].priceDimensions`, or CSV with five metadata lines
// before the header, one line per SKU, term and rate.

/** One product with one price, as both variants of the file describe it. */
interface OfferLine {
  place: string;
  productFamily: string | undefined;
  termType: string;
  unit: string | undefined;
  usd: string | undefined;
  attr: (name: keyof typeof CSV_COLUMNS) => string | undefined;
}

// JSON attribute name -> CSV column name.
const CSV_COLUMNS = {
  instanceType: "Instance Type",
  regionCode: "Region Code",
  operatingSystem: "Operating System",
  tenancy: "Tenancy",
  preInstalledSw: "Pre Installed S/W",
  capacitystatus: "CapacityStatus",
  licenseModel: "License Model",
  marketoption: "MarketOption",
  vcpu: "vCPU",
  memory: "Memory",
  physicalProcessor: "Physical Processor",
  processorArchitecture: "Processor Architecture",
  gpu: "GPU",
} as const;

const OS: Record<string, "linux" | "windows"> = { Linux: "linux", Windows: "windows" };

function toRow(line: OfferLine, priceDate: string, skipped: SkipCounter): ImportedRow | null {
  const { place, attr } = line;
  if (line.productFamily !== "Compute Instance") return skip(skipped, "product family other than Compute Instance");
  if (line.termType !== "OnDemand") return skip(skipped, "term other than OnDemand (Reserved ...)");
  const os = OS[attr("operatingSystem") ?? ""];
  if (!os) return skip(skipped, "operating system other than Linux or Windows");
  if (attr("tenancy") !== "Shared") return skip(skipped, "tenancy other than Shared (Dedicated, Host ...)");
  if (attr("preInstalledSw") !== "NA") return skip(skipped, "pre-installed software");
  if (attr("capacitystatus") !== "Used") return skip(skipped, "capacity status other than Used");
  if (attr("licenseModel") === "Bring your own license") return skip(skipped, "bring your own license");
  const market = attr("marketoption");
  if (market !== undefined && market !== "" && market !== "OnDemand") return skip(skipped, "market option other than OnDemand");

  const required = (name: keyof typeof CSV_COLUMNS) => {
    const value = attr(name);
    if (value === undefined || value === "") throw importError(place, `${name} is missing`);
    return value;
  };
  const instanceType = required("instanceType");
  const region = required("regionCode");
  const vcpu = required("vcpu");
  const memory = /^([\d,]+(?:\.\d+)?) GiB$/.exec(required("memory"));
  if (!memory) throw importError(place, `memory "${attr("memory")}" is not "<number> GiB"`);
  if (line.unit !== "Hrs") throw importError(place, `price unit "${line.unit}" is not Hrs`);
  if (line.usd === undefined) throw importError(place, "pricePerUnit.USD is missing");
  const gpu = attr("gpu");
  const processor = `${attr("physicalProcessor") ?? ""} ${attr("processorArchitecture") ?? ""}`;
  return {
    place,
    provider: "aws",
    region,
    instanceType,
    family: instanceType.split(".")[0],
    cpuCores: vcpu,
    ramGb: stripZeros(memory[1].replaceAll(",", "")),
    gpuCount: gpu && /^\d+$/.test(gpu) ? Number(gpu) : 0,
    architecture: /graviton|arm/i.test(processor) ? "arm64" : "x86_64",
    operatingSystem: os,
    usageType: "on_demand",
    pricePerHour: stripZeros(line.usd),
    priceDate,
  };
}

function skip(skipped: SkipCounter, reason: string): null {
  skipped.skip(reason);
  return null;
}

function publicationDate(value: unknown, place: string): string {
  const date = typeof value === "string" ? /^(\d{4}-\d{2}-\d{2})/.exec(value) : null;
  if (!date) throw importError(place, `publicationDate "${String(value)}" is not a date`);
  return date[1];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseAwsOfferJson(text: string): ImportedCatalog {
  const offer = parseJson(text, "offer file");
  if (!isObject(offer)) throw importError("offer file", "not a JSON object");
  if (offer.offerCode !== "AmazonEC2") throw importError("offerCode", `"${String(offer.offerCode)}" is not AmazonEC2`);
  const priceDate = publicationDate(offer.publicationDate, "publicationDate");
  if (!isObject(offer.products)) throw importError("products", "missing");
  if (!isObject(offer.terms)) throw importError("terms", "missing");
  const onDemand = offer.terms.OnDemand;
  if (!isObject(onDemand)) throw importError("terms.OnDemand", "missing");
  const skipped = new SkipCounter();
  const rows: ImportedRow[] = [];
  for (const [sku, product] of Object.entries(offer.products)) {
    const place = `products["${sku}"]`;
    if (!isObject(product)) throw importError(place, "not an object");
    const attributes = product.attributes;
    if (!isObject(attributes)) throw importError(`${place}.attributes`, "missing");
    const terms = onDemand[sku];
    // A product without an on-demand term is only sold under other terms (Reserved ...).
    if (terms === undefined) {
      skipped.skip("no OnDemand term");
      continue;
    }
    if (!isObject(terms)) throw importError(`terms.OnDemand["${sku}"]`, "not an object");
    for (const [code, term] of Object.entries(terms)) {
      const termPlace = `terms.OnDemand["${sku}"]["${code}"]`;
      const dimensions = isObject(term) ? term.priceDimensions : undefined;
      if (!isObject(dimensions)) throw importError(`${termPlace}.priceDimensions`, "missing");
      for (const [rate, dimension] of Object.entries(dimensions)) {
        const dimPlace = `${termPlace}.priceDimensions["${rate}"]`;
        if (!isObject(dimension)) throw importError(dimPlace, "not an object");
        const price = isObject(dimension.pricePerUnit) ? dimension.pricePerUnit.USD : undefined;
        const row = toRow(
          {
            place: dimPlace,
            productFamily: typeof product.productFamily === "string" ? product.productFamily : undefined,
            termType: "OnDemand",
            unit: typeof dimension.unit === "string" ? dimension.unit : undefined,
            usd: typeof price === "string" ? price : undefined,
            attr: (name) => (typeof attributes[name] === "string" ? (attributes[name] as string) : undefined),
          },
          priceDate,
          skipped,
        );
        if (row) rows.push(row);
      }
    }
  }
  // Reserved terms are counted as skipped too, so the summary says what the file held.
  const reserved = offer.terms.Reserved;
  if (isObject(reserved)) skipped.skip("term other than OnDemand (Reserved ...)", Object.keys(reserved).length);
  return finishImport(rows, `aws-price-list:${priceDate}`, skipped);
}

export function parseAwsOfferCsv(text: string): ImportedCatalog {
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true });
  } catch (err) {
    throw importError("offer file", `not valid CSV (${(err as Error).message})`);
  }
  const meta = new Map(records.slice(0, 5).map((r) => [r[0], r[1]]));
  if (meta.get("OfferCode") !== "AmazonEC2") throw importError("line 5", `OfferCode "${String(meta.get("OfferCode"))}" is not AmazonEC2`);
  const priceDate = publicationDate(meta.get("Publication Date"), "Publication Date (metadata line 3)");
  const header = records[5];
  if (!header) throw importError("line 6", "the header is missing");
  const index = new Map(header.map((name, i) => [name, i]));
  for (const column of ["TermType", "PricePerUnit", "Unit", "Currency", "Product Family", ...Object.values(CSV_COLUMNS).filter((c) => c !== "MarketOption")]) {
    if (!index.has(column)) throw importError("line 6", `the header has no column "${column}"`);
  }
  const skipped = new SkipCounter();
  const rows: ImportedRow[] = [];
  records.slice(6).forEach((fields, i) => {
    const line = i + 7;
    const get = (column: string) => {
      const at = index.get(column);
      return at === undefined ? undefined : fields[at];
    };
    if (fields.length !== header.length) throw importError(`line ${line}`, `expected ${header.length} fields, found ${fields.length}`);
    const currency = get("Currency");
    const row = toRow(
      {
        place: `line ${line}`,
        productFamily: get("Product Family"),
        termType: get("TermType") ?? "",
        unit: get("Unit"),
        usd: currency === "USD" ? get("PricePerUnit") : undefined,
        attr: (name) => get(CSV_COLUMNS[name]),
      },
      priceDate,
      skipped,
    );
    if (row) rows.push(row);
  });
  return finishImport(rows, `aws-price-list:${priceDate}`, skipped);
}
