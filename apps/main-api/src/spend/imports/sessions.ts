import type { SpendImport, SpendImportManifest, SpendImportSession } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest, conflict, HttpError, type Periodic, startPeriodic } from "@cloudcost/http";
import type { Logger } from "pino";
import type { Prisma } from "../../db";
import type { SpendImport as ImportRow, SpendImportSession as SessionRow } from "../../generated/prisma/client";
import type { Tx } from "../../transactions";
import { emitWebhookEvent } from "../../webhooks/events";
import { type FocusReadInfo, FocusTooLargeError } from "../focus";
import { type SpendLinesRepository, spendLinesRepository } from "../lines-repository";
import { allocator } from "./allocation";
import { type ImportRepository, importRepository } from "./repository";
import type { ReceivedFocusBody } from "./body";
import { storeFocusLines } from "./store";
import { FILE_TRANSACTION, SHORT_TRANSACTION } from "./transactions";
import { toSpendImport, toSpendImportSession } from "./views";

/** How sessions age: `ttlMs` after the first part (or manifest), measured on `now`. */
export interface SessionClock {
  now: Date;
  ttlMs: number;
}

/** The most import sessions an organization may have open (pending) at once. */
export const MAX_OPEN_SESSIONS = 20;
/** An organization's pending parts hold at most this many times SPEND_IMPORT_MAX_BYTES between them. */
export const STAGED_BYTES_FACTOR = 2;

/**
 * Runs the parse of a part whose bytes may take at most `room` of the staged bound: past it (or with
 * no room at all) a 409 `limit_reached` naming the bound, rather than the file's own 413.
 */
async function stagedWithin<T>(room: number, maxBytes: number, parse: () => Promise<T>): Promise<T> {
  const refused = () =>
    new HttpError(
      "limit_reached",
      `The organization's staged parts (the parts of its open import sessions) hold at most ${STAGED_BYTES_FACTOR * maxBytes} bytes (${STAGED_BYTES_FACTOR} x SPEND_IMPORT_MAX_BYTES) once decoded, and this part does not fit: complete or let expire an open session first.`,
    );
  if (room <= 0) throw refused();
  try {
    return await parse();
  } catch (err) {
    if (err instanceof FocusTooLargeError && room < maxBytes) throw refused();
    throw err;
  }
}

/** The file name of data file `part` of a manifest: the last segment of its URI. */
function dataFileName(session: SessionRow, part: number): string | null {
  const uri = session.dataFiles[part - 1];
  if (!uri) return null;
  return uri.slice(uri.lastIndexOf("/") + 1).slice(0, 255) || null;
}

export interface ImportSessionDeps {
  /** Opens the transactions; the sessions' and imports' queries go through `imports`, the lines' writes through `lines`. */
  prisma: Prisma;
  imports: ImportRepository;
  lines: SpendLinesRepository;
}

export type ImportSessions = ReturnType<typeof createImportSessions>;

