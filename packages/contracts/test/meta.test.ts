import { z } from "zod";
import * as contracts from "../src/index.js";

// Unnamed building blocks, deliberately without a component id.
const HELPERS = new Set([
  "queryBoolean",
  "queryDigits",
  "queryDecimal",
  "KeyText",
  "FreeObject",
  "TenantIdHeader",
  "TenantHeaders",
  "DateOrTimestamp",
  "AllocationAggregate",
]);
// Export names whose component id differs, so that zod-openapi's input/output variants never collide.
const RENAMED: Record<string, string> = { Timestamp: "TimestampInput", TimestampOutput: "Timestamp" };

const schemas: [string, z.ZodType][] = Object.entries(contracts as Record<string, unknown>).flatMap(([name, value]) =>
  value instanceof z.ZodType && !HELPERS.has(name) ? [[name, value] as [string, z.ZodType]] : [],
);

describe("OpenAPI metadata", () => {
  it("finds the exported schemas", () => {
    expect(schemas.length).toBeGreaterThan(80);
  });
  it.each(schemas)("%s has an id and a description", (name, schema) => {
    const meta = z.globalRegistry.get(schema);
    expect(meta?.id).toBe(RENAMED[name] ?? name);
    expect(meta?.description).toEqual(expect.any(String));
  });
  it("ids are unique", () => {
    const ids = schemas.map(([, schema]) => z.globalRegistry.get(schema)?.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it.each(schemas)("%s converts to JSON Schema for input and output", (_name, schema) => {
    expect(() => z.toJSONSchema(schema, { io: "input" })).not.toThrow();
    expect(() => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })).not.toThrow();
  });
});
