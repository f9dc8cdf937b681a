export * from "./fuzz";
export * from "./log-capture";
