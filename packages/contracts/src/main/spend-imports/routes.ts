import { z } from "zod";
import type { RouteDefinition } from "../../api/route.js";
import { PaginationQuery, ServiceId } from "../../common.js";
import { defineRoute, failure, MANAGERS, ok } from "../declare.js";
import * as s from "./schemas.js";

const OrgParams = z.object({ org_id: ServiceId });
const ImportParams = z.object({ org_id: ServiceId, id: ServiceId });
const SessionParams = z.object({ org_id: ServiceId, id: s.ImportSessionId });
type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope" | "tags" | "roles">;
type Managed<S> = S & { errors: "envelope"; auth: "bearer"; scope: "organization"; tags: string[]; roles: typeof MANAGERS };

/** Acts within the organization named by `{org_id}`, for its owners and admins (the service checks). */
const managed = <const S extends Spec>(spec: S): Managed<S> => ({
  errors: "envelope",
  auth: "bearer",
  scope: "organization",
  tags: ["Spend"],
  roles: MANAGERS,
  ...spec,
});

export const FOCUS_CONTENT_TYPES = ["text/csv", "application/vnd.apache.parquet"] as const;
export const SPEND_IMPORT_BODY_LIMIT = "SPEND_IMPORT_MAX_BYTES (default 1 GiB)";

/** Cloud bills imported as FOCUS files, and the rules that allocate their lines to tenants (owners and admins). */
export const mainApiSpendImportRoutes = {
  createSpendImport: defineRoute(
    managed({
      operationId: "createSpendImport",
      method: "post",
      path: "/api/v1/organizations/{org_id}/spend/imports",
      summary: "Import a FOCUS file (CSV, gzip CSV or Parquet) of a cloud bill",
      description:
        "The body is the file itself, streamed: `Content-Type: text/csv` (optionally `Content-Encoding: gzip`) or " +
        "`application/vnd.apache.parquet`. FOCUS 1.0 to 1.3 column sets are accepted; a missing required column, or a row that breaks " +
        "a rule (named by its row number and column), is a 400 and nothing is stored. Rows are allocated to tenants by the allocation " +
        "rules; the lines of earlier imports for every (billing account, billing period) pair the file holds are replaced in the same transaction. " +
        "With `session`, `part` and `parts` the file is one part of an import session: parts are kept out of every query until the last " +
        "one arrives, then the session is stored (and replaces earlier lines) as one import; a part sent again replaces that part. An " +
        "incomplete session expires 24 hours after its first part. Instead of `parts`, an AWS Data Exports `Manifest.json` " +
        "(`application/json`, `?session=` only) may fix the part count: its data files are then sent as parts 1 to N. An organization " +
        "has at most 20 open (pending) sessions, and its staged parts hold at most twice `SPEND_IMPORT_MAX_BYTES` (409 `limit_reached` beyond). " +
        "`Idempotency-Key` is honoured: the same key with the same file (bytes, media type, encoding and query) replays the first answer.",
      write: true,
      idempotent: true,
      params: OrgParams,
      query: s.SpendImportQuery,
      rawBody: {
        contentTypes: [...FOCUS_CONTENT_TYPES, "application/json"],
        contentEncodings: ["gzip"],
        description: "A FOCUS file (CSV, optionally gzip-compressed, or Parquet), or an import session's manifest (`application/json`, at most 1 MiB).",
        json: s.SpendImportManifest,
      },
      bodyLimit: SPEND_IMPORT_BODY_LIMIT,
      responses: {
        201: ok("Imported (a file), or the session's manifest stored", s.SpendImportPosted),
        409: failure(
          "The import session is already completed (restate it with a new session id); or `limit_reached`: the organization's open sessions or staged bytes are at their limit",
        ),
      },
    }),
  ),
  listSpendImports: defineRoute(
    managed({
      operationId: "listSpendImports",
      method: "get",
      path: "/api/v1/organizations/{org_id}/spend/imports",
      summary: "The organization's FOCUS imports, newest first (paginated)",
      params: OrgParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of imports", s.SpendImportPage) },
    }),
  ),
  listSpendImportSessions: defineRoute(
    managed({
      operationId: "listSpendImportSessions",
      method: "get",
      path: "/api/v1/organizations/{org_id}/spend/import-sessions",
      summary: "The organization's import sessions with the parts received, newest first (paginated; without the manifests' data files)",
      params: OrgParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of import sessions", s.SpendImportSessionPage) },
    }),
  ),
  getSpendImportSession: defineRoute(
    managed({
      operationId: "getSpendImportSession",
      method: "get",
      path: "/api/v1/organizations/{org_id}/spend/import-sessions/{id}",
      summary: "One import session with its parts received and its manifest's data files",
      params: SessionParams,
      responses: { 200: ok("The import session", s.SpendImportSessionFound), 404: failure("No such import session in the organization") },
    }),
  ),
  getSpendImport: defineRoute(
    managed({
      operationId: "getSpendImport",
      method: "get",
      path: "/api/v1/organizations/{org_id}/spend/imports/{id}",
      summary: "One FOCUS import",
      params: ImportParams,
      responses: { 200: ok("The import", s.SpendImportCreated), 404: failure("No such import in the organization") },
    }),
  ),
  deleteSpendImport: defineRoute(
    managed({
      operationId: "deleteSpendImport",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/spend/imports/{id}",
      summary: "Delete a FOCUS import and its lines",
      write: true,
      params: ImportParams,
      responses: { 204: { description: "Deleted with its lines", schema: null }, 404: failure("No such import in the organization") },
    }),
  ),
  getAllocationRules: defineRoute(
    managed({
      operationId: "getAllocationRules",
      method: "get",
      path: "/api/v1/organizations/{org_id}/spend/allocation-rules",
      summary: "The rules that allocate imported lines to tenants",
      params: OrgParams,
      responses: { 200: ok("The rules", s.SpendAllocationRules) },
    }),
  ),
  putAllocationRules: defineRoute(
    managed({
      operationId: "putAllocationRules",
      method: "put",
      path: "/api/v1/organizations/{org_id}/spend/allocation-rules",
      summary: "Replace the allocation rules; stored import lines are re-allocated in the same transaction",
      write: true,
      params: OrgParams,
      body: s.SpendAllocationRules,
      responses: { 200: ok("Stored, and the stored import lines re-allocated", s.SpendAllocationRulesUpdated) },
    }),
  ),
} as const;
