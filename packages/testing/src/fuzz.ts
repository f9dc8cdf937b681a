// Property-based bad-input fuzzing of every route: the engine both apps' fuzz-bad-input tests import
// from @cloudcost/testing. A case is built around one chosen "attack" (garbage credentials, malformed JSON, a
// body violating the route's contract schema, a junk path parameter, an invalid query value, a bad
// tenant header...) plus random noise that cannot make it valid (unknown query parameters in odd
// forms, extra and duplicated headers). Whether the whole case is invalid is decided with the same
// zod schemas the route validates with, so a case the route should accept is never counted as bad.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import fc from "fast-check";
import request from "supertest";
import type { z } from "zod";
import type { Database } from "@cloudcost/db";
import { deepObjectText, expandRawNumbers, extremeDecimalText, parsedRawNumbers, rawNumber } from "./fuzz-extremes";

/** Cases per route: FUZZ_RUNS (pnpm test:fuzz sets 2000), else 40 (every `pnpm test`, twice in CI's time budget). */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 40);
/**
 * `pnpm test` replays one fixed seed (a CI run must not pass or fail by chance); the long
 * `pnpm test:fuzz` run explores fresh seeds unless FUZZ_SEED pins one. A failure prints its seed.
 */
export const FUZZ_SEED_OPTION: { seed?: number } = process.env.FUZZ_SEED
  ? { seed: Number(process.env.FUZZ_SEED) }
  : process.env.FUZZ_RUNS
    ? {}
    : { seed: 20261122 };

export type AuthKind = "credential" | "none";

export interface RouteSpec {
  /** Routes behind a credential get garbage credentials as one attack; "none" are public. */
  auth: AuthKind;
  /** Valid values of the path parameters, and the schema the route parses them with. */
  params?: {
    valid: Record<string, string>;
    schema: z.ZodType;
    /** Customer-chosen (or created on first use) params: another well-formed value is a valid request. */
    free?: string[];
  };
  /** The JSON body the route parses; `input` maps req.body to what the route validates (default identity). */
  body?: { schema: z.ZodType; valid: unknown; input?: (body: unknown) => unknown };
  /** The query the route parses (unknown query parameters are ignored by the contract). */
  query?: { schema: z.ZodType; valid?: Record<string, string>; keys?: string[] };
  /** Changes nothing even when valid (e.g. a POST that only computes): a valid case may answer 2xx. */
  readOnly?: boolean;
  /** Tenant-scoped: X-Service-Tenant-ID must name a tenant in reach. */
  tenant?: { valid: string };
}

export interface FuzzTarget {
  method: string;
  path: string;
  spec: RouteSpec;
}

export interface Credentials {
  /** Valid credential headers; one is picked per case. */
  valid: Array<Record<string, string>>;
  /** Garbage credential headers ({} = none at all). */
  garbage: fc.Arbitrary<Record<string, string>>;
}

export interface BuiltCase {
  attack: string;
  method: string;
  url: string;
  headers: Array<[string, string | string[]]>;
  body?: { contentType?: string; raw: string };
  /** True when some part of the request is invalid, so the route must answer 4xx. */
  invalid: boolean;
  /** What made it invalid (for failure messages). */
  why: string[];
}

// ---------------------------------------------------------------------------------------------
// Junk values

const hugeString = fc
  .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 8 }), fc.integer({ min: 1_000, max: 100_000 }))
  .map(([chunk, length]) => chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length));
const controlString = fc
  .array(
    fc.constantFrom(
      "\u0000",
      "\u0001",
      "\u0007",
      "\b",
      "\t",
      "\n",
      "\r",
      "\u001b",
      "\u007f",
      "\u0085",
      "\u2028",
      "\ufeff",
      "\ud800",
      "\udfff",
      "a",
      "é",
      "😀",
      "\u202e",
    ),
    { minLength: 1, maxLength: 40 },
  )
  .map((parts) => parts.join(""));
