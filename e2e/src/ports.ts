import net from "node:net";

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = new Error(`${url} answered ${res.status}`);
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms: ${(last as Error)?.message}`);
}

/**
 * waitFor, for a service this test started: fails as soon as the process exits. Another process
 * may hold the port (a free port is only free when it was picked): without this, /readyz would be
 * answered by that other process and the failure would surface later, far from its cause.
 */
export async function waitForChild(url: string, child: import("node:child_process").ChildProcess, timeoutMs = 60_000): Promise<void> {
  let onExit!: (code: number | null, signal: NodeJS.Signals | null) => void;
  const exited = new Promise<never>((_, reject) => {
    onExit = (code, signal) => reject(new Error(`the process exited (${signal ? `signal ${signal}` : `code ${code}`}) before ${url} was ready`));
    child.once("exit", onExit);
  });
  try {
    await Promise.race([waitFor(url, timeoutMs), exited]);
  } finally {
    child.off("exit", onExit);
  }
}
