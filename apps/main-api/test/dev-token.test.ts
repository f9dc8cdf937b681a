import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { compactVerify, decodeJwt } from "jose";
import { devSubjectFor, loadDevIssuerKey } from "../src/auth/dev-issuer";
import { parseDevTokenArgs } from "../src/cli/dev-token";

describe("dev-token arguments", () => {
  it("defaults to a verified token of 3600 s with a stable subject", () => {
    expect(parseDevTokenArgs(["--email", "a@example.com"])).toEqual({ email: "a@example.com", verified: true, subject: undefined, ttlSeconds: 3600 });
    expect(devSubjectFor("A@Example.com")).toBe(devSubjectFor("a@example.com"));
  });

  it("reads --unverified, --sub and negative --ttl in both spellings", () => {
    expect(parseDevTokenArgs(["--email", "a@example.com", "--unverified", "--sub", "s1", "--ttl", "-60"])).toMatchObject({
      verified: false,
      subject: "s1",
      ttlSeconds: -60,
    });
    expect(parseDevTokenArgs(["--email", "a@example.com", "--ttl=-60"]).ttlSeconds).toBe(-60);
    expect(parseDevTokenArgs(["--email", "a@example.com", "--ttl", "120"]).ttlSeconds).toBe(120);
  });

  it("rejects bad input with a usage line", () => {
    expect(() => parseDevTokenArgs([])).toThrow(/--email.*\n.*usage/);
    expect(() => parseDevTokenArgs(["--email", "nope"])).toThrow(/--email/);
    expect(() => parseDevTokenArgs(["--email", "a@example.com", "--ttl", "soon"])).toThrow(/--ttl/);
    expect(() => parseDevTokenArgs(["--email", "a@example.com", "--bogus"])).toThrow();
  });
});

// The command itself runs from the build (`pnpm test` builds first through turbo; a bare `jest`
// after a fresh checkout skips these two).
const cli = path.resolve(__dirname, "../dist/cli/dev-token.js");
const withBuild = fs.existsSync(cli) ? it : it.skip;

describe("dev-token command", () => {
  const run = (dir: string, args: string[]) => promisify(execFile)(process.execPath, [cli, ...args], { env: { ...process.env, MAIN_API_DEV_ISSUER_DIR: dir } });

  withBuild("concurrent first runs agree on one key, and every token verifies with it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-issuer-race-"));
    try {
      const outputs = await Promise.all(Array.from({ length: 5 }, (_, i) => run(dir, ["--email", `u${i}@example.com`])));
      expect(fs.readdirSync(dir)).toEqual(["signing-key.jwk.json"]);
      const key = loadDevIssuerKey(dir);
      for (const { stdout } of outputs) await expect(compactVerify(stdout.trim(), key.publicKey)).resolves.toBeTruthy();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  withBuild("prints verified 3600 s tokens, unverified ones and already expired ones", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-issuer-cli-"));
    try {
      const fresh = decodeJwt((await run(dir, ["--email", "x@example.com"])).stdout.trim());
      expect(fresh).toMatchObject({
        iss: "cloudcost-dev-issuer",
        aud: "cloudcost-main-api",
        email: "x@example.com",
        email_verified: true,
        sub: devSubjectFor("x@example.com"),
      });
      expect(fresh.exp! - fresh.iat!).toBe(3600);
      const expired = decodeJwt((await run(dir, ["--email", "x@example.com", "--ttl", "-60", "--unverified", "--sub", "s-1"])).stdout.trim());
      expect(expired).toMatchObject({ email_verified: false, sub: "s-1" });
      expect(expired.exp!).toBeLessThan(Date.now() / 1000);
      await expect(run(dir, ["--email", "nope"])).rejects.toMatchObject({ stderr: expect.stringMatching(/usage/) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
