import fs from "node:fs";
import { AWS_SPECS_FILE, parseAwsInstanceSpecs, type AttributeInput, type AwsInstanceSpec, type CatalogAttributes } from "./attributes";
import { awsAttributes } from "./attributes-aws";
import { azureAttributes } from "./attributes-azure";
import { gcpAttributes } from "./attributes-gcp";

const UNKNOWN: CatalogAttributes = { currentGeneration: null, accelerator: null, burstBaselinePercent: null, localStorageGb: null, capabilities: [] };

export type AttributeRules = (row: AttributeInput) => CatalogAttributes;

/** The per-provider rules over the committed AWS spec table; a provider without rules gets nulls. */
export function attributeRules(awsSpecs: Map<string, AwsInstanceSpec>): AttributeRules {
  return (row) => {
    if (row.provider === "aws") return awsAttributes(row, awsSpecs.get(row.instanceType));
    if (row.provider === "azure") return azureAttributes(row);
    if (row.provider === "gcp") return gcpAttributes(row);
    return UNKNOWN;
  };
}

let committed: AttributeRules | undefined;

/** The rules over prisma/seed/aws-instance-specs.csv, read once (a static data file shipped with the app). */
export function committedAttributeRules(): AttributeRules {
  committed ??= attributeRules(parseAwsInstanceSpecs(fs.readFileSync(AWS_SPECS_FILE, "utf8")));
  return committed;
}
