import fs from "node:fs";
import path from "node:path";
import { parse, parseAllDocuments } from "yaml";
import { dockerEnv, layoutOf, parseDockerfile } from "../src/dockerfile";
import { EnvSchema as MainEnvSchema, loadConfig as loadMainConfig } from "../../apps/main-api/src/config";
import { EnvSchema as PricingEnvSchema } from "../../apps/pricing-api/src/config";

// Static checks of the deployment files (Dockerfiles, compose, Kubernetes) against the services'
// own configuration: environment variable names come from each service's EnvSchema at test time,
// so a variable added or renamed there is checked here without editing this file.

const ROOT = path.resolve(__dirname, "../..");
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), "utf8");

type Shape = Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown } }>;
const SERVICES = {
  "main-api": { shape: MainEnvSchema.shape as unknown as Shape, prefix: "MAIN_API" },
  "pricing-api": { shape: PricingEnvSchema.shape as unknown as Shape, prefix: "PRICING_API" },
} as const;
type ServiceName = keyof typeof SERVICES;
const NAMES = Object.keys(SERVICES) as ServiceName[];

/** Variables every Node image may carry that the services do not read through their schema. */
const RUNTIME_ONLY = new Set(["NODE_ENV", "LD_PRELOAD"]);
/** Schema keys whose values are credentials: in Kubernetes they must come from a Secret. */
const isSecretKey = (key: string) => /(_DATABASE_URL|SECRET|_KEY)$/.test(key);

function envKeys(service: ServiceName): string[] {
  return Object.keys(SERVICES[service].shape);
}
/** The port the service listens on without configuration (the schema's default). */
function configuredPort(service: ServiceName): number {
  const parsed = SERVICES[service].shape[`${SERVICES[service].prefix}_PORT`].safeParse(undefined);
  expect(parsed.success).toBe(true);
  return parsed.data as number;
}
/** Keys the service cannot start without (no default, not optional). */
function requiredKeys(service: ServiceName): string[] {
  return envKeys(service).filter((k) => !SERVICES[service].shape[k].safeParse(undefined).success);
}
function unknownKeys(service: ServiceName, keys: string[]): string[] {
  const known = new Set(envKeys(service));
  return keys.filter((k) => !known.has(k) && !RUNTIME_ONLY.has(k));
}
/** A literal value must be valid for the schema; compose interpolations are checked elsewhere. */
function invalidValues(service: ServiceName, env: Record<string, unknown>): string[] {
  const shape = SERVICES[service].shape;
  return Object.entries(env)
    .filter(([k, v]) => shape[k] && typeof v === "string" && !v.includes("${") && !shape[k].safeParse(v).success)
    .map(([k, v]) => `${k}=${String(v)}`);
}

// ---- Dockerfiles ----

const dockerfilePath = (service: ServiceName) => `infra/docker/${service}.Dockerfile`;
const dockerfile = (service: ServiceName) => parseDockerfile(read(dockerfilePath(service)));

