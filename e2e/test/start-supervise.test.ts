import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// `pnpm start` (scripts/start.mjs) runs both services as children of one launcher, which also serves
// the console in its own process: whatever ends the launcher, its children must not outlive it.
// A launcher (scripts/supervise.mjs) with two tiny children in place of the services: `polite`
// stops on SIGTERM, `stubborn` ignores it. Each writes what it saw to its own file in EVENTS_DIR (the
// launcher's output ends with it).

const SUPERVISE = path.resolve(__dirname, "../../scripts/supervise.mjs");
const KILL_AFTER_MS = 1000;
let dir: string;
let pids: number[] = [];
let launcher: ChildProcess | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "supervise-"));
  pids = [];
});
afterEach(() => {
  launcher?.kill("SIGKILL");
  for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Running, and not a zombie left for a parent that is gone to reap. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

const seen = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), "utf8") : "");

function child(name: string, onTerm: string) {
  const script = `const fs = require("fs");
    const file = require("path").join(process.env.EVENTS_DIR, ${JSON.stringify(name)});
    process.on("SIGTERM", () => { fs.appendFileSync(file, "TERM\\n"); ${onTerm} });
    fs.appendFileSync(file, "PID " + process.pid + "\\n");
    setInterval(() => {}, 1000);`;
  return { name, args: ["-e", script] };
}
const polite = child("polite", "process.exit(0);");
const stubborn = child("stubborn", "");

/**
 * Starts the launcher and resolves once its children run; `go()` runs `scenario` in the launcher;
 * `output()` is what the launcher wrote to its terminal so far.
 */
async function launch(children: { name: string; args: string[] }[], scenario: string, options: { logDir?: string } = {}) {
  const script = `import { supervise } from ${JSON.stringify(SUPERVISE)};
    supervise(${JSON.stringify(children)}, { killAfterMs: ${KILL_AFTER_MS}, logDir: ${JSON.stringify(options.logDir)} });
    process.stdin.once("data", () => { ${scenario} });`;
  launcher = spawn(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, EVENTS_DIR: dir },
    stdio: ["pipe", "pipe", "ignore"],
  });
  let terminal = "";
  launcher.stdout!.on("data", (chunk: Buffer) => {
    terminal += chunk.toString();
  });
  const exited = new Promise<number | null | string>((resolve) => {
    // Bounded: a launcher that never exits is a failure, not a test timeout.
    const timer = setTimeout(() => resolve("still running after 15 s"), 15_000);
    launcher!.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    pids = children.map((c) => Number(/PID (\d+)/.exec(seen(c.name))?.[1])).filter(Boolean);
    if (pids.length === children.length) break;
    if (Date.now() > deadline) throw new Error("the launcher's children did not start within 15 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    go: () => launcher!.stdin!.write("go\n"),
    exited,
    signal: (signal: NodeJS.Signals) => launcher!.kill(signal),
    output: () => terminal,
  };
}

async function until(condition: () => boolean, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

test.each([
  ["an uncaught exception", 'setImmediate(() => { throw new Error("boom"); });'],
  ["an unhandled rejection", 'Promise.reject(new Error("boom"));'],
])("on %s the launcher stops its children (SIGTERM, SIGKILL after the bound) and exits 1 after them", async (_what, scenario) => {
  const { go, exited } = await launch([polite, stubborn], scenario);
  go();
  const code = await exited;
  expect({ code, running: pids.filter(alive) }).toEqual({ code: 1, running: [] });
  expect([seen("polite"), seen("stubborn")].map((s) => s.includes("TERM"))).toEqual([true, true]);
});

test("on SIGTERM the launcher stops a child that ignores it with SIGKILL after the bound, then exits 0", async () => {
  const { exited, signal } = await launch([polite, stubborn], "");
  signal("SIGTERM");
  const code = await exited;
  expect({ code, running: pids.filter(alive) }).toEqual({ code: 0, running: [] });
});

test("on any other exit (process.exit elsewhere) the children still get SIGTERM", async () => {
  const { go, exited } = await launch([polite, child("polite2", "process.exit(0);")], "process.exit(3);");
  go();
  expect(await exited).toBe(3);
  expect(await until(() => pids.every((pid) => !alive(pid)))).toBe(true);
  expect([seen("polite"), seen("polite2")].map((s) => s.includes("TERM"))).toEqual([true, true]);
});

test("with a log directory, a child's request logs go to <dir>/<name>.log and only its warnings and errors to the terminal, short", async () => {
  const logDir = path.join(dir, "logs");
  const lines = [
    { level: 30, name: "svc", msg: "request completed", req: { method: "GET", url: "/api/v1/quiet" }, res: { statusCode: 200 }, responseTime: 2 },
    {
      level: 40,
      name: "svc",
      msg: "request completed",
      req: { method: "POST", url: "/api/v1/loud" },
      res: { statusCode: 409 },
      responseTime: 3,
      requestId: "r-1",
    },
    { level: 50, name: "svc", msg: "pricing API unreachable", err: { type: "Error", message: "connect ECONNREFUSED" } },
  ];
  const script = `const fs = require("fs");
    for (const line of ${JSON.stringify(lines.map((l) => JSON.stringify(l)))}) console.log(line);
    console.error("a line that is not JSON");
    fs.appendFileSync(require("path").join(process.env.EVENTS_DIR, "svc"), "PID " + process.pid + "\\n");
    setInterval(() => {}, 1000);`;
  const { output } = await launch([{ name: "svc", args: ["-e", script] }], "", { logDir });
  const file = path.join(logDir, "svc.log");
  const read = () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  expect(await until(() => read().includes("not JSON") && output().includes("not JSON"))).toBe(true);
  expect(read()).toContain("/api/v1/quiet");
  expect(read()).toContain("/api/v1/loud");
  expect(output()).toContain(`[svc] logs to ${file}`);
  expect(output()).not.toContain("/api/v1/quiet");
  expect(output()).toContain("[svc] WARN POST /api/v1/loud 409 3 ms (request r-1)");
  expect(output()).toContain("[svc] ERROR pricing API unreachable Error: connect ECONNREFUSED");
  expect(output()).toContain("[svc] a line that is not JSON");
});
