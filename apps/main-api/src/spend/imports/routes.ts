import { checkBudgetsAfterSpend } from "../../budgets/after-spend";
import type { AppDeps } from "../../deps";
import { created, success } from "../../http/envelope";
import type { Handlers } from "../../operations";
import { deleteImport, getAllocationRules, getImport, importFocus, listImports, putAllocationRules } from "./service";

/** `/api/v1/organizations/{org_id}/spend/imports` and `.../spend/allocation-rules` (owners and admins: authorize checks the table's roles). */
export function spendImportHandlers(
  deps: Pick<AppDeps, "prisma" | "config" | "outbox" | "logger">,
): Handlers<"createSpendImport" | "listSpendImports" | "getSpendImport" | "deleteSpendImport" | "getAllocationRules" | "putAllocationRules"> {
  return {
    createSpendImport: async ({ params, query }, { principal, body }) => {
      const imported = await importFocus(deps.prisma, principal, params.org_id, body, {
        maxBytes: deps.config.spendImportMaxBytes,
        fileName: query.file_name,
      });
      deps.outbox.kick(); // import.completed was queued in the import's transaction
      await checkBudgetsAfterSpend(deps, params.org_id, null);
      return created(`Imported ${imported.rows} rows.`, { import: imported });
    },
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
      if (result.reallocated_lines > 0) await checkBudgetsAfterSpend(deps, params.org_id, null);
      return success("Allocation rules stored; stored import lines re-allocated.", result);
    },
  };
}
