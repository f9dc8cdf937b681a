module.exports = require("../../jest.preset.cjs")({ rootDir: __dirname, testTimeout: 120000 });
