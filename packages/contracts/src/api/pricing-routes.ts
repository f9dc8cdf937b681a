import { z } from "zod";
import { ServiceId } from "../common.js";
import * as compute from "../pricing/compute.js";
import * as commitmentRates from "../pricing/commitment-rates.js";
import * as computePrices from "../pricing/compute-prices.js";
import * as databases from "../pricing/databases.js";
import * as errors from "../pricing/errors.js";
import * as internal from "../pricing/internal.js";
import * as models from "../pricing/models.js";
import * as references from "../pricing/references.js";
import { PricingHealth, PricingReady } from "./health.js";
import { pricingInternalRoutes } from "./internal-routes.js";
import { defineRoute, type RouteDefinition } from "./route.js";

const c = { ...commitmentRates, ...compute, ...computePrices, ...databases, ...errors, ...internal, ...models, ...references };

type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope"> & Partial<Pick<RouteDefinition, "scope">>;
type Keyed<E extends string, S> = Omit<{ errors: E; auth: "api_key"; scope: "account" }, keyof S> & S;

/** `/v1` operations answer RFC 9457 problem documents; every one needs a key. */
function v1<const S extends Spec>(spec: S): Keyed<"problem", S> {
  return { errors: "problem", auth: "api_key", scope: "account", ...spec };
}
/** `/marketplace` operations answer `{error}`. */
function market<const S extends Spec>(spec: S): Keyed<"marketplace", S> {
  return { errors: "marketplace", auth: "api_key", scope: "account", ...spec };
}
const problem = (description: string) => ({ description, schema: c.ProblemDocument, contentType: "application/problem+json" });
const error = (description: string) => ({ description, schema: c.MarketplaceError });

const IdQuery = z.object({ id: ServiceId });
const USAGE_BODY_LIMIT = "8 MiB";

