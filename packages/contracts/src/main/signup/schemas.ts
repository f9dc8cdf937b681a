import { z } from "zod";
import { OptionalText200, Text200 } from "../fields.js";
import { Organization, Slug } from "../organizations/schemas.js";
import { Tenant } from "../tenants/schemas.js";
import { User } from "../users/schemas.js";

export const SignupCompleteRequest = z
  .object({
    company_name: Text200,
    first_name: Text200,
    last_name: Text200,
    job_title: OptionalText200.optional(),
    slug: Slug.optional(),
  })
  .meta({ id: "SignupCompleteRequest", description: "Completes signup for a verified identity." });
export type SignupCompleteRequest = z.output<typeof SignupCompleteRequest>;

export const SignupCompleteResponse = z
  .object({ default_tenant: Tenant, organization: Organization, owner: User })
  .meta({ id: "SignupCompleteResponse", description: "The created organization, default tenant and owner." });
export type SignupCompleteResponse = z.infer<typeof SignupCompleteResponse>;
