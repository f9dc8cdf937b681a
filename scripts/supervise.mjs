// `pnpm start`'s child processes (scripts/start.mjs): their logs in files with the warnings and
// errors on our terminal (or, without a log directory, all their output prefixed on ours), and
// never left running without us (the launcher also serves the console in its own process).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

/** pino's numeric levels: 40 is warn, 50 error, 60 fatal. */
const WARN = 40;
const LEVEL_NAMES = { 40: "WARN", 50: "ERROR", 60: "FATAL" };

/**
 * A warn-or-worse JSON log line as one short readable line (`WARN POST /api/v1/x 409 3 ms`, or the
 * message and the error's), or undefined for a lower level. A line that is not a pino JSON line
 * (a stack trace, Node.js's own warnings, LOG_FORMAT=pretty) is returned as it is.
 */
export function terminalLine(line) {
  let log;
  try {
    log = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof log !== "object" || log === null || typeof log.level !== "number") return line;
  if (log.level < WARN) return undefined;
  const level = LEVEL_NAMES[Math.min(60, Math.floor(log.level / 10) * 10)] ?? `LEVEL ${log.level}`;
  const request = log.req?.method && log.res ? `${log.req.method} ${log.req.url} ${log.res.statusCode} ${log.responseTime ?? "?"} ms` : "";
  const message = typeof log.msg === "string" && !(request && log.msg === "request completed") ? log.msg : "";
  const error = log.err?.message && log.err.message !== message ? `${log.err.type ?? "Error"}: ${log.err.message}` : "";
  const requestId = request && log.requestId ? `(request ${log.requestId})` : "";
  return [level, request, message, error, requestId].filter(Boolean).join(" ");
}

/** Relative to the working directory when it is below it (`.data/logs/main-api.log`). */
function shortPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/**
 * Runs each command (`{ name, args }`, arguments to this Node.js) as a child. With `logDir`, each
 * child's output is appended to `<logDir>/<name>.log` (a line here says where) and only its
 * warnings and errors are echoed here, short (see terminalLine); without, every line is echoed
 * with the child's name before it. When one exits, on
 * SIGINT/SIGTERM, or on an uncaught exception or unhandled rejection here, every child gets
 * SIGTERM, then SIGKILL after `killAfterMs`, and this process exits once they are gone. Any other
 * exit (process.exit elsewhere) cannot wait: the children still get SIGTERM. The default bound
 * leaves the services their own drain time (SHUTDOWN_TIMEOUT_MS, 10 s by default).
 */
export function supervise(commands, { cwd, env, killAfterMs = 15_000, logDir } = {}) {
  let stopping = false;
  if (logDir) fs.mkdirSync(logDir, { recursive: true });
  const children = commands.map(({ name, args }) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const file = logDir ? path.join(logDir, `${name}.log`) : undefined;
    // Written synchronously: nothing is left in a buffer when this process exits right after the child.
    const log = file ? fs.openSync(file, "a") : undefined;
    if (file) console.log(`[${name}] logs to ${shortPath(file)} (its warnings and errors also here)`);
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on("line", (line) => {
        if (log !== undefined) fs.writeSync(log, `${line}\n`);
        const shown = log !== undefined ? terminalLine(line) : line;
        if (shown !== undefined) console.log(`[${name}] ${shown}`);
      });
    }
    child.on("exit", (code, signal) => {
      if (!stopping) {
        console.error(`[${name}] exited (${signal ?? code}); stopping everything.`);
        stop(code || 1);
      }
    });
    return child;
  });
  const running = () => children.filter((c) => c.exitCode === null && c.signalCode === null);

  function stop(exitCode = 0) {
    if (stopping) return;
    stopping = true;
    const left = running();
    Promise.all(left.map((c) => new Promise((resolve) => c.once("exit", resolve)))).then(() => process.exit(exitCode));
    for (const child of left) child.kill("SIGTERM");
    setTimeout(() => {
      for (const child of running()) child.kill("SIGKILL");
    }, killAfterMs).unref();
  }
  const fail = (err) => {
    console.error(err);
    stop(1);
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  process.on("exit", () => {
    for (const child of running()) child.kill("SIGTERM");
  });
  return { children, stop, isStopping: () => stopping };
}
