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
});
