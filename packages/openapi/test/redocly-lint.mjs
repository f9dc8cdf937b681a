// Lints the OpenAPI document read from stdin with Redocly's recommended ruleset (no network: no
// external references are resolved) and prints the problems as JSON. @redocly/openapi-core is
// ESM-only, so the Jest test runs this in a child process.
import { BaseResolver, createConfig, lintFromString } from "@redocly/openapi-core";

let source = "";
for await (const chunk of process.stdin) source += chunk;
const config = await createConfig({ extends: ["recommended"] });
const problems = await lintFromString({ source, absoluteRef: "/openapi.json", config, externalRefResolver: new BaseResolver() });
process.stdout.write(JSON.stringify(problems.map((p) => ({ rule: p.ruleId, severity: p.severity, message: p.message, where: p.location?.[0]?.pointer }))));
