import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src";
import { ensureEmptyPgliteCluster } from "../src/testing";

/** Paths under `dir` (itself included) that group or others may read, write or enter. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    if ((fs.statSync(p).mode & 0o077) !== 0) found.push(path.relative(dir, p) || ".");
    if (fs.statSync(p).isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

describe("embedded database permissions (issue #22, finding 11)", () => {
  const root = () => fs.mkdtempSync(path.join(os.tmpdir(), "perm-"));
  const mode = (p: string) => fs.statSync(p).mode & 0o777;

  it("creates the data directory and its missing parent 0700, with nothing inside open to others", async () => {
    const parent = path.join(root(), ".data");
    const dataDir = path.join(parent, "service");
    const db = await openDatabase({ dataDir });
    try {
      // Files PGlite writes later are 0666 too, but nobody else can enter the directory.
      expect(mode(parent).toString(8)).toBe("700");
      expect(mode(dataDir).toString(8)).toBe("700");
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("restricts an existing data directory created with open permissions", async () => {
    // An initialised cluster as an older version or another tool left it (a copy: initdb takes seconds).
    const dataDir = path.join(root(), "existing");
    fs.cpSync(await ensureEmptyPgliteCluster(), dataDir, { recursive: true });
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, "postgresql.conf"), 0o666);
    const parentMode = mode(path.dirname(dataDir));
    const db = await openDatabase({ dataDir });
    try {
      expect(mode(dataDir).toString(8)).toBe("700");
      expect(openToOthers(dataDir)).toEqual([]);
      // A parent that existed already is not the service's to change.
      expect(mode(path.dirname(dataDir))).toBe(parentMode);
    } finally {
      await db.close();
    }
  });
});
