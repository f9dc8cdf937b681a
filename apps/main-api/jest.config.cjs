const os = require("node:os");

module.exports = require("../../jest.preset.cjs")({
  rootDir: __dirname,
  globalSetup: "<rootDir>/test/helpers/global-setup.ts",
  setupFilesAfterEnv: ["<rootDir>/test/helpers/validate-responses.ts"],
  // The longest package: two workers even on two cores, so that once the other packages' suites are
  // done its own keep both cores busy (Jest's default there, one, left one idle for minutes in CI).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
});
