// Shared Jest configuration: SWC compiles TypeScript (and the ESM-only jose and PGlite builds) to
// CommonJS; workspace packages resolve to their sources so tests never need a prior build.
const path = require("node:path");

module.exports = function preset({ rootDir, ...overrides }) {
  const root = __dirname;
  return {
    rootDir,
    testEnvironment: "node",
    testMatch: ["<rootDir>/test/**/*.test.ts"],
    transform: {
      "^.+\\.(t|j|mj|cj)sx?$": ["@swc/jest", { jsc: { target: "es2022", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }],
    },
    transformIgnorePatterns: [
      "/node_modules/(?!(\\.pnpm/(jose|@electric-sql\\+pglite|@seriousme\\+openapi-schema-validator|hyparquet|hyparquet-writer)@|jose/|@electric-sql/pglite/|@seriousme/|hyparquet/|hyparquet-writer/))",
    ],
    moduleFileExtensions: ["ts", "js", "mjs", "cjs", "json"],
    moduleNameMapper: {
      "^@cloudcost/contracts$": path.join(root, "packages/contracts/src/index.ts"),
      "^@cloudcost/client$": path.join(root, "packages/client/src/index.ts"),
      "^@cloudcost/db$": path.join(root, "packages/db/src/index.ts"),
      "^@cloudcost/db/testing$": path.join(root, "packages/db/src/testing/index.ts"),
      "^@cloudcost/credentials$": path.join(root, "packages/credentials/src/index.ts"),
      "^@cloudcost/openapi$": path.join(root, "packages/openapi/src/index.ts"),
      "^@cloudcost/testing$": path.join(root, "packages/testing/src/index.ts"),
      "^@cloudcost/http$": path.join(root, "packages/http/src/index.ts"),
      "^@cloudcost/decimal$": path.join(root, "packages/decimal/src/index.ts"),
      "^(\\.{1,2}/.*)\\.js$": "$1",
    },
    // Generous: the suites share two cores with each other (and, in CI, with the other packages'
    // suites); a beforeAll that starts a service and migrates its database took over 30 s there.
    testTimeout: 60000,
    // In CI a handle a failed test leaves open must not hold the run until the job's time limit
    // (it once did: a timed-out test's server kept its Jest worker, and turbo, alive for 90 minutes).
    // Locally Jest still waits and names the leak.
    forceExit: Boolean(process.env.CI),
    ...overrides,
  };
};
