import { ConfigError } from "@cloudcost/http";
import { loadConfig } from "../src/config";

describe("main-api config", () => {
  it("has working defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.pricingApiUrl).toBe("http://127.0.0.1:3001");
    expect(config.databaseUrl).toBeUndefined();
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ MAIN_API_PORT: "seventy" })).toThrow(ConfigError);
    expect(() => loadConfig({ MAIN_API_PORT: "seventy" })).toThrow(/MAIN_API_PORT/);
    expect(() => loadConfig({ MAIN_API_DATABASE_URL: "mysql://x" })).toThrow(/MAIN_API_DATABASE_URL/);
  });

  describe("token issuer", () => {
    const provider = { AUTH_JWKS_URL: "https://idp.example.com/jwks.json", AUTH_ISSUER: "https://idp.example.com/", AUTH_AUDIENCE: "cloudcost" };

    it("runs the development issuer by default outside production only", () => {
      expect(loadConfig({}).auth.devIssuer).toBe(true);
      expect(loadConfig({ NODE_ENV: "development" }).auth.devIssuer).toBe(true);
      expect(loadConfig(provider).auth.devIssuer).toBe(false);
    });

    it("refuses to start in production without an identity provider, naming the variables", () => {
      expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/AUTH_JWKS_URL/);
      expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/MAIN_API_DEV_ISSUER=true/);
      expect(() => loadConfig({ NODE_ENV: "production", MAIN_API_DEV_ISSUER: "false" })).toThrow(ConfigError);
      expect(() => loadConfig({ NODE_ENV: "production", AUTH_JWKS_URL: provider.AUTH_JWKS_URL })).toThrow(/AUTH_ISSUER/);
    });

    it("in production uses the configured provider, and the development issuer only when enabled explicitly", () => {
      const withProvider = loadConfig({ NODE_ENV: "production", ...provider });
      expect(withProvider.auth.devIssuer).toBe(false);
      expect(withProvider.auth.provider).toEqual({ jwksUrl: provider.AUTH_JWKS_URL, issuer: provider.AUTH_ISSUER, audience: provider.AUTH_AUDIENCE });
      expect(withProvider.auth.devIssuerWarning).toBeUndefined();
      const explicit = loadConfig({ NODE_ENV: "production", MAIN_API_DEV_ISSUER: "true" });
      expect(explicit.auth.devIssuer).toBe(true);
      expect(explicit.auth.devIssuerWarning).toMatch(/development issuer/);
    });
  });
});
