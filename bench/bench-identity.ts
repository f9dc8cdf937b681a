import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { loadDevIssuerKey, mintDevToken } from "../apps/main-api/src/auth/dev-issuer";
import type { Config } from "../apps/main-api/src/config";

let n = 0;

/** A signed-up organization (development issuer, through the real sign-up endpoint) and the headers of its owner. */
export async function benchCredentials(ctx: { app: Express; config: Config }) {
  n++;
  const email = `bench-${n}-${Date.now()}@bench.test`;
  const token = await mintDevToken(loadDevIssuerKey(ctx.config.auth.devIssuerDir), { email });
  const server = ctx.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/signup/complete`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ company_name: `Bench ${n}`, first_name: "Ada", last_name: "Lovelace" }),
    });
    const body = (await res.json()) as { data: { organization: { id: string }; default_tenant: { id: string } } };
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(body)}`);
    return { headers: { authorization: `Bearer ${token}` }, tenantId: body.data.default_tenant.id, organizationId: body.data.organization.id };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
