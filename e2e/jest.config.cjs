module.exports = require("../jest.preset.cjs")({
  rootDir: __dirname,
  testTimeout: 120000,
  globalSetup: "<rootDir>/src/global-setup.ts",
  globalTeardown: "<rootDir>/src/global-teardown.ts",
});