describe.each(NAMES)("%s Dockerfile", (service) => {
  const stages = dockerfile(service);
  const runtime = stages.at(-1)!;
  const all = (op: string) => runtime.instructions.filter((i) => i.op === op);
  const { workdir, copies } = layoutOf(runtime);

  it("builds a pruned workspace on Node 20 slim and deploys production dependencies only", () => {
    expect(stages.every((s) => s.from === "node:20-bookworm-slim")).toBe(true);
    const run = stages.flatMap((s) => s.instructions.filter((i) => i.op === "RUN").map((i) => i.args)).join("\n");
    expect(run).toContain(`turbo prune @cloudcost/${service} --docker`);
    expect(run).toContain("pnpm install --frozen-lockfile");
    expect(run).toMatch(new RegExp(`turbo run build --filter=@cloudcost/${service}(\\s|$)`));
    expect(run).toMatch(new RegExp(`pnpm deploy --filter=@cloudcost/${service} --prod`));
    expect(run).toContain("pnpm@10.34.9");
    for (const s of stages.filter((x) => x.name !== runtime.name && x.instructions.some((i) => i.op === "RUN"))) {
      const env = { ...dockerEnv(stages[0]), ...dockerEnv(s) };
      expect({ stage: s.name, TURBO_TELEMETRY_DISABLED: env.TURBO_TELEMETRY_DISABLED, CHECKPOINT_DISABLE: env.CHECKPOINT_DISABLE }).toEqual({
        stage: s.name,
        TURBO_TELEMETRY_DISABLED: "1",
        CHECKPOINT_DISABLE: "1",
      });
    }
  });

  it("runs dist/server.js with the service's Node.js flags, as a non-root user, with the migrations next to dist/", () => {
    // infra/node-flags.json: also read by `pnpm start` and the end-to-end stack; the app's start script repeats them.
    const flags: string[] = JSON.parse(read("infra/node-flags.json"))[service];
    expect(flags).toContain("--single-threaded-gc");
    expect(layoutOf(runtime).cmd).toEqual(["node", ...flags, "dist/server.js"]);
    expect(JSON.parse(read(`apps/${service}/package.json`)).scripts.start).toBe(["node", ...flags, "dist/server.js"].join(" "));
    const user = all("USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user!.split(":")[0]);
    // That the built server finds its migrations in this layout is checked by starting it there
    // (image-layout.test.ts); this checks the Dockerfile's paths agree with each other.
    const dist = copies.find((c) => c.src.endsWith(`apps/${service}/dist`));
    const prisma = copies.find((c) => /apps\/[\w-]+\/prisma\/?$/.test(c.src));
    expect(dist?.src).toBe(`/repo/apps/${service}/dist`);
    expect(prisma?.src).toBe(`/repo/apps/${service}/prisma`);
    expect(path.posix.resolve(dist!.dest, "../prisma/migrations")).toBe(path.posix.join(prisma!.dest, "migrations"));
    expect(path.posix.resolve(workdir, "dist/server.js")).toBe(path.posix.join(dist!.dest, "server.js"));
    expect(fs.existsSync(path.join(ROOT, `apps/${service}/prisma/migrations`))).toBe(true);
  });

  it("preloads jemalloc, installed in the runtime stage, at the path it links it to", () => {
    const env = dockerEnv(runtime);
    expect(env.LD_PRELOAD).toBe("/usr/local/lib/libjemalloc.so.2");
    const install = all("RUN")
      .map((r) => r.args)
      .find((args) => args.includes("libjemalloc2"));
    expect(install).toBeDefined();
    expect(install).toContain("ln -s");
    expect(install).toContain(env.LD_PRELOAD);
  });

  it("exposes the configured port, sets only known variables, and health-checks /healthz without curl", () => {
    const port = configuredPort(service);
    expect(all("EXPOSE").map((e) => e.args)).toEqual([String(port)]);
    const env = dockerEnv(runtime);
    expect(env.NODE_ENV).toBe("production");
    expect(unknownKeys(service, Object.keys(env))).toEqual([]);
    expect(invalidValues(service, env)).toEqual([]);
    const portKey = `${SERVICES[service].prefix}_PORT`;
    if (env[portKey]) expect(Number(env[portKey])).toBe(port);
    const health = all("HEALTHCHECK").at(-1)?.args ?? "";
    expect(health).toContain("/healthz");
    expect(health).toContain(`${portKey} || ${port}`);
    expect(health).toContain(`"node"`);
    expect(health).not.toMatch(/curl|wget/);
  });
});

// ---- compose ----

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  volumes?: string[];
  command?: string[];
  healthcheck?: unknown;
  depends_on?: Record<string, { condition: string }>;
}
const COMPOSE_DIR = "infra/docker";
const compose = parse(read(`${COMPOSE_DIR}/compose.yaml`), { merge: true }) as { services: Record<string, ComposeService> };