const edgeNumber = fc.constantFrom(1e308, -1e308, -1, -0, 0, 1e-320, 5e-324, 0.1, 1.5, 2 ** 31, 2 ** 53 + 1, 1e15, 1e16, -(2 ** 31), 1.2345678901234567e19);
/**
 * Arrays nested up to 5000 levels, as a marker that `toJson` expands into the text (the test's own
 * JSON.stringify and structuredClone would overflow the stack on the real value).
 */
const DEEP = "__fuzz_deep_array__";
const deepArray = fc.integer({ min: 100, max: 5000 }).map((depth) => ({ [DEEP]: depth }));

/** JSON.stringify, with deep-array and raw-number markers expanded. */
export function toJson(value: unknown): string {
  return expandRawNumbers(
    JSON.stringify(value).replace(new RegExp(`\\{"${DEEP}":(\\d+)\\}`, "g"), (_m, n: string) => "[".repeat(Number(n)) + "]".repeat(Number(n))),
  );
}

/** Any JSON value a client could send where something specific is expected. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 2, arbitrary: controlString },
  { weight: 3, arbitrary: edgeNumber },
  { weight: 2, arbitrary: extremeDecimalText },
  { weight: 2, arbitrary: rawNumber },
  { weight: 1, arbitrary: deepObjectText },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, "", " ", "null", "true", "0", "-1", "NaN", "[]", "{}") },
  { weight: 1, arbitrary: deepArray },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }) },
);

/** Valid JSON nested thousands of levels deep (must not blow the parser's or the validator's stack). */
const deepJson = fc.oneof(
  fc.integer({ min: 1_000, max: 100_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth)),
  fc.integer({ min: 1_000, max: 60_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
);

/** Bodies that are not JSON at all, sent as application/json (NaN and Infinity cannot be JSON). */
const malformedJson = fc.oneof(
  fc.constantFrom(
    '{"x": NaN}',
    '{"x": Infinity}',
    '{"x": -Infinity}',
    '{"x": undefined}',
    '{"a":1',
    "{'a':1}",
    '{"a":1,}',
    "[1,2",
    "\u0000",
    '{"a":01}',
    '"unterminated',
    "{a:1}",
    "}{",
    "\ufeff{",
    "null null",
    "123",
    '"a string"',
    "true",
  ),
  // Unbalanced deep nesting (balanced deep nesting is valid JSON: see deepJson).
  fc.integer({ min: 1_000, max: 100_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth - 1)),
  fc.integer({ min: 100, max: 5000 }).map((depth) => "[".repeat(depth)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 200 }).filter((text) => !isJson(text)),
);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Body mutations

type Path = Array<string | number>;

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : value && typeof value === "object"
      ? Object.entries(value)
      : [];
  for (const [key, item] of children) {
    out.push([...prefix, key]);
    paths(item, [...prefix, key], out);
  }
  return out;
}

function setAt(root: unknown, path: Path, value: unknown, remove: boolean): unknown {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(node) && typeof last === "number") node.splice(last, 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** The valid body with 1-3 fields replaced by junk, removed, or junk fields added. */
function mutatedBody(valid: unknown): fc.Arbitrary<unknown> {
  const all = paths(valid);
  const containers: Path[] = [
    [],
    ...all.filter((p) => {
      const v = p.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], valid);
      return v !== null && typeof v === "object" && !Array.isArray(v);
    }),
  ];
  const mutation = fc.oneof(
    ...(all.length
      ? [
          { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...all), junkValue).map(([path, junk]) => ({ path, junk, remove: false })) },
          { weight: 2, arbitrary: fc.constantFrom(...all).map((path) => ({ path, junk: undefined as unknown, remove: true })) },
        ]
      : []),
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...containers), fc.string({ unit: "binary", minLength: 1, maxLength: 20 }), junkValue)
        .map(([container, key, junk]) => ({ path: [...container, key], junk, remove: false })),
    },
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    let body = valid;
    for (const m of mutations) {
      try {
        body = setAt(body, m.path, m.junk, m.remove);
      } catch {
        // an earlier mutation replaced a container on this path: keep what we have
      }
    }
    return body;
  });
}

