// The console's development sign-in: a token for an e-mail address, minted only while the
// development issuer is enabled and only for clients on this machine.
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";

const PATH = "/api/v1/dev/token";
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

test("a loopback client gets a verified token that the API accepts", async () => {
  const res = await request(ctx.app).post(PATH).send({ email: "console@example.com" }).expect(200);
  expect(res.body).toMatchObject({ status: "success", data: { token: expect.any(String), expires_at: expect.any(String) } });
  // A fresh identity: authenticated, not yet in an organization (the console shows the sign-up form).
  const me = await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${res.body.data.token}`);
  expect(me.status).toBe(403);
  const invitations = await request(ctx.app).get("/api/v1/invitations").set("Authorization", `Bearer ${res.body.data.token}`);
  expect(invitations.status).toBe(200);
});

test("a bad e-mail address is a 400 naming the field", async () => {
  const res = await request(ctx.app).post(PATH).send({ email: "nope" }).expect(400);
  expect(res.body.status).toBe("error");
  expect(res.body.message).toMatch(/email/);
});

test("a request forwarded for a client elsewhere is refused (403)", async () => {
  for (const header of [
    ["X-Forwarded-For", "203.0.113.9"],
    ["X-Forwarded-For", "127.0.0.1, 203.0.113.9"],
    ["X-Real-IP", "203.0.113.9"],
    ["Forwarded", "for=203.0.113.9"],
  ]) {
    const res = await request(ctx.app).post(PATH).set(header[0], header[1]).send({ email: "a@example.com" });
    expect([header, res.status, res.headers["x-error-code"]]).toEqual([header, 403, "forbidden"]);
    expect(res.body.data).toBeUndefined();
  }
  await request(ctx.app).post(PATH).set("X-Forwarded-For", "127.0.0.1").send({ email: "a@example.com" }).expect(200);
});

const external = Object.values(os.networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === "IPv4");

(external ? test : test.skip)("a client connecting from a non-loopback address is refused (403)", async () => {
  const server = http.createServer(ctx.app).listen(0, "0.0.0.0");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://${external?.address}:${port}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com" }),
    });
    expect(res.status).toBe(403);
    const loopback = await fetch(`http://127.0.0.1:${port}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com" }),
    });
    expect(loopback.status).toBe(200);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("without the development issuer the endpoint does not exist (404)", async () => {
  const prod = await createTestContext({
    AUTH_JWKS_URL: "http://127.0.0.1:1/jwks.json",
    AUTH_ISSUER: "https://idp.example",
    AUTH_AUDIENCE: "cloudcost",
  });
  try {
    expect(prod.config.auth.devIssuer).toBe(false);
    const res = await request(prod.app).post(PATH).send({ email: "a@example.com" });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('token":');
  } finally {
    await prod.close();
  }
});
