import { bindRoutes } from "@cloudcost/client";
import { defineRoute, SuccessEnvelope } from "@cloudcost/contracts";
import { z } from "zod";

/**
 * The development sign-in (`POST /api/v1/dev/token`, only while the main API's development issuer
 * is on): not part of the public route tables, so declared here and sent through the same client.
 */
const devTokenRoutes = {
  mintDevToken: defineRoute({
    operationId: "mintDevToken",
    method: "post",
    path: "/api/v1/dev/token",
    summary: "A development token for any e-mail address (loopback clients only)",
    tags: ["Development"],
    errors: "envelope",
    auth: "none",
    scope: "none",
    body: z.object({ email: z.string() }),
    responses: { 200: { description: "The token", schema: SuccessEnvelope(z.object({ token: z.string(), expires_at: z.string() })) } },
  }),
};

export function devTokenClient(mainApiBase: string) {
  return bindRoutes(devTokenRoutes, { baseUrl: mainApiBase.replace(/\/api\/?$/, "") });
}
