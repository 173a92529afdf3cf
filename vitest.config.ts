import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname, "src"),
      "@convex": path.resolve(import.meta.dirname, "convex"),
    },
  },
  test: {
    projects: [
      {
        test: {
          name: "convex",
          environment: "edge-runtime",
          // convex-test runs every function in memory; seeding and large fixtures take seconds when
          // the machine is busy. Tests wait for states, never race a clock, so they get time.
          testTimeout: 20_000,
          include: ["convex/**/*.test.ts"],
          server: {
            deps: { inline: ["convex-test", "@convex-dev/rate-limiter", "@convex-dev/batch-worker"] },
          },
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          environment: "jsdom",
          // Long forms typed key by key take seconds under jsdom on a busy 2-core machine; the
          // tests wait for states, so a slow run needs time, not a retry.
          testTimeout: 20_000,
          include: ["src/**/*.test.{ts,tsx}"],
          setupFiles: ["./src/test/setup.ts"],
        },
      },
      {
        // The aliases too: the server render's tests render the app's own entry (src/entry-server.tsx).
        extends: true,
        test: {
          name: "node",
          environment: "node",
          // Real servers and clients on a busy machine: starting a backend can take seconds.
          testTimeout: 20_000,
          hookTimeout: 60_000,
          include: ["scripts/**/*.test.ts", "local-backend/**/*.test.ts"],
        },
      },
    ],
  },
});
