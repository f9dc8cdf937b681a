// The CommonJS build lives in dist/cjs inside an ESM package: mark that folder as CommonJS.
import { writeFileSync } from "node:fs";
writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), '{ "type": "commonjs" }\n');
