import { spawnSync } from "node:child_process";
import path from "node:path";
import { decide, describeWith, findChromium, findNginx, isCI } from "../src/requirements";

// The suites that need nginx or Chromium fail in CI when the tool is missing, and skip locally with
// one line saying what to install.

const MISSING = { NGINX_BIN: "/nonexistent/sbin/nginx", CHROMIUM_BIN: "/nonexistent/bin/chromium", PATH: "/nonexistent" };

describe("CI detection", () => {
  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["", false],
    ["0", false],
    ["false", false],
    ["FALSE", false],
    [undefined, false],
  ])("CI=%p is CI: %p", (value, expected) => {
    expect(isCI({ CI: value })).toBe(expected);
  });
});

describe("finding the tools", () => {
  it("takes NGINX_BIN and CHROMIUM_BIN as the only candidates when set", () => {
    expect(findNginx(MISSING)).toBeUndefined();
    expect(findChromium(MISSING)).toBeUndefined();
    expect(findNginx({ NGINX_BIN: process.execPath })).toBe(process.execPath);
    expect(findChromium({ CHROMIUM_BIN: process.execPath })).toBe(process.execPath);
  });
});

describe("a suite whose tools are missing", () => {
  it("runs when nothing is missing, in CI or not", () => {
    expect(decide("the gateway tests", [], { CI: "true" })).toEqual({ action: "run" });
    expect(decide("the gateway tests", [], {})).toEqual({ action: "run" });
  });

  it("fails in CI, naming the tool", () => {
    const decision = decide("the gateway tests", ["nginx"], { CI: "true" });
    expect(decision.action).toBe("fail");
    expect(decision).toMatchObject({ message: expect.stringContaining("nginx is not installed") });
  });

  it("is skipped locally with one line naming what is missing and how to install it", () => {
    const decision = decide("the docs browser test", ["chromium", "nginx"], { CI: "false" });
    expect(decision).toEqual({
      action: "skip",
      message: "Skipping the docs browser test: chromium and nginx are not installed (apt-get install chromium nginx).",
    });
  });

  it("describeWith throws in CI when a binary path is missing", () => {
    expect(() => describeWith("the gateway tests", ["nginx"], { ...MISSING, CI: "true" })).toThrow(
      "the gateway tests: nginx is not installed, and CI must run this suite (apt-get install nginx).",
    );
  });

  it("describeWith skips locally when a binary path is missing, writing one line", () => {
    const write = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(describeWith("the docs browser test", ["chromium"], { ...MISSING })).toBe(describe.skip);
      expect(write.mock.calls).toEqual([["Skipping the docs browser test: chromium is not installed (apt-get install chromium).\n"]]);
    } finally {
      write.mockRestore();
    }
  });

  it("describeWith runs the suite when the tools are there", () => {
    expect(describeWith("the gateway tests", ["nginx", "chromium"], { NGINX_BIN: process.execPath, CHROMIUM_BIN: process.execPath })).toBe(describe);
  });

  // The whole chain, as CI runs it: a suite file whose nginx is missing fails the Jest run.
  it("fails a Jest run of the gateway suite in CI when nginx is missing, and skips it locally", () => {
    const run = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--runInBand", "test/gateway.test.ts"], {
        cwd: path.resolve(__dirname, ".."),
        env: { ...process.env, ...env, NGINX_BIN: MISSING.NGINX_BIN },
        encoding: "utf8",
        timeout: 60_000,
      });
    const ci = run({ CI: "true" });
    expect(ci.status).not.toBe(0);
    expect(ci.stderr).toContain("the gateway tests: nginx is not installed, and CI must run this suite (apt-get install nginx).");
    const local = run({ CI: "" });
    expect(local.status).toBe(0);
    expect(local.stderr.split("\n").filter((line) => line.includes("nginx is not installed"))).toEqual([
      "Skipping the gateway tests: nginx is not installed (apt-get install nginx).",
    ]);
  });
});
