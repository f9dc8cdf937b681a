// Issue 47 finding 10: pod sample timestamps at most 93 days old and not in the future; cpu_cores at
// most 1024 and ram_gb at most 65536 (with a positive minimum) wherever they are taken; integer query
// parameters are plain decimal digits (no exponent, hex, sign or spaces), a 400 naming the parameter.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let org: SignedUp;

beforeAll(async () => {
  ctx = await createTestContext({ ANALYSIS_INTERVAL_MINUTES: "0" });
  org = await signUp(ctx, { company: "Bounds Co" });
  const res = await put("/api/v1/tenant/compute/resources", {
    resources: [{ resource_id: "node-1", resource_type: "kubernetes_node", provider: "aws", region: "us-east-1", instance_type: "m5.xlarge", cluster: "c" }],
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await ctx?.close();
});

const DAY_MS = 86_400_000;
const put = (path: string, body: unknown) =>
  request(ctx.app).put(path).set("Authorization", `Bearer ${org.token}`).set("X-Service-Tenant-ID", org.tenant.id).send(body);
const post = (path: string, body: unknown) =>
  request(ctx.app).post(path).set("Authorization", `Bearer ${org.token}`).set("X-Service-Tenant-ID", org.tenant.id).send(body);
const get = (path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${org.token}`).set("X-Service-Tenant-ID", org.tenant.id);

const PODS = "/api/v1/tenant/kubernetes/pods";
const pod = (extra: Record<string, unknown>) => ({
  cluster: "c",
  namespace: "n",
  pod: "p",
  node: "node-1",
  timestamp: new Date(Date.now() - DAY_MS).toISOString(),
  cpu_request_cores: 1,
  memory_request_gb: 2,
  ...extra,
});

describe("pod samples: timestamps", () => {
  it("refuses a timestamp more than 93 days old (year 0001 included), naming it", async () => {
    for (const timestamp of ["0001-01-01T00:00:00Z", new Date(Date.now() - 94 * DAY_MS).toISOString()]) {
      expectError(await post(PODS, { samples: [pod({}), pod({ pod: "old", timestamp })] }), 400, /samples\.1\.timestamp: must be at most 93 days ago/);
    }
  });

  it("refuses a timestamp in the future, and accepts one 92 days old", async () => {
    expectError(await post(PODS, { samples: [pod({ timestamp: new Date(Date.now() + DAY_MS).toISOString() })] }), 400, /samples\.0\.timestamp: .*future/);
    expect((await post(PODS, { samples: [pod({ timestamp: new Date(Date.now() - 92 * DAY_MS).toISOString() })] })).status).toBe(200);
  });
});

describe("cores, memory and GPUs are bounded", () => {
  it("pod requests and usage: at most 1024 cores and 65536 GB", async () => {
    for (const [field, value] of [
      ["cpu_request_cores", 1025],
      ["cpu_usage_cores", 1e308],
      ["memory_request_gb", 65537],
      ["memory_usage_gb", 1e308],
    ] as const) {
      expectError(await post(PODS, { samples: [pod({ [field]: value })] }), 400, new RegExp(`samples\\.0\\.${field}`));
    }
    expect((await post(PODS, { samples: [pod({ cpu_request_cores: 1024, cpu_usage_cores: 0, memory_request_gb: 65536, memory_usage_gb: 0 })] })).status).toBe(
      200,
    );
  });

  it("compute resources (virtual machines and nodes): cpu_cores 0.001 to 1024, ram_gb 0.001 to 65536", async () => {
    const resource = (extra: Record<string, unknown>) => ({ resources: [{ resource_id: "vm-b", instance_type: "m5.large", ...extra }] });
    for (const [field, value] of [
      ["cpu_cores", 5e-324],
      ["cpu_cores", 1025],
      ["cpu_cores", 1e308],
      ["ram_gb", 5e-324],
      ["ram_gb", 65537],
      ["ram_gb", 1e308],
    ] as const) {
      expectError(await put("/api/v1/tenant/compute/resources", resource({ [field]: value })), 400, new RegExp(`resources\\.0\\.${field}`));
    }
    expect((await put("/api/v1/tenant/compute/resources", resource({ cpu_cores: 1024, ram_gb: 65536 }))).status).toBe(200);
    expect((await put("/api/v1/tenant/compute/resources", resource({ cpu_cores: 0.25, ram_gb: 0.5 }))).status).toBe(200);
  });
});

describe("integer query parameters are plain decimal digits", () => {
  const NOT_DIGITS = ["1e1", "0x10", "+5", " 5", "5 ", "5.0", "-1", "0b1", "Infinity", "1_0"];

  it("limit (every paginated list)", async () => {
    for (const limit of NOT_DIGITS) {
      expectError(await get(`/api/v1/organizations/${org.organization.id}/users?limit=${encodeURIComponent(limit)}`), 400, /limit/);
    }
    const page = await get(`/api/v1/organizations/${org.organization.id}/users?limit=10`).expect(200);
    expect(page.body.data.items).toHaveLength(1);
  });

  it("part and parts of an import session: part=1e0&parts=0x2 is a 400 naming both", async () => {
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${org.organization.id}/spend/imports?session=s1&part=1e0&parts=0x2`)
      .set("Authorization", `Bearer ${org.token}`)
      .set("Content-Type", "text/csv")
      .send("BilledCost\n1\n");
    const message = expectError(res, 400);
    expect(message).toMatch(/part: /);
    expect(message).toMatch(/parts: /);
  });

  it("lookback_days and term_months of commitment recommendations", async () => {
    const path = `/api/v1/organizations/${org.organization.id}/commitments/recommendations`;
    expectError(await get(`${path}?lookback_days=3e1`), 400, /lookback_days/);
    expectError(await get(`${path}?term_months=0xc`), 400, /term_months/);
    expectError(await get(`${path}?term_months=1.2e1`), 400, /term_months/);
  });
});
