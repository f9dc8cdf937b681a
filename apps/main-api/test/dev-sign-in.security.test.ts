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

test("a request that names another host (Host, X-Forwarded-Host or Forwarded host=) is refused (403): DNS rebinding", async () => {
  // A page on evil.example whose name now resolves to 127.0.0.1 reaches the API from loopback, but
  // its requests name evil.example.
  const refused = [
    ["Host", "evil.example"],
    ["Host", "evil.example:3000"],
    ["Host", "localhost.evil.example"],
    ["Host", "127.0.0.1.nip.io:3000"],
    ["Host", "10.0.0.5:3000"],
    ["X-Forwarded-Host", "evil.example:3002"],
    ["X-Forwarded-Host", "localhost:3002, evil.example:3002"],
    ["Forwarded", "host=evil.example"],
    ["Forwarded", 'for=127.0.0.1;host="evil.example:3002"'],
  ];
  const answers = [];
  for (const [name, value] of refused) {
    const res = await request(ctx.app).post(PATH).set(name, value).send({ email: "a@example.com" });
    answers.push([name, value, res.status, res.headers["x-error-code"], res.body.data]);
  }
  expect(answers).toEqual(refused.map(([name, value]) => [name, value, 403, "forbidden", undefined]));

  const allowed = [
    ["Host", "localhost"],
    ["Host", "localhost:3000"],
    ["Host", "127.0.0.1:3000"],
    ["Host", "127.0.0.2"],
    ["Host", "[::1]:3000"],
    ["X-Forwarded-Host", "localhost:3002"],
    ["Forwarded", 'for=127.0.0.1;host="127.0.0.1:3002"'],
  ];
  for (const [name, value] of allowed) {
    const res = await request(ctx.app).post(PATH).set(name, value).send({ email: "a@example.com" });
    expect([name, value, res.status]).toEqual([name, value, 200]);
  }
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
