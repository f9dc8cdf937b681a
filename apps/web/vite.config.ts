import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// `vite` alone (development) proxies the APIs like `pnpm start` and the gateway do.
const mainApi = process.env.MAIN_API_URL ?? "http://127.0.0.1:3000";
const pricingApi = process.env.PRICING_API_URL ?? "http://127.0.0.1:3001";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    sourcemap: false,
    target: "es2022",
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // zod and src/app/zod-jitless.ts in one chunk, which every chunk that parses imports: the
        // configuration runs before any schema is built (zod decides at construction whether to
        // generate code, and probes `new Function` then, which the page's policy refuses).
        codeSplitting: { groups: [{ name: "zod", test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]app[\\/]zod-jitless\.ts$/ }] },
      },
    },
  },
  server: {
    proxy: {
      "/api/": mainApi,
      "/pricing/": { target: pricingApi, rewrite: (path) => path.replace(/^\/pricing/, "") },
    },
  },
  // Generous: the machine running the suites may be shared and loaded.
  test: { environment: "jsdom", include: ["test/**/*.test.{ts,tsx}"], setupFiles: ["test/setup.ts"], testTimeout: 30_000 },
});