describe("compose", () => {
  const services = compose.services;

  it("builds each service from the repository root with its own Dockerfile", () => {
    for (const name of NAMES) {
      const build = services[name].build!;
      expect(path.resolve(ROOT, COMPOSE_DIR, build.context)).toBe(ROOT);
      expect(build.dockerfile).toBe(dockerfilePath(name));
    }
  });

  it("sets only variables the services' schemas define, with valid values, including every required one", () => {
    for (const name of NAMES) {
      const env = services[name].environment ?? {};
      expect({ service: name, unknown: unknownKeys(name, Object.keys(env)) }).toEqual({ service: name, unknown: [] });
      expect({ service: name, invalid: invalidValues(name, env) }).toEqual({ service: name, invalid: [] });
      const missing = requiredKeys(name).filter((k) => !(k in env));
      expect({ service: name, missing }).toEqual({ service: name, missing: [] });
      const secretsMissing = envKeys(name).filter((k) => isSecretKey(k) && !(k in env));
      expect({ service: name, secretsMissing }).toEqual({ service: name, secretsMissing: [] });
    }
  });

  it("listens on 0.0.0.0 at the configured port and points each service at its own PostgreSQL 16", () => {
    const dbHosts = new Set<string>();
    for (const name of NAMES) {
      const { prefix } = SERVICES[name];
      const env = services[name].environment!;
      expect(env[`${prefix}_HOST`]).toBe("0.0.0.0");
      expect(Number(env[`${prefix}_PORT`] ?? configuredPort(name))).toBe(configuredPort(name));
      expect(services[name].expose).toEqual([String(configuredPort(name))]);
      const url = new URL(env[`${prefix}_DATABASE_URL`]);
      const db = services[url.hostname];
      expect(db?.image).toBe("postgres:16");
      expect(db.healthcheck).toBeDefined();
      expect(db.volumes?.some((v) => v.endsWith(":/var/lib/postgresql/data"))).toBe(true);
      expect(services[name].depends_on?.[url.hostname]).toEqual({ condition: "service_healthy" });
      dbHosts.add(url.hostname);
    }
    expect(dbHosts.size).toBe(NAMES.length);
  });

  it("wires the main API to the pricing API by service name and configured port", () => {
    const url = new URL(services["main-api"].environment!.PRICING_API_URL);
    expect(url.hostname).toBe("pricing-api");
    expect(Number(url.port)).toBe(configuredPort("pricing-api"));
  });

  it("requires the shared SERVICE_TOKEN_SECRET from the environment for every service that reads it", () => {
    const readers = NAMES.filter((n) => envKeys(n).includes("SERVICE_TOKEN_SECRET"));
    expect(readers.length).toBeGreaterThan(0);
    for (const name of readers) {
      expect(services[name].environment!.SERVICE_TOKEN_SECRET).toMatch(/^\$\{SERVICE_TOKEN_SECRET:\?[^}]+\}$/);
    }
  });

  it("waits only on dependencies that have a health check (compose's or the image's)", () => {
    for (const [name, svc] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
        expect({ name, dep, exists: dep in services }).toEqual({ name, dep, exists: true });
        if (condition !== "service_healthy") continue;
        const target = services[dep];
        const imageHealth = target.build && /^HEALTHCHECK /m.test(read(target.build.dockerfile));
        expect({ name, dep, healthy: Boolean(target.healthcheck || imageHealth) }).toEqual({ name, dep, healthy: true });
      }
    }
  });

  it("renders the gateway template with upstreams that name the services and their ports", () => {
    const gateway = services.gateway;
    expect(gateway.image).toMatch(/^nginx:1\.27/);
    expect(gateway.ports).toEqual(["8080:80"]);
    const env = gateway.environment!;
    expect(env.MAIN_API_UPSTREAM).toBe(`main-api:${configuredPort("main-api")}`);
    expect(env.PRICING_API_UPSTREAM).toBe(`pricing-api:${configuredPort("pricing-api")}`);
    expect(env.GATEWAY_PORT).toBe("80");
    const mount = gateway.volumes!.map((v) => v.split(":")).find(([src]) => src.endsWith("nginx.conf.template"))!;
    const templateFile = path.resolve(ROOT, COMPOSE_DIR, mount[0]);
    expect(templateFile).toBe(path.join(ROOT, "infra/gateway/nginx.conf.template"));
    const placeholders = [...new Set([...fs.readFileSync(templateFile, "utf8").matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]))];
    expect(env.WEB_UPSTREAM).toBe("web:8080");
    expect(placeholders.sort()).toEqual(["GATEWAY_PORT", "MAIN_API_UPSTREAM", "PRICING_API_UPSTREAM", "WEB_UPSTREAM"]);
    const command = gateway.command!.join(" ");
    expect(command).toContain(`< ${mount[1]} > /etc/nginx/nginx.conf`);
    for (const p of placeholders) {
      expect(env[p]).toBeDefined();
      // `$$` is compose's escape for a literal `$`: envsubst gets an explicit list, so nginx's own
      // variables ($host, $request_id, ...) survive.
      expect(command).toContain(`$$${p}`);
    }
    expect(command).toContain("exec nginx -g 'daemon off;'");
    for (const name of [...NAMES, "web"]) expect(gateway.depends_on?.[name]).toBeDefined();
  });

  it("builds the console image from the repository root and exposes the port the gateway names", () => {
    const web = services.web;
    expect(web.build).toEqual({ context: "../..", dockerfile: "infra/docker/web.Dockerfile" });
    expect(web.expose).toEqual(["8080"]);
  });
});