// ---------------------------------------------------------------------------------------------
// Query strings (Express "extended" parser = qs: a=1&a=2 → array, a[]=x and a[0]=x → array,
// a[b]=c → object; at most 1000 parameters).

type QueryPart = { key: string; form: "plain" | "brackets" | "index" | "object" | "empty"; value: string; times: number };

const queryValue = fc.oneof(
  fc.constantFrom("", " ", ",", ",,", "x", "true", "TRUE", "false", "1", "-1", "0", "501", "1e308", "NaN", "null", "%00", "..", "a".repeat(600)),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  controlString.map((s) => s.replace(/[\ud800-\udfff]/g, "")),
);

function queryPart(key: fc.Arbitrary<string>, maxTimes = 1000): fc.Arbitrary<QueryPart> {
  return fc
    .record({
      key,
      form: fc.constantFrom("plain", "brackets", "index", "object", "empty"),
      value: queryValue,
      times: fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: maxTimes }) }),
    })
    .map((p) => (p.form === "index" || p.form === "object" ? { ...p, times: 1 } : p));
}

function renderQuery(parts: QueryPart[]): string {
  const out: string[] = [];
  for (const p of parts) {
    const k = encodeURIComponent(p.key);
    const v = encodeURIComponent(p.value);
    const one =
      p.form === "plain"
        ? `${k}=${v}`
        : p.form === "brackets"
          ? `${k}[]=${v}`
          : p.form === "index"
            ? `${k}[0]=${v}`
            : p.form === "object"
              ? `${k}[b]=${v}`
              : `${k}=`;
    for (let i = 0; i < p.times; i += 1) out.push(one);
  }
  return out.join("&");
}

/** What Express hands the route for these parts (only for the forms generated here). */
function parsedQuery(parts: QueryPart[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const p of parts) {
    for (let i = 0; i < p.times && count < 1000; i += 1, count += 1) {
      const prev = out[p.key];
      if (p.form === "object") {
        out[p.key] = { ...(typeof prev === "object" && prev && !Array.isArray(prev) ? prev : {}), b: p.value };
        continue;
      }
      const value = p.form === "empty" ? "" : p.value;
      const asArray = p.form === "brackets" || p.form === "index";
      if (prev === undefined) out[p.key] = asArray ? [value] : value;
      else out[p.key] = [...(Array.isArray(prev) ? prev : [prev]), value];
    }
  }
  return out;
}

const noiseKey = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 }).map((s) => `zz_${s.replace(/[^A-Za-z0-9_]/g, "")}`);

// ---------------------------------------------------------------------------------------------
// Path parameters

const junkParam = fc
  .oneof(
    fc.constantFrom(
      "%00",
      "..",
      "%2e%2e",
      ".",
      "%2F",
      "a%2Fb",
      "%",
      "%zz",
      "%ff",
      "%c0%af",
      "%20",
      "null",
      "undefined",
      "-",
      "_",
      "0",
      "__proto__",
      "constructor",
    ),
    fc.integer({ min: 65, max: 3000 }).map((n) => "a".repeat(n)),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    controlString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ""))),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    // An empty segment is another route (`/tenants/` is the list), not a junk parameter.
  )
  .filter((raw) => raw.length > 0);

function decodeParam(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Headers

const TENANT_HEADER = "X-Service-Tenant-ID";
const junkTenant = fc.oneof(
  fc.constantFrom("", " ", "ten_doesnotexist", "a".repeat(65), "..", "%00", "ten_1,ten_2"),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  fc.integer({ min: 65, max: 4_000 }).map((n) => "t".repeat(n)),
  fc.string({ unit: "grapheme-ascii", maxLength: 80 }),
);

const noiseHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom("X-Junk", "X-Request-Id", "Accept", "Accept-Encoding", "Cookie", "X-Forwarded-For", "Idempotency-Key"),
      fc.string({ unit: "grapheme-ascii", maxLength: 300 }),
    ),
    fc.tuple(
      fc.constant("X-Big"),
      fc.integer({ min: 1000, max: 3000 }).map((n) => "b".repeat(n)),
    ),
  ),
  { maxLength: 3 },
);

