import { Router } from "express";
import {
  CreateReportRequest,
  PinListQuery,
  PinPathParams,
  PinRequest,
  ReportPathParams,
  type Pin,
  type PinList,
  type Report,
} from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { accountOf, requireKeyRole } from "../auth/middleware";
import type { Prisma } from "../db";
import { deletePin, listPins, putPin } from "./pin-service";
import { createReport, deleteReport, getReport } from "./report-service";

/** `/v1/pricing/pins`: which resources carry which pricing id. */
export function pinRoutes(deps: { prisma: Prisma }): Router {
  const router = Router();

  router.get("/", requireKeyRole("viewer"), async (req, res) => {
    const { pricing_id } = parseOr400(PinListQuery, req.query, "query");
    const body: PinList = { pins: await listPins(deps.prisma, accountOf(req), pricing_id) };
    res.json(body);
  });

  router.put("/:kind/:resource_id", requireKeyRole("member"), async (req, res) => {
    const { kind, resource_id } = parseOr400(PinPathParams, req.params, "path");
    const { pricing_id } = parseOr400(PinRequest, req.body, "pin");
    const body: Pin = await putPin(deps.prisma, accountOf(req), kind, resource_id, pricing_id);
    res.json(body);
  });

  router.delete("/:kind/:resource_id", requireKeyRole("member"), async (req, res) => {
    const { kind, resource_id } = parseOr400(PinPathParams, req.params, "path");
    await deletePin(deps.prisma, accountOf(req), kind, resource_id);
    res.status(204).end();
  });

  return router;
}

/** `/v1/pricing/reports`: stored, priced usage. */
export function reportRoutes(deps: { prisma: Prisma; labelPrefix: string }): Router {
  const router = Router();

  router.post("/", requireKeyRole("member"), async (req, res) => {
    const { name, usage } = parseOr400(CreateReportRequest, req.body, "report");
    const body: Report = await createReport(deps.prisma, accountOf(req), name, usage, deps.labelPrefix);
    res.status(201).json(body);
  });

  router.get("/:id", requireKeyRole("viewer"), async (req, res) => {
    const { id } = parseOr400(ReportPathParams, req.params, "path");
    res.json(await getReport(deps.prisma, accountOf(req), id));
  });

  router.delete("/:id", requireKeyRole("admin"), async (req, res) => {
    const { id } = parseOr400(ReportPathParams, req.params, "path");
    await deleteReport(deps.prisma, accountOf(req), id);
    res.status(204).end();
  });

  return router;
}
