// Kept for the main API's commitment contracts (main/commitments.ts), which import these from here
// until they move to their own folder; the schemas live in pricing/commitment-rates/schemas.ts.
export { CommitmentTerm, CommitmentType, PaymentOption } from "./commitment-rates/schemas.js";
