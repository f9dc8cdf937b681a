import { apiKeyDisplayPrefix, apiKeyFromHeaders, generateApiKey, hashApiKey, isWellFormedApiKey } from "../src/api-key";

describe("API key format", () => {
  it("generates unique, well-formed keys with at least 32 random characters", () => {
    const keys = new Set(Array.from({ length: 500 }, generateApiKey));
    expect(keys.size).toBe(500);
    for (const key of keys) {
      expect(key).toMatch(/^bl_[0-9A-Za-z]{42}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("rejects a key with a wrong checksum, a typo, a wrong prefix or a wrong length", () => {
    const key = generateApiKey();
    const last = key.at(-1) === "a" ? "b" : "a";
    expect(isWellFormedApiKey(key.slice(0, -1) + last)).toBe(false);
    const typo = key.slice(0, 10) + (key[10] === "x" ? "y" : "x") + key.slice(11);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(`sk_${key.slice(3)}`)).toBe(false);
    expect(isWellFormedApiKey(`${key}a`)).toBe(false);
    expect(isWellFormedApiKey("bl_")).toBe(false);
  });

  it("hashes to SHA-256 hex and shows a short prefix", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(3));
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 11));
  });

  it("reads the key from X-API-Key or a Bearer header", () => {
    expect(apiKeyFromHeaders({ "x-api-key": " bl_abc " })).toBe("bl_abc");
    expect(apiKeyFromHeaders({ authorization: "Bearer bl_abc" })).toBe("bl_abc");
    expect(apiKeyFromHeaders({ authorization: "bearer bl_abc" })).toBe("bl_abc");
    expect(apiKeyFromHeaders({ authorization: "Bearer eyJhbGciOi.jwt.x" })).toBeUndefined();
    expect(apiKeyFromHeaders({})).toBeUndefined();
  });
});

describe("derived keys", () => {
  const { deriveApiKey } = require("../src/api-key") as typeof import("../src/api-key");
  it("are well-formed, stable for one secret and label, and differ otherwise", () => {
    const secret = new TextEncoder().encode("s".repeat(40));
    const key = deriveApiKey(secret, "main-api");
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(deriveApiKey(secret, "main-api")).toBe(key);
    expect(deriveApiKey(secret, "other")).not.toBe(key);
    expect(deriveApiKey(new TextEncoder().encode("t".repeat(40)), "main-api")).not.toBe(key);
  });
});
