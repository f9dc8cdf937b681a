// Kept for the contracts of domains not yet in their own folder (compute, spend), which
// import these two from here; each domain's schemas live in main/<domain>/schemas.ts.
export { Page } from "./fields.js";
export { OrganizationPathParams } from "./organizations/schemas.js";
