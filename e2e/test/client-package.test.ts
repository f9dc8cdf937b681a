import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// @cloudcost/client as a customer gets it: `pnpm pack` of the built client and contracts, unpacked
// into a scratch project's node_modules beside zod (no registry involved), then used from plain
// Node in ESM and CommonJS (with a fetch of its own), and type-checked by tsc in both module systems.

const ROOT = path.resolve(__dirname, "../..");
const CLIENT = path.join(ROOT, "packages/client");
const CONTRACTS = path.join(ROOT, "packages/contracts");

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return String(result.stdout);
}

/** Packs `dir` into `scratch` and unpacks it as node_modules/`name`; returns its manifest. */
function install(scratch: string, dir: string, name: string): Record<string, any> {
  const before = new Set(fs.readdirSync(scratch));
  run("pnpm", ["pack", "--pack-destination", scratch], { cwd: dir });
  const tarball = fs.readdirSync(scratch).find((f) => f.endsWith(".tgz") && !before.has(f));
  if (!tarball) throw new Error(`pnpm pack of ${name} wrote no tarball`);
  const target = path.join(scratch, "node_modules", name);
  fs.mkdirSync(target, { recursive: true });
  run("tar", ["-xzf", path.join(scratch, tarball), "-C", target, "--strip-components=1"]);
  return JSON.parse(fs.readFileSync(path.join(target, "package.json"), "utf8"));
}

// One answer per path, as the services give them: the main API's health envelope, and a 401 with its code.
const CHECK = (load: string) => `${load}
const fetch = async (url) => {
  if (url === "https://costs.example.com/healthz")
    return new Response(JSON.stringify({ message: "OK", status: "success", data: { service: "main-api" } }), { status: 200, headers: { "content-type": "application/json" } });
  return new Response(JSON.stringify({ message: "Missing bearer token", status: "error" }), {
    status: 401,
    headers: { "content-type": "application/json", "x-error-code": "unauthenticated" },
  });
};
(async () => {
  const client = createClient({ mainUrl: "https://costs.example.com", token: "tok", fetch });
  const health = await client.main.mainHealthz();
  const error = await client.main.getBudget({ params: { id: "bud_1" }, tenant: "ten_1" }).catch((e) => e);
  console.log(JSON.stringify({ health, isApiError: isApiError(error, "unauthenticated"), status: error.status, message: error.message }));
})();
`;

describe("@cloudcost/client as a packed package", () => {
  let scratch: string;
  let manifest: Record<string, any>;

  beforeAll(() => {
    for (const dir of [CLIENT, CONTRACTS]) {
      if (!fs.existsSync(path.join(dir, "dist/index.js"))) throw new Error(`${path.relative(ROOT, dir)} is not built: run \`pnpm build\` first`);
    }
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "client-package-"));
    manifest = install(scratch, CLIENT, "@cloudcost/client");
    install(scratch, CONTRACTS, "@cloudcost/contracts");
    const zod = path.dirname(fs.realpathSync(require.resolve("zod/package.json", { paths: [CLIENT] })));
    fs.symlinkSync(zod, path.join(scratch, "node_modules/zod"), "dir");
    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "scratch-customer", private: true, type: "module" }));
  });
  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("depends on the contracts and zod at real versions, and ships ESM, CommonJS and declarations", () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@cloudcost/contracts", "zod"]);
    expect(JSON.stringify(manifest)).not.toMatch(/workspace:|catalog:/);
    const target = path.join(scratch, "node_modules/@cloudcost/client");
    for (const file of ["README.md", "dist/index.js", "dist/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/package.json"]) {
      expect([file, fs.existsSync(path.join(target, file))]).toEqual([file, true]);
    }
  });

  it("calls an API from ESM and from CommonJS: a parsed answer and a typed error", () => {
    fs.writeFileSync(path.join(scratch, "check.mjs"), CHECK(`import { createClient, isApiError } from "@cloudcost/client";`));
    fs.writeFileSync(path.join(scratch, "check.cjs"), CHECK(`const { createClient, isApiError } = require("@cloudcost/client");`));
    for (const script of ["check.mjs", "check.cjs"]) {
      const out = JSON.parse(run(process.execPath, [script], { cwd: scratch }));
      expect([script, out]).toEqual([script, { health: { service: "main-api" }, isApiError: true, status: 401, message: "Missing bearer token" }]);
    }
  });

  it("type-checks a customer's code in both module systems", () => {
    const code = `import { createClient, isApiError } from "@cloudcost/client";
const client = createClient({ mainUrl: "https://costs.example.com", token: "t", apiKey: "bl_k" });
export async function state(id: string, tenant: string): Promise<"ok" | "warning" | "exceeded" | undefined> {
  try {
    return (await client.main.getBudget({ params: { id }, tenant })).status.state;
  } catch (error) {
    if (isApiError(error, "not_found")) return undefined;
    throw error;
  }
}
export const models = () => client.pricing.listModels({ query: { include_closed: "true" } }).then((r) => r.entries.map((e) => e.id));
// @ts-expect-error the tenant of a tenant-scoped operation is required
export const missing = () => client.main.getBudget({ params: { id: "b" } });
`;
    fs.writeFileSync(path.join(scratch, "customer.mts"), code);
    fs.writeFileSync(path.join(scratch, "customer.cts"), code);
    fs.writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ["customer.mts", "customer.cts"],
      }),
    );
    run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: scratch });
  });
});