function headerSafe(value: string): string {
  return value.replace(/[^\t\x20-\x7e]/g, "?");
}

// ---------------------------------------------------------------------------------------------
// Cases

const ATTACKS = ["auth", "malformed-json", "body", "body-shape", "content-type", "param", "query", "tenant"] as const;
type Attack = (typeof ATTACKS)[number];

function applicable(target: FuzzTarget): Attack[] {
  const { spec } = target;
  const applies: Record<Attack, boolean> = {
    auth: spec.auth === "credential",
    "malformed-json": true,
    body: !!spec.body && paths(spec.body.valid).length > 0,
    "body-shape": !!spec.body,
    "content-type": !!spec.body,
    param: !!spec.params,
    query: !!spec.query,
    tenant: !!spec.tenant,
  };
  return ATTACKS.filter((a) => applies[a]);
}

/** A tenant header that is junk, missing, or repeated next to the valid one. */
function tenantAttack(valid: string): fc.Arbitrary<{ value: string[] | undefined }> {
  return fc
    .oneof(
      junkTenant.map((v) => [v]),
      fc.constant<string[] | undefined>(undefined),
      fc.tuple(junkTenant, fc.boolean()).map(([v, first]) => (first ? [valid, v] : [v, valid])),
      fc.constant<string[] | undefined>([valid, valid]),
    )
    .map((value) => ({ value }));
}

/** One request against `target`, built around a random applicable attack. */
export function caseFor(target: FuzzTarget, credentials: Credentials): fc.Arbitrary<BuiltCase> {
  const { spec } = target;
  return fc.constantFrom(...applicable(target)).chain((attack) =>
    fc
      .record({
        cred:
          attack === "auth"
            ? credentials.garbage.map((h) => ({ headers: h, valid: false }))
            : fc.constantFrom(...credentials.valid).map((h) => ({ headers: h, valid: true })),
        params: fc.record(
          Object.fromEntries(
            Object.entries(spec.params?.valid ?? {}).map(([name, value]) => [
              name,
              attack === "param"
                ? fc.oneof({ weight: 3, arbitrary: junkParam }, { weight: 1, arbitrary: fc.constant(encodeURIComponent(value)) })
                : fc.constant(encodeURIComponent(value)),
            ]),
          ),
        ) as fc.Arbitrary<Record<string, string>>,
        query: fc.tuple(
          attack === "query" && spec.query
            ? fc.array(queryPart(fc.constantFrom(...(spec.query.keys ?? Object.keys(shapeOf(spec.query.schema))))), { minLength: 1, maxLength: 3 })
            : fc.constant([] as QueryPart[]),
          fc.array(queryPart(noiseKey, 300), { maxLength: 2 }),
        ),
        tenant:
          attack === "tenant" && spec.tenant
            ? tenantAttack(spec.tenant.valid)
            : fc.constant({ value: (spec.tenant ? [spec.tenant.valid] : undefined) as string[] | undefined }),
        body: bodyArbitrary(target, attack),
        noise: noiseHeaders,
      })
      .map(({ cred, params, query, tenant, body, noise }) => {
        const why: string[] = [];
        if (!cred.valid) why.push("credentials");
        let path = target.path;
        const decoded: Record<string, string> = {};
        let paramsOk = true;
        for (const [name, raw] of Object.entries(params)) {
          path = path.replace(`{${name}}`, raw);
          const value = decodeParam(raw);
          if (value === undefined) paramsOk = false;
          else decoded[name] = value;
        }
        if (spec.params) {
          const { valid, schema, free = [] } = spec.params;
          const same = Object.entries(valid).every(([name, value]) => free.includes(name) || decoded[name] === value);
          if (!paramsOk || !same || !schema.safeParse(decoded).success) why.push("path");
        }
        const [known, noiseParts] = query;
        const parts: QueryPart[] = [
          ...Object.entries(spec.query?.valid ?? {})
            .filter(([k]) => !known.some((p) => p.key === k))
            .map(([key, value]) => ({ key, form: "plain" as const, value, times: 1 })),
          ...known,
          ...noiseParts,
        ].map((p) => ({ ...p }));
        if (spec.tenant) {
          const v = tenant.value?.map(headerSafe);
          if (v?.length !== 1 || v[0].trim() !== spec.tenant.valid) why.push("tenant");
        }
        if (body.malformed) why.push("malformed json");
        else if (spec.body) {
          const input = (spec.body.input ?? ((b) => b))(body.parsed);
          if (!spec.body.schema.safeParse(input).success) why.push("body");
        }
        // Keep the request line well under Node's 16 KB header limit (a 431 never reaches the app;
        // that case has its own test).
        while (renderQuery(parts).length > 8000) {
          const biggest = parts.reduce((a, b) => (b.times > a.times ? b : a));
          if (biggest.times > 1) biggest.times = Math.floor(biggest.times / 2);
          else parts.splice(parts.indexOf(biggest), 1);
        }
        if (spec.query && !spec.query.schema.safeParse(parsedQuery(parts)).success) why.push("query");
        const qs = renderQuery(parts);
        const headers: Array<[string, string | string[]]> = [
          ...Object.entries(cred.headers),
          ...(tenant.value
            ? [[TENANT_HEADER, tenant.value.length === 1 ? headerSafe(tenant.value[0]) : tenant.value.map(headerSafe)] as [string, string[] | string]]
            : []),
          ...noise.map(([k, v]) => [k, headerSafe(v)] as [string, string]),
        ];
        return {
          attack,
          method: target.method,
          url: qs ? `${path}?${qs}` : path,
          headers,
          body: body.send,
          invalid: why.length > 0,
          why,
        };
      }),
  );
}