/** Import sessions: their parts and manifests, their commit, and the sweep of expired ones. */
export function createImportSessions(deps: ImportSessionDeps) {
  const { prisma, imports, lines } = deps;

  /**
   * The session `id` as a new part or manifest finds it (under the organization's import lock): an
   * expired pending session is removed first (its parts and staged lines), so that the request starts
   * it over; a completed one cannot take more parts (409).
   */
  async function liveSession(tx: Tx, organizationId: string, id: string, now: Date): Promise<SessionRow | null> {
    const session = await imports.findSession(tx, organizationId, id);
    if (!session) return null;
    if (session.state === "completed")
      throw conflict(`Import session ${id} is already completed; restate its billing periods with a new session id (which replaces it).`);
    if (session.expiresAt.getTime() <= now.getTime()) {
      await imports.deleteSession(tx, organizationId, id);
      return null;
    }
    return session;
  }

  /**
   * Removes the organization's pending sessions past their time (under its import lock), as the sweep
   * would: what they staged no longer counts against its quotas.
   */
  async function dropExpiredSessions(tx: Tx, organizationId: string, now: Date): Promise<void> {
    for (const id of await imports.findExpiredOrganizationSessions(tx, organizationId, now)) await imports.deleteSession(tx, organizationId, id);
  }

  /** A new session may start (under the organization's import lock, expired ones dropped): fewer than MAX_OPEN_SESSIONS are pending (409 beyond). */
  async function assertRoomForSession(tx: Tx, organizationId: string): Promise<void> {
    const open = await imports.countPendingSessions(tx, organizationId);
    if (open >= MAX_OPEN_SESSIONS)
      throw new HttpError(
        "limit_reached",
        `The organization has ${open} open import sessions, at most ${MAX_OPEN_SESSIONS} open import sessions at once: complete one (send its remaining parts) or let it expire before starting another.`,
      );
  }

  /**
   * Stores one part of an import session (docs/api.md, "Import sessions"): its lines staged, where no
   * query reads them, and its record `pending`. A part sent again replaces the earlier copy. The
   * part that completes the session commits it in the same transaction (commitSession).
   */
  async function importPart(
    organizationId: string,
    received: ReceivedFocusBody,
    request: { session: string; part: number; parts?: number; fileName?: string },
    options: { maxBytes: number } & SessionClock,
  ): Promise<{ import: SpendImport; session: SpendImportSession; completed: boolean }> {
    const id = newId("imp");
    const info: FocusReadInfo = {};
    return prisma.$transaction(async (tx) => {
      await imports.lockOrganizationImports(tx, organizationId);
      await dropExpiredSessions(tx, organizationId, options.now);
      let session = await liveSession(tx, organizationId, request.session, options.now);
      if (!session) {
        if (request.parts === undefined)
          throw badRequest(`parts is required: import session ${request.session} has no manifest, so its first part must say how many parts it has.`);
        await assertRoomForSession(tx, organizationId);
        session = await imports.insertSession(tx, {
          organizationId,
          id: request.session,
          parts: request.parts,
          dataFiles: [],
          supersededImportIds: [],
          createdAt: options.now,
          expiresAt: new Date(options.now.getTime() + options.ttlMs),
        });
      } else if (request.parts !== undefined && request.parts !== session.parts) {
        throw badRequest(`parts (${request.parts}) differs from the ${session.parts} parts import session ${request.session} was started with.`);
      }
      if (request.part > session.parts) throw badRequest(`part (${request.part}) is larger than the session's parts (${session.parts}).`);

      const stored = await imports.findSessionParts(tx, organizationId, [session.id]);
      const earlier = stored.filter((row) => row.part === request.part);
      if (earlier.length) {
        await imports.deleteStagedLines(
          tx,
          organizationId,
          earlier.map((row) => row.id),
        );
        for (const row of earlier) await imports.deleteImportRow(tx, organizationId, row.id);
      }
      const allocate = allocator(await imports.readRules(tx, organizationId));
      // A part that completes its session moves its lines on in this transaction: only the others stay staged.
      // (The parts stored but this one's earlier upload, just removed.)
      const completes = stored.length - earlier.length === session.parts - 1;
      const room = completes ? options.maxBytes : STAGED_BYTES_FACTOR * options.maxBytes - (await imports.stagedBytes(tx, organizationId));
      const tally = await stagedWithin(room, options.maxBytes, () =>
        storeFocusLines(lines, tx, organizationId, id, received, allocate, { info, maxBytes: Math.min(options.maxBytes, Math.max(0, room)), staged: true }),
      );
      let part = await imports.insertImport(tx, {
        organizationId,
        id,
        fileName: request.fileName ?? dataFileName(session, request.part),
        ...tally.importFields(info),
        supersededImportIds: [],
        sessionId: session.id,
        part: request.part,
        parts: session.parts,
        state: "pending",
      });
      let parts = await imports.findSessionParts(tx, organizationId, [session.id]);
      if (parts.length === session.parts) {
        ({ session, parts } = await commitSession(tx, organizationId, session, parts, options.now));
        part = parts.find((row) => row.id === id) ?? part;
      }
      return { import: toSpendImport(part), session: toSpendImportSession(session, parts), completed: session.state === "completed" };
    }, FILE_TRANSACTION);
  }

  /**
   * Commits a session whose every part has arrived, inside the transaction of its last part: the
   * earlier lines of every (billing account, billing period) pair its parts hold are deleted (before
   * its own lines reach spend_lines, so that its parts never replace one another), its staged lines
   * move to spend_lines allocated by the current rules, the roll-ups take them, and one
   * `import.completed` is recorded with the session's totals.
   */
  async function commitSession(
    tx: Tx,
    organizationId: string,
    session: SessionRow,
    parts: ImportRow[],
    now: Date,
  ): Promise<{ session: SessionRow; parts: ImportRow[] }> {
    const ids = parts.map((part) => part.id);
    const pairs = await imports.stagedBillingPairs(tx, organizationId, ids);
    const superseded = await lines.deleteSupersededLines(tx, organizationId, ids[0], pairs);
    await imports.moveStagedLines(tx, organizationId, ids, await imports.readRules(tx, organizationId));
    await lines.rollupImports(tx, organizationId, ids);
    await imports.markPartsCompleted(tx, organizationId, session.id);
    const counts = new Map((await imports.allocatedCounts(tx, organizationId, ids)).map((row) => [row.import_id, row]));
    const updated: ImportRow[] = [];
    for (const part of parts) {
      const allocated = counts.get(part.id)?.allocated ?? 0;
      updated.push(
        await imports.updateImport(tx, organizationId, part.id, { allocatedRows: allocated, unallocatedRows: part.rows - allocated, state: "completed" }),
      );
    }
    const committed = await imports.updateSession(tx, organizationId, session.id, { state: "completed", completedAt: now, supersededImportIds: superseded });
    const view = toSpendImportSession(committed, updated);
    const allocatedRows = updated.reduce((sum, part) => sum + part.allocatedRows, 0);
    await emitWebhookEvent(tx, {
      organizationId,
      type: "import.completed",
      data: {
        session: view.id,
        execution_id: view.execution_id,
        parts: view.parts,
        import_ids: ids,
        rows: view.rows,
        allocated_rows: allocatedRows,
        unallocated_rows: view.rows - allocatedRows,
        billing_account_ids: [...new Set(pairs.map((pair) => pair.billingAccountId))].sort(),
        billing_periods: [...new Map(pairs.map((pair) => [`${pair.start}/${pair.end}`, { start: pair.start, end: pair.end }])).values()].sort((a, b) =>
          a.start === b.start ? (a.end < b.end ? -1 : 1) : a.start < b.start ? -1 : 1,
        ),
        totals: view.totals,
        superseded_import_ids: superseded,
      },
    });
    return { session: committed, parts: updated };
  }

  /**
   * Stores an AWS Data Exports manifest for the session `id`: its data files fix the part count (a
   * session started with another `parts` is a 400), its executionId is kept. A new session starts
   * here (its expiry counts from now).
   */
  async function storeManifest(organizationId: string, id: string, manifest: SpendImportManifest, clock: SessionClock): Promise<SpendImportSession> {
    const files = manifest.dataFiles;
    return prisma.$transaction(async (tx) => {
      await imports.lockOrganizationImports(tx, organizationId);
      await dropExpiredSessions(tx, organizationId, clock.now);
      const session = await liveSession(tx, organizationId, id, clock.now);
      const fields = { executionId: manifest.executionId ?? null, dataFiles: files };
      let stored: SessionRow;
      if (!session) {
        await assertRoomForSession(tx, organizationId);
        stored = await imports.insertSession(tx, {
          organizationId,
          id,
          parts: files.length,
          ...fields,
          supersededImportIds: [],
          createdAt: clock.now,
          expiresAt: new Date(clock.now.getTime() + clock.ttlMs),
        });
      } else {
        if (session.parts !== files.length)
          throw badRequest(`The manifest's dataFiles names ${files.length} files, but import session ${id} was started with parts=${session.parts}.`);
        stored = await imports.updateSession(tx, organizationId, id, fields);
      }
      return toSpendImportSession(stored, await imports.findSessionParts(tx, organizationId, [id]));
    }, SHORT_TRANSACTION);
  }

  /**
   * Removes the pending sessions whose time ran out at `now` (their parts and staged lines), one
   * organization's turn on the import lock at a time; a session completed or started over meanwhile
   * is left alone. Returns the sessions removed.
   */
  async function sweepExpired(now: Date, batch = 100): Promise<number> {
    let removed = 0;
    for (;;) {
      const expired = await imports.findExpiredSessions(prisma, now, batch);
      for (const { organizationId, id } of expired) {
        await prisma.$transaction(async (tx) => {
          await imports.lockOrganizationImports(tx, organizationId);
          const session = await imports.findSession(tx, organizationId, id);
          if (session?.state !== "pending" || session.expiresAt.getTime() > now.getTime()) return;
          await imports.deleteSession(tx, organizationId, id);
          removed += 1;
        }, SHORT_TRANSACTION);
      }
      if (expired.length < batch) return removed;
    }
  }

  return { importPart, storeManifest, sweepExpired };
}

/** The sweep of expired import sessions over the import and lines repositories (the schedule's and the tests'). */
export function sweepExpiredImportSessions(prisma: Prisma, now: Date, batch = 100): Promise<number> {
  return createImportSessions({ prisma, imports: importRepository, lines: spendLinesRepository }).sweepExpired(now, batch);
}

/** Sweeps expired import sessions every `intervalMinutes` (0: never), first at start; replicas may all run it (each removal takes the organization's import lock). */
export function startImportSessionSweep(deps: { prisma: Prisma; logger: Logger; clock: () => Date }, intervalMinutes: number): Periodic {
  const sessions = createImportSessions({ prisma: deps.prisma, imports: importRepository, lines: spendLinesRepository });
  return startPeriodic({
    intervalMs: intervalMinutes * 60_000,
    runAtStart: true,
    run: async () => {
      const removed = await sessions.sweepExpired(deps.clock());
      if (removed > 0) deps.logger.info({ removed }, "expired import sessions removed");
    },
    onError: (err) => deps.logger.error({ err }, "import session sweep failed"),
  });
}
