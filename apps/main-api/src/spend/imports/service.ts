import type { OrganizationContext } from "../../context";
import {
  ImportSessionId,
  type PaginationQuery,
  type SpendAllocationRules,
  type SpendImport,
  type SpendImportManifest,
  type SpendImportSession,
} from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest, deferredIdempotencyOf, notFound, type RawBody, type StoredResponse } from "@cloudcost/http";
import { decodeCursor, toPage } from "../../http/pagination";
import { assertLiveTenants } from "../../tenants/validate";
import { emitWebhookEvent } from "../../webhooks/events";
import type { FocusReadInfo } from "../focus";
import { allocator } from "./allocation";
import { createImportSessions, type ImportSessionDeps, type SessionClock } from "./sessions";
import type { ReceivedFocusBody } from "./body";
import { storeFocusLines, withReceivedBody } from "./store";
import { FILE_TRANSACTION, SHORT_TRANSACTION } from "./transactions";
import { toSpendImport, toSpendImportSession, toSpendImportSessionSummary } from "./views";

/** What POST .../spend/imports stored: a file (`import`, with `session` for a part) or a manifest (`session`); or the answer to replay. */
export interface PostedImport {
  import?: SpendImport;
  session?: SpendImportSession;
  /** The request stored lines in spend_lines (a plain import, or the part that completed its session). */
  committed: boolean;
  /** The first answer to a request with the same `Idempotency-Key` and file: nothing was done, it is sent again. */
  replay?: StoredResponse;
}

/** The sessions' deps: `prisma` opens the transactions, `imports` and `lines` hold every query. */
export type ImportServiceDeps = ImportSessionDeps;

export type ImportService = ReturnType<typeof createImportService>;

