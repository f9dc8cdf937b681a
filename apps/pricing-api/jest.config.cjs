module.exports = require("../../jest.preset.cjs")({
  rootDir: __dirname,
  globalSetup: "<rootDir>/test/helpers/global-setup.ts",
  setupFilesAfterEnv: ["<rootDir>/test/helpers/validate-responses.ts"],
});
