import { principalOf } from "../../auth/middleware";
import { checkBudgetsAfterSpend } from "../../budgets/after-spend";
import type { AppDeps } from "../../deps";
import { created, success } from "../../http/envelope";
import type { Handlers } from "../../operations";
import { focusFormatOf } from "./body";
import { deleteImport, getAllocationRules, getImport, importFocus, listImports, putAllocationRules } from "./service";

/** `/api/v1/organizations/{org_id}/spend/imports` and `.../spend/allocation-rules` (owners and admins; the service checks). */
export function spendImportHandlers(
  deps: Pick<AppDeps, "prisma" | "config" | "outbox" | "logger">,
): Handlers<"createSpendImport" | "listSpendImports" | "getSpendImport" | "deleteSpendImport" | "getAllocationRules" | "putAllocationRules"> {
  return {
    createSpendImport: async ({ params, query }, req) => {
      // A body that is no FOCUS file type is refused before the caller is (validation before authorization).
      focusFormatOf(req);
      const imported = await importFocus(deps.prisma, principalOf(req), params.org_id, req, {
        maxBytes: deps.config.spendImportMaxBytes,
        fileName: query.file_name,
      });
      deps.outbox.kick(); // import.completed was queued in the import's transaction
      await checkBudgetsAfterSpend(deps, params.org_id, null);
      return created(`Imported ${imported.rows} rows.`, { import: imported });
    },
    listSpendImports: async ({ params, query }, req) =>
      success("FOCUS imports of the organization.", await listImports(deps.prisma, principalOf(req), params.org_id, query)),
    getSpendImport: async ({ params }, req) => success("The import.", { import: await getImport(deps.prisma, principalOf(req), params.org_id, params.id) }),
    deleteSpendImport: async ({ params }, req) => {
      await deleteImport(deps.prisma, principalOf(req), params.org_id, params.id);
      await checkBudgetsAfterSpend(deps, params.org_id, null);
      return { status: 204 };
    },
    getAllocationRules: async ({ params }, req) => success("Allocation rules.", await getAllocationRules(deps.prisma, principalOf(req), params.org_id)),
    putAllocationRules: async ({ params, body }, req) => {
      const result = await putAllocationRules(deps.prisma, principalOf(req), params.org_id, body);
      if (result.reallocated_lines > 0) await checkBudgetsAfterSpend(deps, params.org_id, null);
      return success("Allocation rules stored; stored import lines re-allocated.", result);
    },
  };
}
