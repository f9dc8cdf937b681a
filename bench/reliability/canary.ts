// The machine's own latency floor, measured in the same run as the mixed load: a separate Node
// process whose server answers 204 at once, offered requests by the same client while the load
// runs. Its latency is what any request waited for CPU (both processes being scheduled, the
// client's event loop, loopback) and nothing of the services' work, so a kind's p99 next to it
// tells the services' share of a tail from the machine's.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

const SERVER = `
const server = require("node:http").createServer((req, res) => { req.resume(); res.statusCode = 204; res.end(); });
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));`;

export interface Canary {
  url: string;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const child: ChildProcess = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"], env: { PATH: process.env.PATH } });
  const [chunk] = (await Promise.race([
    once(child.stdout!, "data"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`canary exited with ${code} before listening`))),
  ])) as [Buffer];
  const port = Number(String(chunk).trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`canary printed no port: ${String(chunk)}`);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
