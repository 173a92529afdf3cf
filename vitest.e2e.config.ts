import path from "node:path";
import { defineConfig } from "vitest/config";

/** `npm run test:e2e`: real Chromium against the app served with the local backend (tests/e2e/). */
export default defineConfig({
  resolve: {
    alias: { "@convex": path.resolve(import.meta.dirname, "convex") },
  },
  test: {
    name: "e2e",
    environment: "node",
    include: ["tests/e2e/**/*.e2e.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