interface BodyChoice {
  send?: { contentType?: string; raw: string };
  /** What req.body will be when the body parses (undefined when no JSON parser runs). */
  parsed: unknown;
  malformed: boolean;
}

function bodyArbitrary(target: FuzzTarget, attack: Attack): fc.Arbitrary<BodyChoice> {
  const { spec } = target;
  const json = (value: unknown): BodyChoice => ({
    send: { contentType: "application/json", raw: toJson(value) },
    parsed: parsedRawNumbers(value),
    malformed: false,
  });
  if (attack === "malformed-json")
    return fc
      .tuple(malformedJson, fc.constantFrom("application/json", "application/json; charset=utf-8", "application/problem+json"))
      .map(([raw, contentType]) => ({
        send: { contentType, raw },
        parsed: undefined,
        malformed: true,
      }));
  if (!spec.body) {
    // Routes without a body: sometimes send one anyway (it is ignored).
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant<BodyChoice>({ parsed: undefined, malformed: false }) },
      { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 3 }).map(json) },
    );
  }
  const valid = spec.body.valid;
  if (attack === "body") return mutatedBody(valid).map(json);
  if (attack === "body-shape")
    return fc.oneof(
      {
        weight: 1,
        arbitrary: deepJson.map((raw): BodyChoice => ({ send: { contentType: "application/json", raw }, parsed: JSON.parse(raw), malformed: false })),
      },
      {
        weight: 6,
        arbitrary: fc
          .oneof(
            deepArray,
            fc.constant([valid]),
            fc.array(junkValue, { maxLength: 3 }),
            fc.constant({}),
            fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 4 }),
            // Top-level primitives are not JSON bodies body-parser accepts (strict): 400 as well.
            fc.constantFrom<unknown>(null, 0, "x", true),
          )
          .map(json),
      },
    );
  if (attack === "content-type")
    return fc.oneof(
      fc.constant<BodyChoice>({ parsed: undefined, malformed: false }),
      fc
        .constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/octet-stream", "")
        .map((contentType) => ({
          send: { contentType: contentType || undefined, raw: contentType === "application/x-www-form-urlencoded" ? "a=1&entries[0][x]=y" : toJson(valid) },
          parsed: undefined,
          malformed: false,
        })),
    );
  return fc.constant(json(valid));
}

