import { z } from "zod";
import { ServiceId } from "../../common.js";
import { Text200 } from "../fields.js";

export const Slug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "must be [a-z0-9-] and must not start or end with '-'")
  .meta({ id: "Slug", description: "3-63 characters of [a-z0-9-], not starting or ending with '-'." });
export type Slug = z.infer<typeof Slug>;

export const Organization = z
  .object({ id: ServiceId, name: z.string(), slug: Slug })
  .meta({ id: "Organization", description: "An organization (the customer account)." });
export type Organization = z.infer<typeof Organization>;

export const OrganizationPathParams = z
  .object({ org_id: ServiceId })
  .meta({ id: "OrganizationPathParams", description: "Path parameters of /organizations/{org_id}/..." });
export type OrganizationPathParams = z.infer<typeof OrganizationPathParams>;

export const UpdateOrganizationRequest = z
  .object({ name: Text200.optional(), slug: Slug.optional() })
  .meta({ id: "UpdateOrganizationRequest", description: "Fields of the organization to change." });
export type UpdateOrganizationRequest = z.output<typeof UpdateOrganizationRequest>;
