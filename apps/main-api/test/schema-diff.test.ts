import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(__dirname, "..");

describe("migrations", () => {
  it("agree with prisma/schema.prisma (a schema change without its migration fails here)", async () => {
    const script = path.resolve(root, "../../packages/db/bin/db-diff.mjs");
    const args = [script, "--schema", "prisma/schema.prisma", "--migrations", "prisma/migrations", "--check"];
    const result = await promisify(execFile)(process.execPath, args, { cwd: root }).catch((err) => err);
    expect(result.stdout).toContain("Migrations and schema agree");
  }, 60_000);
});
