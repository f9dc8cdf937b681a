// `pnpm start`'s child processes (scripts/start.mjs): their output prefixed on ours, and never
// left running without us (the launcher also serves the console in its own process).
import { spawn } from "node:child_process";
import readline from "node:readline";

/**
 * Runs each command (`{ name, args }`, arguments to this Node.js) as a child. When one exits, on
 * SIGINT/SIGTERM, or on an uncaught exception or unhandled rejection here, every child gets
 * SIGTERM, then SIGKILL after `killAfterMs`, and this process exits once they are gone. Any other
 * exit (process.exit elsewhere) cannot wait: the children still get SIGTERM. The default bound
 * leaves the services their own drain time (SHUTDOWN_TIMEOUT_MS, 10 s by default).
 */
export function supervise(commands, { cwd, env, killAfterMs = 15_000 } = {}) {
  let stopping = false;
  const children = commands.map(({ name, args }) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
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
