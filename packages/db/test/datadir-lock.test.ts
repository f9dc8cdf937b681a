import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataDirLockedError, lockDataDir } from "../src";

describe("data directory lock", () => {
  const dir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");

  it("refuses a second owner while the first holds the lock", () => {
    const dataDir = dir();
    const child = spawnSync(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(`${dataDir}.lock`)}, String(process.ppid))`]);
    expect(child.status).toBe(0);
    // The lock now names this test's parent (alive): a second owner is refused clearly.
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dataDir)).toThrow(/in use by process/);
  });

  it("takes over a lock left by a process that no longer exists, and releases it", () => {
    const dataDir = dir();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    fs.writeFileSync(`${dataDir}.lock`, dead);
    const release = lockDataDir(dataDir);
    expect(fs.readFileSync(`${dataDir}.lock`, "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(`${dataDir}.lock`)).toBe(false);
  });
});