/** Every public operation of the pricing API. */
export const pricingPublicRoutes = {
  // The compute price query is the hot path (every right-sizing recommendation): matched first.
  priceCompute: defineRoute(
    v1({
      operationId: "priceCompute",
      method: "post",
      path: "/v1/pricing/compute",
      tags: ["Compute prices"],
      summary: "Price one instance type (catalog) or shape (estimate)",
      minKeyRole: "viewer",
      idempotent: true,
      body: c.ComputePriceQuery,
      responses: { 200: { description: "The price", schema: c.ComputePrice }, 404: problem("No price (code `price_not_found`)") },
    }),
  ),
  priceComputeBatch: defineRoute(
    v1({
      operationId: "priceComputeBatch",
      method: "post",
      path: "/v1/pricing/compute/batch",
      tags: ["Compute prices"],
      summary: "Price up to 1000 queries, results in request order",
      minKeyRole: "viewer",
      idempotent: true,
      body: c.ComputeBatchRequest,
      responses: { 200: { description: "One price or problem per item", schema: c.ComputeBatchResponse } },
    }),
  ),
  listInstanceTypes: defineRoute(
    v1({
      operationId: "listInstanceTypes",
      method: "get",
      path: "/v1/pricing/compute/instance-types",
      tags: ["Compute prices"],
      summary: "The catalog's instance types with prices, for choosing right-sizing candidates",
      minKeyRole: "viewer",
      query: c.InstanceTypesQuery,
      responses: { 200: { description: "Instance types", schema: c.InstanceTypesResponse } },
    }),
  ),
  getAccount: defineRoute(
    v1({
      operationId: "getAccount",
      method: "get",
      path: "/v1/pricing/account",
      tags: ["Account"],
      summary: "The account and key this request authenticates as",
      minKeyRole: "viewer",
      responses: { 200: { description: "Account and key ids", schema: c.AccountInfo } },
    }),
  ),
  registerModels: defineRoute(
    market({
      operationId: "registerModels",
      method: "post",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "Register custom model token prices (versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterModelsRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterModelsResponse } },
    }),
  ),
  listModels: defineRoute(
    market({
      operationId: "listModels",
      method: "get",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "List model prices (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.ModelListQuery,
      responses: { 200: { description: "Entries, newest first", schema: c.ListModelsResponse } },
    }),
  ),
  closeModel: defineRoute(
    market({
      operationId: "closeModel",
      method: "delete",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "Close a model price row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteModelsResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
  registerDatabases: defineRoute(
    market({
      operationId: "registerDatabases",
      method: "post",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "Register custom managed-database rates (upsert on the natural key)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterDatabasesRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterDatabasesResponse } },
    }),
  ),
  listDatabases: defineRoute(
    market({
      operationId: "listDatabases",
      method: "get",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "List database prices",
      minKeyRole: "viewer",
      query: c.DatabaseListQuery,
      responses: { 200: { description: "Entries", schema: c.ListDatabasesResponse } },
    }),
  ),
  deleteDatabase: defineRoute(
    market({
      operationId: "deleteDatabase",
      method: "delete",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "Remove a database price",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The removed row", schema: c.DeleteDatabasesResponse },
        404: error("Unknown or another account's id"),
        409: error("A pin or a report still references the entry (code `conflict`)"),
      },
    }),
  ),
  registerComputePrices: defineRoute(
    market({
      operationId: "registerComputePrices",
      method: "post",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "Register negotiated compute prices: fixed rates or discounts (versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterComputePricesRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterComputePricesResponse } },
    }),
  ),
  listComputePrices: defineRoute(
    market({
      operationId: "listComputePrices",
      method: "get",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "List negotiated compute prices (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.ComputePricingListQuery,
      responses: { 200: { description: "Entries, newest first", schema: c.ListComputePricesResponse } },
    }),
  ),
  closeComputePrice: defineRoute(
    market({
      operationId: "closeComputePrice",
      method: "delete",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "Close a negotiated compute price row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteComputePricesResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
  registerCommitmentRates: defineRoute(
    market({
      operationId: "registerCommitmentRates",
      method: "post",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "Register commitment rates (Savings Plans, Reserved Instances, committed use; versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterCommitmentRatesRequest,
      responses: {
        201: { description: "Stored rates", schema: c.RegisterCommitmentRatesResponse },
        409: error("The batch would leave the account with more than 100 live commitment rates (code `limit_reached`); nothing stored"),
      },
    }),
  ),
  listCommitmentRates: defineRoute(
    market({
      operationId: "listCommitmentRates",
      method: "get",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "List commitment rates (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.CommitmentRateListQuery,
      responses: { 200: { description: "Rates, newest first", schema: c.ListCommitmentRatesResponse } },
    }),
  ),
  closeCommitmentRate: defineRoute(
    market({
      operationId: "closeCommitmentRate",
      method: "delete",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "Close a commitment rate row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteCommitmentRatesResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
  listPins: defineRoute(
    v1({
      operationId: "listPins",
      method: "get",
      path: "/v1/pricing/pins",
      tags: ["Pins"],
      summary: "List pins (of one pricing entry with pricing_id)",
      minKeyRole: "viewer",
      query: c.PinListQuery,
      responses: { 200: { description: "Pins", schema: c.PinList } },
    }),
  ),
  putPin: defineRoute(
    v1({
      operationId: "putPin",
      method: "put",
      path: "/v1/pricing/pins/{kind}/{resource_id}",
      tags: ["Pins"],
      summary: "Pin a resource to a pricing entry",
      minKeyRole: "member",
      params: c.PinPathParams,
      body: c.PinRequest,
      responses: { 200: { description: "The pin", schema: c.Pin }, 404: problem("Unknown, closed or another account's pricing id") },
    }),
  ),
  deletePin: defineRoute(
    v1({
      operationId: "deletePin",
      method: "delete",
      path: "/v1/pricing/pins/{kind}/{resource_id}",
      tags: ["Pins"],
      summary: "Unpin a resource",
      minKeyRole: "member",
      params: c.PinPathParams,
      responses: { 204: { description: "Unpinned", schema: null }, 404: problem("No such pin") },
    }),
  ),
  priceUsage: defineRoute(
    v1({
      operationId: "priceUsage",
      method: "post",
      path: "/v1/pricing/usage",
      tags: ["Usage"],
      summary: "Price usage lines without storing them",
      minKeyRole: "viewer",
      idempotent: true,
      bodyLimit: USAGE_BODY_LIMIT,
      body: c.UsageRequest,
      responses: { 200: { description: "Priced lines and totals", schema: c.UsageResponse } },
    }),
  ),
  createReport: defineRoute(
    v1({
      operationId: "createReport",
      method: "post",
      path: "/v1/pricing/reports",
      tags: ["Reports"],
      summary: "Price and store a report",
      minKeyRole: "member",
      idempotent: true,
      bodyLimit: USAGE_BODY_LIMIT,
      body: c.CreateReportRequest,
      responses: { 201: { description: "The stored report", schema: c.Report } },
    }),
  ),
  getReport: defineRoute(
    v1({
      operationId: "getReport",
      method: "get",
      path: "/v1/pricing/reports/{id}",
      tags: ["Reports"],
      summary: "Read a report exactly as priced at creation",
      minKeyRole: "viewer",
      params: c.ReportPathParams,
      responses: { 200: { description: "The report", schema: c.Report }, 404: problem("Unknown report") },
    }),
  ),
  deleteReport: defineRoute(
    v1({
      operationId: "deleteReport",
      method: "delete",
      path: "/v1/pricing/reports/{id}",
      tags: ["Reports"],
      summary: "Delete a report and its references",
      minKeyRole: "admin",
      params: c.ReportPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: problem("Unknown report") },
    }),
  ),
  pricingHealthz: defineRoute({
    operationId: "pricingHealthz",
    method: "get",
    path: "/healthz",
    tags: ["Operations"],
    summary: "Process up",
    errors: "marketplace",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "Up", schema: PricingHealth } },
  }),
  pricingReadyz: defineRoute({
    operationId: "pricingReadyz",
    method: "get",
    path: "/readyz",
    tags: ["Operations"],
    summary: "Database reachable, migrations applied, catalog loaded",
    errors: "marketplace",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "Ready", schema: PricingReady }, 503: error("Not ready: what is missing") },
  }),
} as const;

/** Every operation of the pricing API: the public ones and the service-token `/internal` ones. */
export const pricingApiRoutes = { ...pricingPublicRoutes, ...pricingInternalRoutes } as const;
