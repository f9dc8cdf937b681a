import { z } from "zod";
import { ServiceId } from "../../common.js";
import { Organization } from "../organizations/schemas.js";
import { Role, User } from "../users/schemas.js";

export const LeaveResponse = z
  .object({ organization_id: ServiceId, user_id: ServiceId })
  .meta({ id: "LeaveResponse", description: "The organization the caller left and its (now deactivated) user." });
export type LeaveResponse = z.infer<typeof LeaveResponse>;

export const Me = z
  .object({
    organization: Organization,
    user: User.nullable(),
    role: Role,
    tenant_ids: z.array(ServiceId),
    api_key_id: ServiceId.nullable(),
  })
  .meta({ id: "Me", description: "The caller: its organization, its user (null for an API key), role and tenants." });
export type Me = z.infer<typeof Me>;