/** An organization's FOCUS imports, import sessions and allocation rules (owners and admins). */
export function createImportService(deps: ImportServiceDeps) {
  const { prisma, imports, lines } = deps;
  const sessions = createImportSessions(deps);

  /**
   * POST .../spend/imports: a plain FOCUS file (importFocus), a part of an import session
   * (importPart), or a session's manifest (storeManifest). The combination of `session`, `part`,
   * `parts` and the body's type is checked first, each mistake a 400 naming the parameter.
   */
  async function postSpendImport(
    { organization: { id: organizationId } }: OrganizationContext,
    raw: RawBody,
    request: { fileName?: string; session?: string; part?: number; parts?: number; manifest?: SpendImportManifest },
    options: { maxBytes: number } & SessionClock,
  ): Promise<PostedImport> {
    const { session, part, parts, manifest } = request;
    try {
      if (manifest !== undefined) {
        if (session === undefined) throw badRequest("session is required with a manifest (application/json): post it as ?session=<id>.");
        if (part !== undefined || parts !== undefined)
          throw badRequest("A manifest is posted with session only: leave out part and parts (the manifest's dataFiles fixes them).");
      } else if (session === undefined) {
        if (part !== undefined || parts !== undefined)
          throw badRequest(`${part !== undefined ? "part" : "parts"} needs session: a part belongs to an import session.`);
      } else {
        if (part === undefined) throw badRequest("part is required with session (or post the session's manifest as application/json).");
        if (parts !== undefined && part > parts) throw badRequest(`part (${part}) is larger than parts (${parts}).`);
      }
    } catch (err) {
      // The refused body is read and dropped, so that the answer reaches the client.
      if (!raw.stream.readableEnded) raw.stream.resume();
      throw err;
    }
    if (manifest !== undefined && session !== undefined)
      return { session: await sessions.storeManifest(organizationId, session, manifest, options), committed: false };
    return withReceivedBody(raw, options.maxBytes, async (received) => {
      // With an Idempotency-Key, the key is claimed now that the file's digest is known.
      const replay = await deferredIdempotencyOf(raw.stream)?.claim(received.digest);
      if (replay) return { replay, committed: false };
      if (session === undefined || part === undefined)
        return { import: await importFocus(organizationId, received, { maxBytes: options.maxBytes, fileName: request.fileName }), committed: true };
      const stored = await sessions.importPart(organizationId, received, { session, part, parts, fileName: request.fileName }, options);
      return { import: stored.import, session: stored.session, committed: stored.completed };
    });
  }

  /**
   * Imports the request's FOCUS file: every line allocated by the rules and
   * stored with the daily roll-up, then the lines of earlier imports for the same (billing account,
   * billing period) pairs deleted, all in one transaction with its `import.completed` event (the
   * caller kicks the outbox). A bad row is a 400 and nothing is stored.
   */
  async function importFocus(organizationId: string, received: ReceivedFocusBody, options: { maxBytes: number; fileName?: string }): Promise<SpendImport> {
    const id = newId("imp");
    const info: FocusReadInfo = {};
    return prisma.$transaction(async (tx) => {
      await imports.lockOrganizationImports(tx, organizationId);
      const allocate = allocator(await imports.readRules(tx, organizationId));
      const tally = await storeFocusLines(lines, tx, organizationId, id, received, allocate, { info, maxBytes: options.maxBytes });
      await lines.rollupImport(tx, organizationId, id);
      const superseded = await lines.deleteSupersededLines(tx, organizationId, id, tally.billingPairs());
      const created = await imports.insertImport(tx, {
        organizationId,
        id,
        fileName: options.fileName ?? null,
        ...tally.importFields(info),
        supersededImportIds: superseded,
      });
      const imported = toSpendImport(created);
      await emitWebhookEvent(tx, { organizationId, type: "import.completed", data: { ...imported } });
      return imported;
    }, FILE_TRANSACTION);
  }

  /** The organization's import sessions with their parts, newest first, without their manifests' data files (never read). */
  async function listImportSessions({ organization: { id: organizationId } }: OrganizationContext, query: PaginationQuery) {
    const before = decodeCursor(query.cursor, ImportSessionId);
    const rows = await imports.findSessions(prisma, organizationId, before, query.limit + 1);
    const parts = await imports.findSessionParts(
      prisma,
      organizationId,
      rows.slice(0, query.limit).map((row) => row.id),
    );
    return toPage(rows, query.limit, (row) =>
      toSpendImportSessionSummary(
        row,
        parts.filter((part) => part.sessionId === row.id),
      ),
    );
  }

  /** One import session with its parts and its manifest's data files. */
  async function getImportSession({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<SpendImportSession> {
    const row = await imports.findSession(prisma, organizationId, id);
    if (!row) throw notFound(`No import session ${id} in this organization.`);
    return toSpendImportSession(row, await imports.findSessionParts(prisma, organizationId, [id]));
  }

  /** The organization's imports, newest first. */
  async function listImports({ organization: { id: organizationId } }: OrganizationContext, query: PaginationQuery) {
    const before = decodeCursor(query.cursor);
    const rows = await imports.findImports(prisma, organizationId, before, query.limit + 1);
    return toPage(rows, query.limit, toSpendImport);
  }

  async function getImport({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<SpendImport> {
    const row = await imports.findImport(prisma, organizationId, id);
    if (!row) throw notFound(`No import ${id} in this organization.`);
    return toSpendImport(row);
  }

  /** Deletes an import and its lines (those no later import superseded), keeping the roll-up right. */
  async function deleteImport({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<void> {
    await prisma.$transaction(async (tx) => {
      await imports.lockOrganizationImports(tx, organizationId);
      if ((await imports.deleteImportRow(tx, organizationId, id)) === 0) throw notFound(`No import ${id} in this organization.`);
      await lines.deleteImportLines(tx, organizationId, [id]);
      await imports.deleteStagedLines(tx, organizationId, [id]);
    }, SHORT_TRANSACTION);
  }

  async function getAllocationRules({ organization: { id: organizationId } }: OrganizationContext): Promise<SpendAllocationRules> {
    return { rules: await imports.readRules(prisma, organizationId) };
  }

  /** Replaces the rules and re-allocates every stored import line under them, in one transaction. */
  async function putAllocationRules({ organization: { id: organizationId } }: OrganizationContext, body: SpendAllocationRules) {
    return prisma.$transaction(async (tx) => {
      await imports.lockOrganizationImports(tx, organizationId);
      await assertLiveTenants(
        tx,
        organizationId,
        body.rules.map((rule) => rule.tenant_id),
        "rules.tenant_id",
      );
      await imports.writeRules(tx, organizationId, body.rules);
      // Every stored import line of the organization under the new rules.
      const moves = await imports.findMisallocatedLines(tx, organizationId, body.rules);
      const moved = await lines.reallocateLines(
        tx,
        organizationId,
        moves.map((m) => ({ id: m.id, tenantId: m.tenant_id })),
      );
      return { rules: body.rules, reallocated_lines: moved };
    }, SHORT_TRANSACTION);
  }

  return { postSpendImport, listImportSessions, getImportSession, listImports, getImport, deleteImport, getAllocationRules, putAllocationRules };
}
