export * from "./decimal.js";
export * from "./fixed-point.js";
