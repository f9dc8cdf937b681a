// Two instances of the main API on one database, as two replicas: background work is done once per
// item. Run on PostgreSQL too (TEST_DATABASE_URL; CI does both): there the instances have their own
// connections, on PGlite they share the one (one process).
import pino from "pino";
import { IngestMetricsRequest, UpsertResourcesRequest } from "@cloudcost/contracts";
import { AnalysisBusyError, createAnalyzer } from "../src/compute/analysis";
import { sampleBatch } from "../src/compute/inventory-service";
import { analyzerRepositories, createComputeServices } from "../src/compute/services";
import { DEFAULT_COMPUTE_SETTINGS } from "../src/compute/settings";
import { OutboxWorker } from "../src/outbox";
import { enqueue } from "../src/outbox/repository";
import { shaped, vm } from "./helpers/compute-fleet";
import { catalogsAt, startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createReplicaContext, createTestContext, type TestContext } from "./helpers/context";

const logger = pino({ level: "silent" });
let a: TestContext;
let b: TestContext;
beforeAll(async () => {
  a = await createTestContext();
  b = await createReplicaContext(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe("outbox under two polling replicas", () => {
  const TOPIC = "test.replicas";
  const ORGS = 4;
  const AGGREGATES = 10;
  const PER_AGGREGATE = 8;

  it("delivers each message exactly once, and each aggregate's messages in order", async () => {
    for (let o = 0; o < ORGS; o++) await a.prisma.organization.create({ data: { id: `org_rep_${o}`, name: `Replica ${o}`, slug: `replica-${o}` } });
    // Interleaved so that every claim batch spans organizations and aggregates.
    for (let n = 0; n < PER_AGGREGATE; n++) {
      await a.prisma.$transaction(async (tx) => {
        for (let o = 0; o < ORGS; o++)
          for (let g = 0; g < AGGREGATES; g++) {
            await enqueue(tx, { organizationId: `org_rep_${o}`, topic: TOPIC, aggregateId: `agg_${g}`, payload: { o, g, n } });
          }
      });
    }
    const total = ORGS * AGGREGATES * PER_AGGREGATE;

    const deliveries: { by: string; o: number; g: number; n: number }[] = [];
    const handlerOf = (by: string) => ({
      [TOPIC]: async (payload: unknown) => {
        const { o, g, n } = payload as { o: number; g: number; n: number };
        // A delivery takes a moment, so the two replicas' rounds overlap.
        await new Promise((resolve) => setTimeout(resolve, 2));
        deliveries.push({ by, o, g, n });
      },
    });
    const options = { pollMs: 10, backoffBaseMs: 50, backoffMaxMs: 100, batchSize: 7 };
    const workers = [new OutboxWorker(a.prisma, logger, handlerOf("a"), options), new OutboxWorker(b.prisma, logger, handlerOf("b"), options)];
    for (const worker of workers) worker.start();
    try {
      const started = Date.now();
      while (deliveries.length < total && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 20));
      // A little longer: a duplicate would show up now.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      for (const worker of workers) await worker.stop();
    }

    const seen = new Map<string, number>();
    for (const d of deliveries) seen.set(`${d.o}/${d.g}/${d.n}`, (seen.get(`${d.o}/${d.g}/${d.n}`) ?? 0) + 1);
    expect(seen.size).toBe(total);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(deliveries).toHaveLength(total);
    for (let o = 0; o < ORGS; o++)
      for (let g = 0; g < AGGREGATES; g++) {
        const order = deliveries.filter((d) => d.o === o && d.g === g).map((d) => d.n);
        expect(order).toEqual([...Array(PER_AGGREGATE).keys()]);
      }
    // Both replicas did part of the work on PostgreSQL (on PGlite the one connection may serve one).
    if (a.db.kind === "postgres") expect(new Set(deliveries.map((d) => d.by)).size).toBe(2);
    const [{ undelivered }] = await a.db.sql.query<{ undelivered: number }>("SELECT count(*)::int AS undelivered FROM outbox WHERE delivered_at IS NULL");
    expect(undelivered).toBe(0);
  });
});

describe("analysis schedule under two replicas", () => {
  let stub: PricingStub;
  const tenant = { id: "ten_replicas", organizationId: "org_replicas" };
  beforeAll(async () => {
    stub = await startPricingStub(1500);
    const { inventory } = createComputeServices({ prisma: a.prisma, sql: a.db.sql });
    await inventory.upsertResources(tenant, UpsertResourcesRequest.parse({ resources: [vm("r1", "m5.xlarge"), vm("r2", "m5.large")] }).resources);
    await inventory.ingestMetrics(tenant, sampleBatch(IngestMetricsRequest.parse({ samples: [...shaped("r1", 20, 30), ...shaped("r2", 60, 80)] }).samples));
  });
  afterAll(async () => {
    await stub?.close();
  });

  const analyzerOf = (ctx: TestContext) =>
    createAnalyzer({ prisma: ctx.prisma, db: ctx.db, logger, catalogs: catalogsAt(stub.url), repositories: analyzerRepositories });

  it("analyses a tenant on one replica at a time: the other is kept out while a cycle runs", async () => {
    const [onA, onB] = [analyzerOf(a), analyzerOf(b)];
    stub.hold();
    const arrived = stub.nextRequest();
    const first = onA.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    await arrived; // a's cycle holds the tenant's lock and waits on the pricing API
    const second = onB.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    if (a.db.kind === "postgres") {
      // Another connection: the advisory lock refuses at once.
      await expect(second).rejects.toBeInstanceOf(AnalysisBusyError);
    } else {
      // The one connection is held by a's cycle: b's waits for it and never overlaps.
      const overlap = await Promise.race([
        second.then(
          () => "ran",
          () => "refused",
        ),
        new Promise((resolve) => setTimeout(() => resolve("waiting"), 300)),
      ]);
      expect(overlap).toBe("waiting");
    }
    stub.release();
    await expect(first).resolves.toMatchObject({ analyzedResources: 2 });
    await second.catch(() => undefined);
    // Once a's cycle ended the tenant is free for any replica.
    await expect(onB.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).resolves.toMatchObject({ analyzedResources: 2 });
  });
});
