import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as s from "./schemas.js";

const tags = ["Statements"];
const NOT_FOUND = failure("No such statement (or recipient) in the organization");

/** `/api/v1/organizations/{org_id}/statements`: showback statements; owners and admins only. */
export const mainApiStatementRoutes = {
  createStatement: defineRoute(
    inOrganization({
      tags,
      operationId: "createStatement",
      method: "post",
      path: "/api/v1/organizations/{org_id}/statements",
      summary: "Compute and store a month's statement by tenant or by a dimension (owner/admin)",
      description: `A draft, numbered \`<period>-<sequence>\`. The period may not be in the future nor more than ${s.MAX_STATEMENT_MONTHS_BACK} months back.`,
      roles: MANAGERS,
      write: true,
      params: OrganizationPathParams,
      body: s.CreateStatementRequest,
      responses: { 201: ok("The statement", s.Statement) },
    }),
  ),
  listStatements: defineRoute(
    inOrganization({
      tags,
      operationId: "listStatements",
      method: "get",
      path: "/api/v1/organizations/{org_id}/statements",
      summary: "The organization's statements, newest first (owner/admin)",
      roles: MANAGERS,
      params: OrganizationPathParams,
      responses: { 200: ok("The statements", s.Statements) },
    }),
  ),
  getStatement: defineRoute(
    inOrganization({
      tags,
      operationId: "getStatement",
      method: "get",
      path: "/api/v1/organizations/{org_id}/statements/{id}",
      summary: "A statement (owner/admin)",
      roles: MANAGERS,
      params: s.StatementPathParams,
      responses: { 200: ok("The statement", s.Statement), 404: NOT_FOUND },
    }),
  ),
  finalizeStatement: defineRoute(
    inOrganization({
      tags,
      operationId: "finalizeStatement",
      method: "post",
      path: "/api/v1/organizations/{org_id}/statements/{id}/finalize",
      summary: "Make a draft statement final (owner/admin)",
      roles: MANAGERS,
      write: true,
      params: s.StatementPathParams,
      responses: { 200: ok("The final statement", s.Statement), 404: NOT_FOUND, 409: failure("The statement is already final") },
    }),
  ),
  deleteStatement: defineRoute(
    inOrganization({
      tags,
      operationId: "deleteStatement",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/statements/{id}",
      summary: "Delete a draft statement (owner/admin)",
      roles: MANAGERS,
      write: true,
      params: s.StatementPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: NOT_FOUND, 409: failure("A final statement is never deleted") },
    }),
  ),
  getRecipientStatementCsv: defineRoute(
    inOrganization({
      tags,
      operationId: "getRecipientStatementCsv",
      method: "get",
      path: "/api/v1/organizations/{org_id}/statements/{id}/recipients/{value}.csv",
      summary: "A recipient's statement as CSV (owner/admin)",
      roles: MANAGERS,
      params: s.RecipientPathParams,
      responses: { 200: { description: "The statement's lines", schema: s.StatementCsvFile, contentType: "text/csv" }, 404: NOT_FOUND },
    }),
  ),
  getRecipientStatementPdf: defineRoute(
    inOrganization({
      tags,
      operationId: "getRecipientStatementPdf",
      method: "get",
      path: "/api/v1/organizations/{org_id}/statements/{id}/recipients/{value}.pdf",
      summary: "A recipient's statement as a one-page PDF (owner/admin)",
      roles: MANAGERS,
      params: s.RecipientPathParams,
      responses: { 200: { description: "The statement", schema: s.StatementPdfFile, contentType: "application/pdf" }, 404: NOT_FOUND },
    }),
  ),
  getRecipientStatement: defineRoute(
    inOrganization({
      tags,
      operationId: "getRecipientStatement",
      method: "get",
      path: "/api/v1/organizations/{org_id}/statements/{id}/recipients/{value}",
      summary: "A recipient's statement: its sections and total (owner/admin)",
      description: "`value` is the tenant's id or the dimension's value, URL-encoded.",
      roles: MANAGERS,
      params: s.RecipientPathParams,
      responses: { 200: ok("The recipient's statement", s.RecipientStatement), 404: NOT_FOUND },
    }),
  ),
} as const;
