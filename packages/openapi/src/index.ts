export { apiDocsRouter } from "./docs-router";
export { pricingApiDocument, pricingApiPaths } from "./pricing-api";
export { operation, type OpenApiDocument, type OperationSpec } from "./operation";
export { mainApiDocument, mainApiPaths } from "./main-api";