// ---- The console's image ----

describe("web Dockerfile", () => {
  const text = read("infra/docker/web.Dockerfile");
  const runtime = parseDockerfile(text).at(-1)!;

  it("builds a pruned workspace of the console and serves only its static files with unprivileged nginx", () => {
    expect(text).toContain("turbo prune @cloudcost/web --docker");
    expect(text).toContain("turbo run build --filter=@cloudcost/web");
    expect(runtime.from).toMatch(/^nginxinc\/nginx-unprivileged:1\.27/);
    const copies = runtime.instructions.filter((i) => i.op === "COPY").map((i) => i.args);
    expect(copies).toContainEqual(expect.stringContaining("--from=build /repo/apps/web/dist/ /usr/share/nginx/html/"));
    expect(copies).toContainEqual("infra/web/default.conf.template /etc/nginx/templates/default.conf.template");
    const user = runtime.instructions.filter((i) => i.op === "USER").at(-1)?.args;
    expect(user).toBe("101");
    expect(fs.existsSync(path.join(ROOT, "infra/docker/web.Dockerfile.dockerignore"))).toBe(true);
  });

  it("listens on the port it exposes, answers /healthz and serves /config.json from WEB_CONFIG_JSON", () => {
    const conf = read("infra/web/default.conf.template");
    expect(conf).toMatch(/listen \$\{WEB_PORT\};/);
    expect(text).toMatch(/WEB_PORT=8080/);
    expect(text).toMatch(/EXPOSE 8080/);
    expect(text).toMatch(/HEALTHCHECK .*\/healthz/);
    expect(conf).toMatch(/location = \/config\.json \{[^}]*return 200 '\$\{WEB_CONFIG_JSON\}';/);
    expect(conf).toMatch(/try_files \$uri \/index\.html;/);
    // The default is valid JSON the console reads.
    const json = /WEB_CONFIG_JSON='([^']+)'/.exec(text)?.[1];
    expect(JSON.parse(json!)).toEqual({ auth: { mode: "dev" } });
  });
});

// ---- Kubernetes ----

type K8sObject = { kind: string; metadata: { name: string; namespace?: string; annotations?: Record<string, string> }; [k: string]: any };
const K8S_DIR = "infra/k8s";
const loadK8s = (file: string): K8sObject[] =>
  parseAllDocuments(read(`${K8S_DIR}/${file}`))
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
const kustomization = parse(read(`${K8S_DIR}/kustomization.yaml`)) as { resources: string[]; namespace: string };
const objects = kustomization.resources.flatMap(loadK8s);
const find = (kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not among the kustomization's resources`);
  return found;
};

