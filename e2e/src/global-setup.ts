import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** One directory per run for the prepared service templates (see src/templates.ts). */
export default function globalSetup(): void {
  process.env.E2E_RUN_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-run-"));
}
