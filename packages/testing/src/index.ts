export * from "./fuzz";
export * from "./log-capture";
export * from "./openapi-coverage";
export * from "./route-targets";
export * from "./response-validator";
export * from "./fuzz-extremes";
export * from "./eventually";
