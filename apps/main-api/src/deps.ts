import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import type { Admission, IdempotencyStore, Metrics, Redis } from "@cloudcost/http";
import type { DevIssuerKey } from "./auth/dev-issuer";
import type { KeyUseRecorder } from "./auth/key-use";
import type { TokenVerifier } from "./auth/token-verifier";
import type { Analyzer } from "./compute/analysis";
import type { Config } from "./config";
import type { DimensionApplier } from "./dimensions/apply";
import type { AdmissionClassName } from "./http/admission";
import type { VacuumSchedule } from "./compute/maintenance";
import type { Prisma } from "./db";
import type { OutboxWorker } from "./outbox";
import type { InternalPricingApi } from "./pricing/internal-client";
import type { SecretBox } from "./webhooks/secrets";
import type { Resolve } from "./webhooks/targets";

/** Everything the main API is built from, made once by `buildDeps` (compose.ts) and handed down. */
export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics: Metrics;
  /** Verifies bearer tokens of the configured provider and the development issuer. */
  tokens: TokenVerifier;
  /** Records API key use, at most once a minute per key. */
  keyUse: KeyUseRecorder;
  /** The development issuer's key pair; absent when the development issuer is off. */
  devIssuerKey?: DevIssuerKey;
  idempotencyStore: IdempotencyStore;
  /** The one analyzer of the process: its in-process guard and pricing cache are shared by the routes and the schedule. */
  analyzer: Analyzer;
  /** The pricing API's internal operations, on behalf of an organization's pricing account. */
  pricingApi: InternalPricingApi;
  /** The shared store of rate-limit counts (REDIS_URL); absent: each process counts its own. */
  redis?: Redis;
  /** Delivers outbox messages (pricing API key sync); started by the server, drained by tests. */
  outbox: OutboxWorker;
  /** Concurrency limits and waiting lines per class of operations (http/admission.ts), one per process. */
  admission: Admission<AdmissionClassName>;
  /** Vacuuming where the database has no autovacuum (compute/maintenance.ts): started by the server, told of large writes by ingest and cycles. */
  vacuum: VacuumSchedule & { start(): void };
  /** Applies new dimension versions to the roll-up in the background (dimensions/apply.ts): kicked by a PUT, swept by the server. */
  dimensionApply: DimensionApplier;
  /** The time as the app reads it where tests must move it (import session expiry). */
  clock: () => Date;
  /** Encrypts webhook signing secrets at rest; resolves webhook hosts for the SSRF checks. */
  webhooks: { secrets: SecretBox; resolve: Resolve };
}

/** What `authenticate` needs. */
export type AuthDeps = Pick<AppDeps, "db" | "tokens" | "keyUse">;
