import { Readable } from "node:stream";
import type { mainApiStatementRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { statementCsv, statementFileName } from "./csv";
import { statementPdf } from "./pdf";
import { metricAmountsRepository } from "../business-metrics/amounts-repository";
import { organizationRepository } from "../organizations/repository";
import { dimensionSpendRepository } from "../spend/dimension-spend-repository";
import { statementCostRepository } from "./cost-repository";
import { statementRepository } from "./repository";
import { createStatementService } from "./service";

/** `/api/v1/organizations/{org_id}/statements`: owners and admins only (authorize checks the table's roles). */
export function statementHandlers(deps: Pick<AppDeps, "prisma" | "db" | "clock">): Handlers<keyof typeof mainApiStatementRoutes> {
  const statements = createStatementService({
    prisma: deps.prisma,
    sql: deps.db.sql,
    clock: deps.clock,
    statements: statementRepository,
    costs: statementCostRepository,
    dimensionSpend: dimensionSpendRepository,
    metricAmounts: metricAmountsRepository,
    organizations: organizationRepository,
  });
  return {
    createStatement: async ({ body }, ctx) => {
      const statement = await statements.create(ctx, body);
      return created(`Statement ${statement.number} created.`, statement);
    },
    listStatements: async (_input, ctx) => success("Statements of the organization.", await statements.list(ctx)),
    getStatement: async ({ params }, ctx) => success(`Statement ${params.id}.`, await statements.get(ctx, params.id)),
    finalizeStatement: async ({ params }, ctx) => {
      const statement = await statements.finalize(ctx, params.id);
      return success(`Statement ${statement.number} is final.`, statement);
    },
    deleteStatement: async ({ params }, ctx) => {
      await statements.remove(ctx, params.id);
      return { status: 204 };
    },
    getRecipientStatement: async ({ params }, ctx) =>
      success(`Statement ${params.id} of ${params.value}.`, await statements.recipient(ctx, params.id, params.value)),
    getRecipientStatementCsv: async ({ params }, ctx) => {
      const statement = await statements.recipient(ctx, params.id, params.value);
      return {
        status: 200,
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${statementFileName(statement, "csv")}"` },
        text: statementCsv(statement),
      };
    },
    getRecipientStatementPdf: async ({ params }, ctx) => {
      const statement = await statements.recipient(ctx, params.id, params.value);
      return {
        status: 200,
        headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${statementFileName(statement, "pdf")}"` },
        stream: Readable.from([await statementPdf(statement)]),
      };
    },
  };
}