describe("kubernetes", () => {
  it("applies every manifest except the example secrets, all in one namespace", () => {
    const files = fs.readdirSync(path.join(ROOT, K8S_DIR)).filter((f) => f.endsWith(".yaml") && f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual(files.filter((f) => f !== "secrets.example.yaml").sort());
    expect(find("Namespace", kustomization.namespace)).toBeDefined();
    for (const o of objects.filter((x) => x.kind !== "Namespace")) expect(o.metadata.namespace ?? kustomization.namespace).toBe(kustomization.namespace);
  });

  describe.each(NAMES)("%s", (service) => {
    const deployment = find("Deployment", service);
    const pod = deployment.spec.template.spec;
    const container = pod.containers.find((c: any) => c.name === service);
    const configMaps = (container.envFrom ?? []).map((e: any) => find("ConfigMap", e.configMapRef.name));
    const configEnv: Record<string, string> = Object.assign({}, ...configMaps.map((c: K8sObject) => c.data));
    const explicitEnv: { name: string; value?: string; valueFrom?: any }[] = container.env ?? [];
    const allKeys = [...Object.keys(configEnv), ...explicitEnv.map((e) => e.name)];
    const resolvePort = (p: number | string) => (typeof p === "number" ? p : container.ports.find((cp: any) => cp.name === p)?.containerPort);

    it("runs 2 non-root replicas of the service's image with resources", () => {
      expect(deployment.spec.replicas).toBe(2);
      expect(container.image).toMatch(new RegExp(`^cloudcost/${service}(:|$)`));
      expect(kustomization.resources).toContain(`${service}.yaml`);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
      expect(container.resources.requests).toBeDefined();
      expect(container.resources.limits.memory).toBeDefined();
      for (const [k, v] of Object.entries(deployment.spec.selector.matchLabels)) expect(deployment.spec.template.metadata.labels[k]).toBe(v);
    });

    it("sets only variables of the service's schema, valid, every required one, secrets from a Secret", () => {
      expect(unknownKeys(service, allKeys)).toEqual([]);
      expect(invalidValues(service, configEnv)).toEqual([]);
      expect(invalidValues(service, Object.fromEntries(explicitEnv.filter((e) => e.value !== undefined).map((e) => [e.name, e.value])))).toEqual([]);
      expect(requiredKeys(service).filter((k) => !allKeys.includes(k))).toEqual([]);
      const secrets = envKeys(service).filter(isSecretKey);
      expect(secrets.filter((k) => k in configEnv)).toEqual([]);
      const exampleSecret = loadK8s("secrets.example.yaml").find((o) => o.kind === "Secret")!;
      for (const key of secrets) {
        const ref = explicitEnv.find((e) => e.name === key)?.valueFrom?.secretKeyRef;
        expect({ key, ref: Boolean(ref) }).toEqual({ key, ref: true });
        expect(ref.name).toBe(exampleSecret.metadata.name);
        expect(Object.keys(exampleSecret.stringData)).toContain(ref.key);
      }
      expect(configEnv[`${SERVICES[service].prefix}_HOST`]).toBe("0.0.0.0");
    });

    it("listens on the configured port and probes /healthz (liveness) and /readyz (readiness)", () => {
      const port = configuredPort(service);
      expect(container.ports.find((p: any) => p.name === "http")?.containerPort).toBe(port);
      const portKey = `${SERVICES[service].prefix}_PORT`;
      expect(Number(configEnv[portKey] ?? port)).toBe(port);
      expect(container.readinessProbe.httpGet.path).toBe("/readyz");
      expect(container.livenessProbe.httpGet.path).toBe("/healthz");
      if (container.startupProbe) expect(container.startupProbe.httpGet.path).toBe("/healthz");
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe].filter(Boolean)) {
        expect(resolvePort(probe.httpGet.port)).toBe(port);
      }
      const svc = find("Service", service);
      expect(svc.spec.ports).toHaveLength(1);
      expect(svc.spec.ports[0].port).toBe(port);
      expect(resolvePort(svc.spec.ports[0].targetPort ?? svc.spec.ports[0].port)).toBe(port);
      for (const [k, v] of Object.entries(svc.spec.selector)) expect(deployment.spec.template.metadata.labels[k]).toBe(v);
    });

    it("serves /metrics on its own port, scraped by Prometheus from the pod and exposed by no Service or Ingress", () => {
      const key = `${SERVICES[service].prefix}_METRICS_PORT`;
      const parsed = SERVICES[service].shape[key].safeParse(configEnv[key]);
      expect(parsed.success).toBe(true);
      const metricsPort = parsed.data as number;
      expect(metricsPort).toBeGreaterThan(0);
      expect(metricsPort).not.toBe(configuredPort(service));
      expect(container.ports.map((p: any) => p.containerPort).sort()).toEqual([configuredPort(service), metricsPort].sort());
      expect(deployment.spec.template.metadata.annotations).toMatchObject({
        "prometheus.io/scrape": "true",
        "prometheus.io/port": String(metricsPort),
        "prometheus.io/path": "/metrics",
      });
      const exposed = objects.filter((o) => o.kind === "Service").flatMap((o) => o.spec.ports.map((p: any) => resolvePort(p.targetPort ?? p.port)));
      expect(exposed).not.toContain(metricsPort);
    });
  });

  it("points the main API at the pricing Service", () => {
    const container = find("Deployment", "main-api").spec.template.spec.containers[0];
    const env = Object.assign({}, ...container.envFrom.map((e: any) => find("ConfigMap", e.configMapRef.name).data));
    const url = new URL(env.PRICING_API_URL);
    expect(url.hostname).toBe("pricing-api");
    expect(Number(url.port)).toBe(find("Service", "pricing-api").spec.ports[0].port);
  });

  it("shares one SERVICE_TOKEN_SECRET between every service that reads it", () => {
    const refs = NAMES.filter((n) => envKeys(n).includes("SERVICE_TOKEN_SECRET")).map((n) =>
      JSON.stringify(find("Deployment", n).spec.template.spec.containers[0].env.find((e: any) => e.name === "SERVICE_TOKEN_SECRET")?.valueFrom),
    );
    expect(refs.length).toBeGreaterThan(0);
    expect(new Set(refs).size).toBe(1);
  });

  it("documents the example secrets as placeholders", () => {
    const secret = loadK8s("secrets.example.yaml").find((o) => o.kind === "Secret")!;
    for (const value of Object.values(secret.stringData as Record<string, string>)) expect(value).toContain("CHANGE_ME");
    expect(read(`${K8S_DIR}/secrets.example.yaml`)).toMatch(/placeholder/i);
  });

  describe("ingress", () => {
    const ingresses = objects.filter((o) => o.kind === "Ingress");
    const routes = ingresses.flatMap((ing) =>
      ing.spec.rules.flatMap((r: any) =>
        r.http.paths.map((p: any) => ({ ingress: ing, path: p.path as string, pathType: p.pathType as string, backend: p.backend.service })),
      ),
    );
    /** What ingress-nginx forwards for a request path: the backend Service and the upstream path. */
    function route(requestPath: string): { service: string; port: number; path: string } | undefined {
      for (const r of routes) {
        const a = r.ingress.metadata.annotations ?? {};
        const regex = a["nginx.ingress.kubernetes.io/use-regex"] === "true" || r.pathType === "ImplementationSpecific";
        const match = regex
          ? new RegExp(`^${r.path}`).exec(requestPath)
          : requestPath === r.path || requestPath.startsWith(r.path.endsWith("/") ? r.path : `${r.path}/`)
            ? [requestPath]
            : null;
        if (!match) continue;
        const rewrite = a["nginx.ingress.kubernetes.io/rewrite-target"];
        const upstream = rewrite ? rewrite.replace(/\$(\d)/g, (_: string, i: string) => match[Number(i)] ?? "") : requestPath;
        return { service: r.backend.name, port: r.backend.port.number, path: upstream };
      }
      return undefined;
    }
    const main = { service: "main-api", port: configuredPort("main-api") };
    const pricing = { service: "pricing-api", port: configuredPort("pricing-api") };
    const web = { service: "web", port: 8080 };

    it("routes every other path to the console, /metrics aside", () => {
      for (const p of ["/", "/recommendations", "/settings/api-keys", "/config.json", "/assets/index-abc.js", "/apix"]) {
        expect(route(p)).toEqual({ ...web, path: p });
      }
      expect(route("/api")).toEqual({ ...main, path: "/api" });
    });

    it("routes /api and /.well-known to main-api with the path kept", () => {
      expect(route("/api/v1/organizations/org_1")).toEqual({ ...main, path: "/api/v1/organizations/org_1" });
      expect(route("/.well-known/jwks.json")).toEqual({ ...main, path: "/.well-known/jwks.json" });
    });

    it("routes /pricing to pricing-api with the prefix stripped", () => {
      expect(route("/pricing/v1/pricing/compute")).toEqual({ ...pricing, path: "/v1/pricing/compute" });
      expect(route("/pricing/marketplace/providers")).toEqual({ ...pricing, path: "/marketplace/providers" });
      expect(route("/pricing")).toEqual({ ...pricing, path: "/" });
      // Paths the APIs do not own are the console's.
      expect(route("/pricingx")).toEqual({ ...web, path: "/pricingx" });
      expect(route("/healthz")).toEqual({ ...web, path: "/healthz" });
    });

    it("routes neither the pricing API's internal endpoints nor metrics (issue #22, finding 10)", () => {
      for (const p of ["/pricing/internal/api-keys/abc", "/pricing/internal", "/pricing/internal/", "/pricing/metrics", "/pricing/metrics/", "/metrics"]) {
        expect({ p, route: route(p) }).toEqual({ p, route: undefined });
      }
      expect(route("/pricing/internals-guide")).toEqual({ ...pricing, path: "/internals-guide" });
      expect(route("/pricing/v1/pricing/usage")).toEqual({ ...pricing, path: "/v1/pricing/usage" });
    });

    it("targets existing Services on their ports and limits body size", () => {
      expect(routes.length).toBeGreaterThan(0);
      for (const r of routes) {
        expect(find("Service", r.backend.name).spec.ports.map((p: any) => p.port)).toContain(r.backend.port.number);
      }
      for (const ing of ingresses) {
        expect(ing.spec.ingressClassName).toBe("nginx");
        // The ingress allows what the gateway allows.
        const gatewayLimit = /client_max_body_size\s+(\S+);/.exec(
          fs.readFileSync(path.join(__dirname, "../../infra/gateway/nginx.conf.template"), "utf8"),
        )?.[1];
        expect(gatewayLimit).toBeDefined();
        expect(ing.metadata.annotations?.["nginx.ingress.kubernetes.io/proxy-body-size"]).toBe(gatewayLimit);
      }
    });
  });
});

