import { replayHeaders } from "@cloudcost/http";
import { redetectAfterImport } from "../../anomalies/service";
import { checkBudgetsAfterSpend } from "../../budgets/after-spend";
import type { AppDeps } from "../../deps";
import { created, success } from "../../http/envelope";
import type { Handlers } from "../../operations";
import { deleteImport, getAllocationRules, getImport, getImportSession, listImportSessions, listImports, postSpendImport, putAllocationRules } from "./service";

/** `/api/v1/organizations/{org_id}/spend/imports` and `.../spend/allocation-rules` (owners and admins: authorize checks the table's roles). */
export function spendImportHandlers(
  deps: Pick<AppDeps, "prisma" | "config" | "outbox" | "logger" | "clock">,
): Handlers<
  | "createSpendImport"
  | "listSpendImportSessions"
  | "getSpendImportSession"
  | "listSpendImports"
  | "getSpendImport"
  | "deleteSpendImport"
  | "getAllocationRules"
  | "putAllocationRules"
> {
  return {
    createSpendImport: async ({ params, query, body: manifest }, { principal, body }) => {
      const posted = await postSpendImport(
        deps.prisma,
        principal,
        params.org_id,
        body,
        { fileName: query.file_name, session: query.session, part: query.part, parts: query.parts, manifest },
        { maxBytes: deps.config.spendImportMaxBytes, ttlMs: deps.config.spendImportSessionTtlMs, now: deps.clock() },
      );
      if (posted.replay) {
        // The first answer to this Idempotency-Key and file, sent again as it was.
        return { status: posted.replay.status as 201, headers: replayHeaders(posted.replay), text: posted.replay.body };
      }
      if (!posted.import) return created(`Manifest of import session ${posted.session?.id} stored.`, { session: posted.session });
      if (posted.committed) {
        deps.outbox.kick(); // import.completed was queued in the import's transaction
        await checkBudgetsAfterSpend(deps, params.org_id, null);
        // Bills arrive late: the days the bill holds are scored again (from its billing periods' first day, at most 93 days back).
        await redetectAfterImport(
          deps,
          params.org_id,
          posted.import.billing_periods.map((period) => period.start),
          deps.clock(),
        );
      }
      const message = posted.session
        ? `Stored part ${posted.import.part} of ${posted.import.parts} of import session ${posted.session.id} (${posted.session.state}).`
        : `Imported ${posted.import.rows} rows.`;
      return created(message, { import: posted.import, ...(posted.session ? { session: posted.session } : {}) });
    },
    listSpendImportSessions: async ({ params, query }, { principal }) =>
      success("Import sessions of the organization.", await listImportSessions(deps.prisma, principal, params.org_id, query)),
    getSpendImportSession: async ({ params }, { principal }) =>
      success("The import session.", { session: await getImportSession(deps.prisma, principal, params.org_id, params.id) }),
    listSpendImports: async ({ params, query }, { principal }) =>
      success("FOCUS imports of the organization.", await listImports(deps.prisma, principal, params.org_id, query)),
    getSpendImport: async ({ params }, { principal }) => success("The import.", { import: await getImport(deps.prisma, principal, params.org_id, params.id) }),
    deleteSpendImport: async ({ params }, { principal }) => {
      await deleteImport(deps.prisma, principal, params.org_id, params.id);
      await checkBudgetsAfterSpend(deps, params.org_id, null);
      return { status: 204 };
    },
    getAllocationRules: async ({ params }, { principal }) => success("Allocation rules.", await getAllocationRules(deps.prisma, principal, params.org_id)),
    putAllocationRules: async ({ params, body }, { principal }) => {
      const result = await putAllocationRules(deps.prisma, principal, params.org_id, body);
      if (result.reallocated_lines > 0) {
        await checkBudgetsAfterSpend(deps, params.org_id, null);
        // Lines moved between tenants: every tenant's last 93 days are scored again.
        const now = deps.clock();
        await redetectAfterImport(deps, params.org_id, [new Date(now.getTime() - 93 * 86_400_000).toISOString()], now);
      }
      return success("Allocation rules stored; stored import lines re-allocated.", result);
    },
  };
}