/** The keys of an object schema, also behind a transform (a pipe's input). */
function shapeOf(schema: z.ZodType): Record<string, unknown> {
  const s = schema as unknown as { shape?: Record<string, unknown>; def?: { in?: z.ZodType } };
  return s.shape ?? (s.def?.in ? shapeOf(s.def.in) : {});
}

// ---------------------------------------------------------------------------------------------
// Sending and checking

export async function listen(app: Express): Promise<http.Server> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

export function urlOf(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function send(server: http.Server, c: Pick<BuiltCase, "method" | "url" | "headers" | "body">): Promise<request.Response> {
  const agent = request(urlOf(server)) as unknown as Record<string, (url: string) => request.Test>;
  let req = agent[c.method.toLowerCase()](c.url)
    .buffer(true)
    .parse((res, done) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => done(null, text));
    });
  for (const [name, value] of c.headers) req = req.set(name, value as string);
  if (c.body) {
    if (c.body.contentType) req = req.set("Content-Type", c.body.contentType);
    req = req.send(c.body.raw);
  }
  return req;
}

/** The body text of a response sent with `send`. */
export const textOf = (res: request.Response): string => (typeof res.body === "string" ? res.body : (res.text ?? ""));

// ---------------------------------------------------------------------------------------------
// Database snapshots

export interface TableState {
  rows: number;
  checksum: string | null;
}

/**
 * Row count and a checksum of the contents of every table (except the migrations ledger).
 * `last_used_at` is left out: credentials record their use in the background by design.
 */
export async function snapshotDatabase(db: Database): Promise<Record<string, TableState>> {
  const tables = await db.sql.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
      ORDER BY table_name`,
  );
  const out: Record<string, TableState> = {};
  for (const { table_name } of tables) {
    const ident = `"${table_name.replace(/"/g, '""')}"`;
    // A request that is odd only in its headers can still be valid: its 2xx answer is rightly kept for
    // Idempotency-Key replays. Anything else stored there (a 400, a claim never finished) counts.
    const where = table_name === "idempotency_keys" ? "WHERE status IS NULL OR status NOT BETWEEN 200 AND 299" : "";
    const rows = await db.sql.query<{ rows: number; checksum: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(x, ',' ORDER BY x)) AS checksum
         FROM (SELECT (to_jsonb(t) - 'last_used_at')::text AS x FROM ${ident} t ${where}) s`,
    );
    out[table_name] = rows[0];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Route table coverage

export function routeKey(r: { method: string; path: string }): string {
  return `${r.method.toUpperCase()} ${r.path}`;
}

/** Fails on a registered route without an entry (and on an entry for a route that does not exist). */
export function expectEveryRouteCovered(registered: Array<{ method: string; path: string }>, table: Record<string, unknown>): void {
  const keys = registered.map(routeKey);
  expect({ missing: keys.filter((k) => !(k in table)), stale: Object.keys(table).filter((k) => !keys.includes(k)) }).toEqual({ missing: [], stale: [] });
}

export function describeCase(c: BuiltCase): string {
  const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s);
  return JSON.stringify({
    attack: c.attack,
    why: c.why,
    method: c.method,
    url: clip(c.url),
    headers: c.headers.map(([k, v]) => [k, clip(String(v))]),
    body: c.body && { contentType: c.body.contentType, raw: clip(c.body.raw) },
  });
}

export const STACK_OR_SQL = /(\n\s+at\s|\.ts:\d+|\.js:\d+|PrismaClient|prisma\.|SELECT\s|INSERT\s|syntax error at|violates .* constraint)/;
