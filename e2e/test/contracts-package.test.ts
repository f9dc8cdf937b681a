import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// @cloudcost/contracts as an outside client gets it: `pnpm pack` of the built package, unpacked
// into a scratch project's node_modules beside zod (no registry involved), then imported from
// plain Node in ESM and CommonJS, and type-checked by tsc in both module systems.

const ROOT = path.resolve(__dirname, "../..");
const CONTRACTS = path.join(ROOT, "packages/contracts");

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return String(result.stdout);
}

const VALID_SUMMARY = {
  total_resources: 2,
  analyzed_resources: 2,
  analysis_coverage: 1,
  action_counts: { downsize: 1, upsize: 0, terminate: 0, noop: 1, no_recommendation: 0, pending: 0 },
  actionable_count: 1,
  potential_savings_monthly_usd: 154.76,
  potential_savings_annual_usd: 1857.12,
  top_savers: [
    {
      resource_id: "vm-1",
      name: "api server",
      resource_type: "virtual_machine",
      current_instance_type: "m5.2xlarge",
      recommended_instance_type: "m5a.xlarge",
      savings_monthly_usd: 154.76,
    },
  ],
};
const INVALID_SUMMARY = { ...VALID_SUMMARY, analysis_coverage: 1.5, action_counts: { downsize: 1 } };

const CHECK = (load: string) => `${load}
const valid = ${JSON.stringify(VALID_SUMMARY)};
const invalid = ${JSON.stringify(INVALID_SUMMARY)};
const ok = RecommendationSummary.safeParse(valid);
const bad = RecommendationSummary.safeParse(invalid);
console.log(JSON.stringify({ ok: ok.success, bad: bad.success, paths: bad.success ? [] : bad.error.issues.map((i) => i.path.join(".")) }));
`;

describe("@cloudcost/contracts as a packed package", () => {
  let scratch: string;
  let manifest: Record<string, unknown> & { dependencies?: Record<string, string>; exports: Record<string, unknown> };

  beforeAll(() => {
    if (!fs.existsSync(path.join(CONTRACTS, "dist/index.js"))) throw new Error("packages/contracts is not built: run `pnpm build` first");
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "contracts-client-"));
    run("pnpm", ["pack", "--pack-destination", scratch], { cwd: CONTRACTS });
    const tarball = fs.readdirSync(scratch).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("pnpm pack wrote no tarball");
    const target = path.join(scratch, "node_modules/@cloudcost/contracts");
    fs.mkdirSync(target, { recursive: true });
    run("tar", ["-xzf", path.join(scratch, tarball), "-C", target, "--strip-components=1"]);
    // zod as the workspace resolved it (the version the package declares).
    const zod = path.dirname(fs.realpathSync(require.resolve("zod/package.json", { paths: [CONTRACTS] })));
    fs.symlinkSync(zod, path.join(scratch, "node_modules/zod"), "dir");
    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch-client", private: true, type: "module" }));
    manifest = JSON.parse(fs.readFileSync(path.join(target, "package.json"), "utf8"));
  });
  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("depends on nothing at run time but zod, pinned to a real version, and ships dist with declarations", () => {
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["zod"]);
    const zodVersion = JSON.parse(fs.readFileSync(path.join(scratch, "node_modules/zod/package.json"), "utf8")).version;
    expect(manifest.dependencies!.zod).toBe(zodVersion); // `catalog:` was replaced by the version
    expect(JSON.stringify(manifest)).not.toMatch(/workspace:|catalog:/);
    const target = path.join(scratch, "node_modules/@cloudcost/contracts");
    for (const file of ["dist/index.js", "dist/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/package.json"]) {
      expect([file, fs.existsSync(path.join(target, file))]).toEqual([file, true]);
    }
    const files = run("tar", ["-tzf", path.join(scratch, fs.readdirSync(scratch).find((f) => f.endsWith(".tgz"))!)]).split("\n");
    expect(files.filter((f) => /\/test\/|\.test\.|tsbuildinfo|node_modules/.test(f))).toEqual([]);
  });

  it("imports from ESM and requires from CommonJS, parsing a valid summary and rejecting an invalid one", () => {
    fs.writeFileSync(path.join(scratch, "check.mjs"), CHECK(`import { RecommendationSummary } from "@cloudcost/contracts";`));
    fs.writeFileSync(path.join(scratch, "check.cjs"), CHECK(`const { RecommendationSummary } = require("@cloudcost/contracts");`));
    for (const script of ["check.mjs", "check.cjs"]) {
      const out = JSON.parse(run(process.execPath, [script], { cwd: scratch }));
      expect([script, out]).toEqual([script, { ok: true, bad: false, paths: expect.arrayContaining(["analysis_coverage", "action_counts.upsize"]) }]);
    }
  });

  it("type-checks a client in both module systems", () => {
    const client = `import { RecommendationSummary } from "@cloudcost/contracts";
export function savings(body: unknown): number {
  const summary: RecommendationSummary = RecommendationSummary.parse(body);
  return summary.potential_savings_annual_usd;
}
// @ts-expect-error: the inferred type knows its fields
export const wrong: RecommendationSummary["no_such_field"] = 1;
`;
    fs.writeFileSync(path.join(scratch, "client.mts"), client);
    fs.writeFileSync(path.join(scratch, "client.cts"), client);
    fs.writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ["client.mts", "client.cts"],
      }),
    );
    run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: scratch });
  });
});
