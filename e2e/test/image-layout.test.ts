import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { layoutOf, parseDockerfile } from "../src/dockerfile";
import { startService, type Service } from "../src/services";

// Each service's built server, started from the files its Dockerfile's runtime stage copies, at the
// paths it copies them to: it must find its migrations (readiness compares them with the database),
// the pricing API its catalog seed, and both must answer their health probes.

const ROOT = path.resolve(__dirname, "../..");
const NAMES = ["main-api", "pricing-api"] as const;

/** Where an image's COPY source is on this machine, after `pnpm build`. */
function hostPath(service: string, src: string): string {
  // `pnpm deploy --filter=<app> --prod /out` writes the app's package.json and its node_modules.
  if (src.startsWith("/out/")) return path.join(ROOT, "apps", service, src.slice("/out/".length));
  if (src.startsWith("/repo/")) return path.join(ROOT, src.slice("/repo/".length));
  throw new Error(`no host path for the image's ${src}: teach image-layout.test.ts where it comes from`);
}

/** Lays the image's runtime files out under a temp directory; returns it and the CMD's entry file. */
function layOut(service: string): { root: string; entry: string } {
  const stages = parseDockerfile(fs.readFileSync(path.join(ROOT, `infra/docker/${service}.Dockerfile`), "utf8"));
  const { workdir, copies, cmd } = layoutOf(stages.at(-1)!);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-image-${service}-`));
  for (const copy of copies) {
    const from = hostPath(service, copy.src);
    const to = path.join(root, copy.dest);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    // node_modules holds workspace symlinks: link it rather than copy it.
    if (path.basename(from) === "node_modules") fs.symlinkSync(from, to, "dir");
    else fs.cpSync(from, to, { recursive: true });
  }
  const script = cmd?.at(-1);
  if (!script) throw new Error(`${service}.Dockerfile has no CMD`);
  return { root, entry: path.join(root, path.posix.resolve(workdir, script)) };
}

describe.each(NAMES)("%s started from its image's file layout", (service) => {
  let layout: { root: string; entry: string };
  let running: Service | undefined;

  beforeAll(async () => {
    layout = layOut(service);
    running = await startService(service, { SERVICE_TOKEN_SECRET: "e2e-image-layout-secret-0123456789abcdef" }, { entry: layout.entry });
  });
  afterAll(async () => {
    await running?.cleanup();
    if (layout) fs.rmSync(layout.root, { recursive: true, force: true });
  });

  it("runs the server copied into the layout, not the one in apps/", () => {
    expect(layout.entry.startsWith(layout.root)).toBe(true);
    expect(fs.existsSync(layout.entry)).toBe(true);
  });

  it("finds its migrations: /readyz answers 200 (it answers 503 when they are missing or not applied)", async () => {
    const res = await fetch(`${running!.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("answers /healthz with JSON that names the service", async () => {
    const res = await fetch(`${running!.url}/healthz`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain(`"${service}"`);
  });
});
