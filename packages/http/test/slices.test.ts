import express, { Router } from "express";
import request from "supertest";
import { z } from "zod";
import { defineRoute } from "@cloudcost/contracts";
import { bindSlice, registerSlices, sliceFaults, type RouteHooks, type SliceBinding } from "../src";

const route = <const P extends string, const I extends string>(operationId: I, path: P) =>
  defineRoute({
    operationId,
    method: "get",
    path,
    summary: operationId,
    tags: ["Things"],
    errors: "envelope",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "The name", schema: z.object({ name: z.string() }) } },
  });

// Two slices whose paths overlap: the table's order decides which is matched first.
const things = { getThingByName: route("getThingByName", "/things/special"), listThings: route("listThings", "/things") } as const;
const byId = { getThing: route("getThing", "/things/{id}") } as const;
const table = { ...things, ...byId } as const;
const hooks: RouteHooks = { authenticate: {}, authorize: () => ({}) };

const thingHandlers = bindSlice(things, {
  getThingByName: () => ({ status: 200, body: { name: "special" } }),
  listThings: () => ({ status: 200, body: { name: "all" } }),
});
const idHandlers = bindSlice(byId, { getThing: () => ({ status: 200, body: { name: "by id" } }) });

it("registers every operation of the table in the table's order, whatever the order of the pairs", async () => {
  const router = Router();
  registerSlices(router, table, [idHandlers, thingHandlers], hooks);
  const app = express().use(router);
  expect((await request(app).get("/things/special").expect(200)).body).toEqual({ name: "special" });
  expect((await request(app).get("/things/7").expect(200)).body).toEqual({ name: "by id" });
  expect((await request(app).get("/things").expect(200)).body).toEqual({ name: "all" });
});

it("names each fault: an operation bound by no pair or by two, a handler without its operation, an operation without its handler", () => {
  expect(sliceFaults(table, [thingHandlers, idHandlers])).toEqual([]);
  expect(sliceFaults(table, [thingHandlers])).toEqual(["getThing: no slice binds it"]);
  expect(sliceFaults(table, [thingHandlers, idHandlers, idHandlers])).toEqual(["getThing: bound by slices 1 and 2"]);
  const [, handlers] = thingHandlers;
  const extra: SliceBinding = [things, { ...handlers, getOther: () => undefined }];
  expect(sliceFaults(table, [extra, idHandlers])).toEqual(["getOther: a handler of slice 0, which declares no such operation"]);
  const missing: SliceBinding = [things, { listThings: handlers.listThings }];
  expect(sliceFaults(table, [missing, idHandlers])).toEqual(["getThingByName: slice 0 has no handler for it"]);
  // A slice's operation must be the table's own declaration, not another with the same name.
  const foreign: SliceBinding = [{ getThing: route("getThing", "/elsewhere/{id}") }, idHandlers[1]];
  expect(sliceFaults(table, [thingHandlers, foreign])).toEqual(["getThing: slice 1 declares an operation the route table does not hold"]);
});

it("refuses to register a table that the pairs do not bind exactly once", () => {
  expect(() => registerSlices(Router(), table, [thingHandlers], hooks)).toThrow(/not bound exactly once:\ngetThing: no slice binds it/);
  expect(() => registerSlices(Router(), table, [thingHandlers, idHandlers, thingHandlers], hooks)).toThrow(/getThingByName: bound by slices 0 and 2/);
});
