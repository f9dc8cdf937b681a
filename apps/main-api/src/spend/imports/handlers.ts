import { replayHeaders } from "@cloudcost/http";
import { anomalyServiceOver, redetectAfterImport } from "../../anomalies/service";
import { checkBudgetsAfterSpend } from "../../budgets/after-spend";
import { budgetServiceOver } from "../../budgets/service";
import type { AppDeps } from "../../deps";
import { created, success } from "../../http/envelope";
import type { Handlers } from "../../operations";
import { spendLinesRepository } from "../lines-repository";
import { importRepository } from "./repository";
import { createImportService } from "./service";

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
  const imports = createImportService({ prisma: deps.prisma, imports: importRepository, lines: spendLinesRepository });
  // What an import changes is checked against the budgets and scored for anomalies after it commits.
  const after = { ...deps, budgets: budgetServiceOver(deps.prisma), anomalies: anomalyServiceOver(deps.prisma) };
  return {
    createSpendImport: async ({ query, body: manifest }, ctx) => {
      const posted = await imports.postSpendImport(
        ctx,
        ctx.body,
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
        await checkBudgetsAfterSpend(after, ctx.organization.id, null);
        // Bills arrive late: the days the bill holds are scored again (from its billing periods' first day, at most 93 days back).
        await redetectAfterImport(
          after,
          ctx.organization.id,
          posted.import.billing_periods.map((period) => period.start),
          deps.clock(),
        );
      }
      const message = posted.session
        ? `Stored part ${posted.import.part} of ${posted.import.parts} of import session ${posted.session.id} (${posted.session.state}).`
        : `Imported ${posted.import.rows} rows.`;
      return created(message, { import: posted.import, ...(posted.session ? { session: posted.session } : {}) });
    },
    listSpendImportSessions: async ({ query }, ctx) => success("Import sessions of the organization.", await imports.listImportSessions(ctx, query)),
    getSpendImportSession: async ({ params }, ctx) => success("The import session.", { session: await imports.getImportSession(ctx, params.id) }),
    listSpendImports: async ({ query }, ctx) => success("FOCUS imports of the organization.", await imports.listImports(ctx, query)),
    getSpendImport: async ({ params }, ctx) => success("The import.", { import: await imports.getImport(ctx, params.id) }),
    deleteSpendImport: async ({ params }, ctx) => {
      await imports.deleteImport(ctx, params.id);
      await checkBudgetsAfterSpend(after, ctx.organization.id, null);
      return { status: 204 };
    },
    getAllocationRules: async (_input, ctx) => success("Allocation rules.", await imports.getAllocationRules(ctx)),
    putAllocationRules: async ({ body }, ctx) => {
      const result = await imports.putAllocationRules(ctx, body);
      if (result.reallocated_lines > 0) {
        await checkBudgetsAfterSpend(after, ctx.organization.id, null);
        // Lines moved between tenants: every tenant's last 93 days are scored again.
        const now = deps.clock();
        await redetectAfterImport(after, ctx.organization.id, [new Date(now.getTime() - 93 * 86_400_000).toISOString()], now);
      }
      return success("Allocation rules stored; stored import lines re-allocated.", result);
    },
  };
}
