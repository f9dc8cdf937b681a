export * from "./fixed-point.js";