describe("main API token issuer in the deployment files", () => {
  // The images set NODE_ENV=production: the configuration each deployment gives the main API must
  // load there, with the development issuer only where it is enabled on purpose (compose's demo).
  it("kubernetes configures an OpenID Connect provider and never the development issuer", () => {
    const container = find("Deployment", "main-api").spec.template.spec.containers[0];
    const env = Object.assign({}, ...container.envFrom.map((e: any) => find("ConfigMap", e.configMapRef.name).data));
    for (const e of container.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
    expect(env.MAIN_API_DEV_ISSUER).toBeUndefined();
    const config = loadMainConfig({ ...env, NODE_ENV: "production" });
    expect(config.auth.provider).toBeDefined();
    expect(config.auth.devIssuer).toBe(false);
  });

  it("compose enables the development issuer explicitly for the local demo, and the AUTH_* variables replace it", () => {
    const env = compose.services["main-api"].environment!;
    const interpolate = (vars: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_, name: string, fallback = "") => vars[name] ?? fallback)]),
      );
    const demo = loadMainConfig({ ...interpolate({}), SERVICE_TOKEN_SECRET: "s".repeat(40), NODE_ENV: "production" });
    expect(demo.auth.devIssuer).toBe(true);
    expect(demo.auth.devIssuerWarning).toBeDefined();
    const provider = { AUTH_JWKS_URL: "https://idp.example.com/jwks.json", AUTH_ISSUER: "https://idp.example.com/", AUTH_AUDIENCE: "cloudcost" };
    const real = loadMainConfig({
      ...interpolate({ ...provider, MAIN_API_DEV_ISSUER: "false" }),
      SERVICE_TOKEN_SECRET: "s".repeat(40),
      NODE_ENV: "production",
    });
    expect(real.auth.devIssuer).toBe(false);
    expect(real.auth.provider?.jwksUrl).toBe(provider.AUTH_JWKS_URL);
  });
});

describe("documentation", () => {
  it("documents every environment variable of both services (README.md or docs/)", () => {
    const docsDir = path.join(ROOT, "docs");
    const docs = fs.existsSync(docsDir)
      ? fs
          .readdirSync(docsDir, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".md"))
          .map((f) => `docs/${f}`)
      : [];
    const text = ["README.md", ...docs].map(read).join("\n");
    const missing = [...envKeys("main-api"), ...envKeys("pricing-api")].filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    expect(missing).toEqual([]);
  });
});
