// The main API's calls to the pricing API's /internal operations are the contract's routes
// (pricingInternalRoutes): the method and the path filled from each route's template, a service
// token signed for exactly that request, and the answer checked against the route's schema.
import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { fillPath } from "@cloudcost/client";
import { pricingInternalRoutes } from "@cloudcost/contracts";
import { verifyServiceToken } from "@cloudcost/credentials";
import { PROVISION_TOPIC, pricingApiKeyHandlers, REVOKE_TOPIC } from "../src/outbox/pricing-api-keys";
import { createInternalPricingApi, PricingUnavailableError } from "../src/pricing/internal-client";
import { TEST_SERVICE_TOKEN_SECRET } from "./helpers/context";

const secret = new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET);
const keyHash = "ab".repeat(32);
const storedKey = {
  id: "key_1",
  account_id: "org_1",
  name: null,
  prefix: "bl_abc",
  role: "viewer",
  suspended: false,
  created_at: "2026-11-01T00:00:00.000Z",
  revoked_at: null,
};

interface Seen {
  method: string;
  path: string;
  query: string;
  signed: boolean;
  body: unknown;
}

let server: http.Server;
let url: string;
const seen: Seen[] = [];
/** The answer to the next requests (status and JSON body). */
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const [path, query = ""] = (req.url ?? "").split("?");
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const signed = !!token && (await verifyServiceToken(secret, token, { method: req.method ?? "", path })) !== null;
    const text = Buffer.concat(chunks).toString();
    seen.push({ method: req.method ?? "", path, query, signed, body: text ? JSON.parse(text) : undefined });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

const client = () => createInternalPricingApi({ baseUrl: `${url}/`, serviceSecret: secret, logger: pino({ level: "silent" }), timeoutMs: 15_000, attempts: 2 });
const request = (route: { method: string; path: string }, params: Record<string, string>) => ({
  method: route.method.toUpperCase(),
  path: fillPath(route as (typeof pricingInternalRoutes)[keyof typeof pricingInternalRoutes], params),
  signed: true,
});

describe("the main API's internal pricing calls", () => {
  it("send each operation as its route declares it, signed for that method and path", async () => {
    const accountId = "org_a b";
    answer = { status: 200, body: { results: [] } };
    await client().priceComputeBatch(accountId, [{ provider: "aws" }]);
    answer = { status: 200, body: { instance_types: [] } };
    await client().instanceTypes(accountId, { provider: "aws", region: "us-east-1", architecture: "arm64" });
    answer = { status: 200, body: { data: [] } };
    await client()
      .commitmentRates(accountId)
      .catch(() => undefined);
    answer = { status: 200, body: storedKey };
    await pricingApiKeyHandlers(url, secret)[PROVISION_TOPIC](
      { key_hash: keyHash, id: "key_1", prefix: "bl_abc", name: null, role: "viewer", suspended: false },
      "org_1",
    );
    await pricingApiKeyHandlers(url, secret)[REVOKE_TOPIC]({ key_hash: keyHash, id: "key_1", prefix: "bl_abc", name: null }, "org_1");

    const routes = pricingInternalRoutes;
    expect(seen.map(({ method, path, signed }) => ({ method, path, signed }))).toEqual([
      request(routes.priceComputeBatchForAccount, { accountId }),
      request(routes.listInstanceTypesForAccount, { accountId }),
      request(routes.listCommitmentRatesForAccount, { accountId }),
      request(routes.provisionApiKey, { keyHash }),
      request(routes.revokeApiKeyByHash, { keyHash }),
    ]);
    expect(seen[0].path).toBe("/internal/accounts/org_a%20b/pricing/compute/batch");
    expect(seen[0].body).toEqual({ items: [{ provider: "aws" }] });
    expect(new URLSearchParams(seen[1].query).get("architecture")).toBe("arm64");
    expect(seen[3].body).toEqual({ account_id: "org_1", id: "key_1", prefix: "bl_abc", name: null, role: "viewer", suspended: false });
  });

  it("refuse an answer that breaks the route's response schema", async () => {
    answer = { status: 200, body: { instance_types: "not a list" } };
    await expect(client().instanceTypes("org_1", { provider: "aws", region: "us-east-1" })).rejects.toThrow(PricingUnavailableError);
    // A revocation confirmed by something that is not the revoked key is not a confirmation.
    answer = { status: 200, body: { ok: true } };
    await expect(pricingApiKeyHandlers(url, secret)[REVOKE_TOPIC]({ key_hash: keyHash, id: "key_1", prefix: "bl_abc", name: null }, "org_1")).rejects.toThrow(
      /schema/,
    );
  });

  it("take a revocation of a key the pricing API does not know as done, and fail on another refusal", async () => {
    answer = { status: 404, body: { error: { code: "not_found", message: "No API key has this hash" } } };
    await pricingApiKeyHandlers(url, secret)[REVOKE_TOPIC]({ key_hash: keyHash, id: "key_1", prefix: "bl_abc", name: null }, "org_1");
    answer = { status: 409, body: { error: { code: "conflict", message: "another account" } } };
    await expect(
      pricingApiKeyHandlers(url, secret)[PROVISION_TOPIC]({ key_hash: keyHash, id: "key_1", prefix: "bl_abc", name: null, role: "viewer" }, "org_1"),
    ).rejects.toThrow(/pricing API answered 409 to PUT/);
  });
});
