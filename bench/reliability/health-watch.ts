// Polls `<url>/healthz` every 20 ms from its own process, so that what the watching process does
// (building a large file, sending it) never delays a health answer's reading. Prints `ready` after a
// first answer it does not count (a new process's first request pays for its own warm-up), stops
// when its stdin closes and prints one JSON line: {latencies, failures}.
const url = process.argv[2];
const latencies: number[] = [];
const failures: string[] = [];
let polling = true;
process.stdin.on("end", () => {
  polling = false;
});
process.stdin.resume();

(async () => {
  await fetch(`${url}/healthz`).then((res) => res.arrayBuffer());
  process.stdout.write("ready\n");
  while (polling) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status !== 200) failures.push(String(res.status));
    } catch (err) {
      failures.push((err as Error).name);
    }
    latencies.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.stdout.write(`${JSON.stringify({ latencies, failures })}\n`);
})();
