import path from "node:path";
import { schemaDiffCheck } from "@cloudcost/db/testing";

it("migrations agree with prisma/schema.prisma (a schema change without its migration fails here)", async () => {
  expect(await schemaDiffCheck(path.resolve(__dirname, ".."))).toContain("Migrations and schema agree");
}, 60_000);
