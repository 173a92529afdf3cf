import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, loadEnv } from "vite";
import { parseAllowedHosts } from "./local-backend/api/access.ts";
import { localBackend } from "./local-backend/host/vite-plugin.ts";
import { buildInfo } from "./scripts/build/build-info.ts";
import { chunkGroups } from "./scripts/build/chunks.ts";
import { previewImagesInDev } from "./scripts/serve/preview-images-vite.ts";

export default defineConfig(({ mode }) => {
  // .env files are not in process.env here; loadEnv reads them the way the app will see them.
  const env = loadEnv(mode, process.cwd(), "");
  // The embedded backend's convex/auth.config.ts reads the Clerk issuer from process.env, as a
  // deployment's does from its environment: a .env file may name it too (decision 073).
  if (env.CLERK_JWT_ISSUER_DOMAIN && !process.env.CLERK_JWT_ISSUER_DOMAIN) {
    process.env.CLERK_JWT_ISSUER_DOMAIN = env.CLERK_JWT_ISSUER_DOMAIN;
  }
  return {
    plugins: [
      react(),
      tailwindcss(),
      // builds/latest.json and builds/meta/{id}.json (docs/product.md#build-files; decision 016).
      buildInfo({ convexUrl: env.VITE_CONVEX_URL, clerkPublishableKey: env.VITE_CLERK_PUBLISHABLE_KEY }),
      // Without a real deployment, `npm run dev` runs the project's Convex functions in-process.
      // LIVELOCAL_LOCAL_BACKEND_DATA_DIR points tests and the benchmark at a throwaway store;
      // LIVELOCAL_LOCAL_BACKEND_EXTRA_FUNCTIONS adds the e2e suite's own functions (decision 088).
      localBackend({
        enabled: !env.VITE_CONVEX_URL,
        dataDir: env.LIVELOCAL_LOCAL_BACKEND_DATA_DIR || undefined,
        extraFunctionsDirs: env.LIVELOCAL_LOCAL_BACKEND_EXTRA_FUNCTIONS?.split(path.delimiter).filter(
          Boolean,
        ),
      }),
      // Link previews' pictures, /og/{page}.png, as `npm start` draws them (decision 068).
      previewImagesInDev({ convexUrl: env.VITE_CONVEX_URL || undefined }),
    ],
    // Pre-bundled at start, though only lazy routes import them: found at run time instead, Vite would
    // re-optimize and reload an open page (the map's and the insights' charts).
    optimizeDeps: { include: ["recharts", "d3-geo", "topojson-client"] },
    resolve: {
      alias: {
        "@": path.resolve(import.meta.dirname, "src"),
        "@convex": path.resolve(import.meta.dirname, "convex"),
      },
    },
    // dist/.vite/manifest.json lets scripts/bench/bundle.ts measure the initial JavaScript of a page.
    build: { manifest: true },
    // `vite build` builds the browser's app, then the server's entry (decision 040) into dist/.ssr/,
    // which `npm start` renders public pages with (a dot directory: never served as a file).
    builder: {},
    environments: {
      // The browser's chunks: few, so that a first page asks for few files (decision 042).
      client: { build: { rolldownOptions: { output: { codeSplitting: { groups: chunkGroups() } } } } },
      ssr: {
        build: {
          outDir: "dist/.ssr",
          emptyOutDir: true,
          manifest: false,
          copyPublicDir: false,
          rollupOptions: { input: { "entry-server": "src/entry-server.tsx" } },
        },
      },
    },
    // Host names answered besides loopback ones, by Vite and the local backend alike (local-backend/README.md):
    // `LIVELOCAL_ALLOWED_HOSTS=devbox.lan npm run dev -- --host`.
    server: { host: "127.0.0.1", port: 5173, allowedHosts: parseAllowedHosts(env.LIVELOCAL_ALLOWED_HOSTS) },
    preview: { host: "127.0.0.1", port: 4173 },
  };
});
