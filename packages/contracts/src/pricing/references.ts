// Kept for the main API's spend contracts (main/spend.ts), which import this from here until they
// move to their own folder; the schemas live in pricing/references/schemas.ts.
export { UsageLine } from "./references/schemas.js";
