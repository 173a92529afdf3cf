import path from "node:path";
import { defineConfig } from "vitest/config";

/** What convex/ reads from its deployment's environment (CONVEX_SITE_URL aside: Convex always sets it). */
const DEPLOYMENT_VARIABLES = [
  "ADMIN_EMAILS",
  "APP_ORIGINS",
  "CLERK_JWT_ISSUER_DOMAIN",
  "CLERK_SECRET_KEY",
  "CLERK_WEBHOOK_SECRET",
  "EMAIL_FROM",
  "LIVELOCAL_APP_ORIGIN",
  "LIVELOCAL_LOCAL_AUTH_ISSUER",
  "NOTIFICATIONS_SECRET",
  "RESEND_API_KEY",
  "RESEND_WEBHOOK_SECRET",
  "VAPID_PRIVATE_KEY",
  "VAPID_PUBLIC_KEY",
  "VAPID_SUBJECT",
];

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
          // A scheduled function's error fails the test that scheduled it (convex-test only prints it).
          setupFiles: ["./convex/test.hooks.ts"],
          // The deployment's variables start unset, whatever the shell exported: LIVELOCAL_* (set by
          // the local backend) or CLERK_* would switch the functions' mode under the tests.
          env: Object.fromEntries(DEPLOYMENT_VARIABLES.map((name) => [name, ""])),
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
          // Made once per run for the page tests' backends: the components' bundles, a signing key.
          globalSetup: ["./src/test/convex-global-setup.ts"],
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
