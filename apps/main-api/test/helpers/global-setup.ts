import path from "node:path";
// Jest's globalSetup does not apply moduleNameMapper: reach the workspace source directly.
import { prepareTestTemplate } from "../../../../packages/db/src/testing";

export default async function globalSetup() {
  await prepareTestTemplate(path.resolve(__dirname, "../../prisma/migrations"));
}
