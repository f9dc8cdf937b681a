import { z } from "zod";

export type SuccessEnvelope<T extends z.ZodType> = z.ZodObject<{ message: z.ZodString; status: z.ZodLiteral<"success">; data: T }, z.core.$strip>;

export function SuccessEnvelope<T extends z.ZodType>(data: T): SuccessEnvelope<T> {
  return z.object({ message: z.string(), status: z.literal("success"), data });
}

export const ErrorEnvelope = z
  .strictObject({ message: z.string(), status: z.literal("error") })
  .meta({ id: "ErrorEnvelope", description: "Main-API error body: only `message` and `status`." });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
