export * from "./api-key";
export * from "./service-token";
