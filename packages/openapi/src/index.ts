export { apiDocsRouter } from "./docs-router";
export { pricingApiDocument, pricingApiPaths } from "./pricing-api";
export type { OpenApiDocument } from "./operation";
export { mainApiDocument, mainApiPaths } from "./main-api";
