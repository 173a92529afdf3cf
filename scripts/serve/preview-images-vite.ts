/**
 * `npm run dev` answers `/og/{page}.png` as `npm start` does (preview-images.ts; decision 068), read
 * from the local backend on Vite's own origin or from the deployment `VITE_CONVEX_URL` names, with the
 * pictures of public/. The module is loaded through Vite at the first such request, so a dev session
 * that never asks for a card never loads sharp.
 */
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Plugin, ViteDevServer } from "vite";
import type * as PagePreviews from "./page-previews.ts";
import type * as PreviewImages from "./preview-images.ts";

const CARD_PATH = /^\/og\//;

export function previewImagesInDev(options: { convexUrl?: string }): Plugin {
  return {
    name: "livelocal-preview-images",
    apply: "serve",
    configureServer(server: ViteDevServer) {
      let ownOrigin = `http://127.0.0.1:${server.config.server.port ?? 5173}`;
      server.httpServer?.once("listening", () => {
        const address = server.httpServer?.address() as AddressInfo | null;
        if (!address) return;
        const wildcard = address.address === "0.0.0.0" || address.address === "::";
        const hostname = wildcard
          ? "127.0.0.1"
          : address.address.includes(":")
            ? `[${address.address}]`
            : address.address;
        ownOrigin = `http://${hostname}:${address.port}`;
      });
      let handler: Promise<PreviewImages.PreviewImageHandler> | null = null;
      const load = async () => {
        const [{ createPagePreviews }, { createPreviewImages }] = (await Promise.all([
          server.ssrLoadModule("/scripts/serve/page-previews.ts"),
          server.ssrLoadModule("/scripts/serve/preview-images.ts"),
        ])) as [typeof PagePreviews, typeof PreviewImages];
        const convexUrl = () => options.convexUrl ?? ownOrigin;
        // Pages change as a developer edits them: read again after a few seconds.
        const previews = createPagePreviews({ convexUrl, ttlMs: 5_000, buildId: "dev" });
        return createPreviewImages({
          previews,
          staticDir: path.resolve(server.config.publicDir),
          convexUrl,
          buildId: "dev",
        });
      };

      server.middlewares.use((req, res, next) => {
        const pathname = (req.url ?? "/").split("?")[0] ?? "/";
        if (!CARD_PATH.test(pathname)) {
          next();
          return;
        }
        let decoded: string;
        try {
          decoded = decodeURIComponent(pathname);
        } catch {
          next();
          return;
        }
        handler ??= load();
        const origin = `http://${req.headers.host ?? "localhost"}`;
        handler
          .then((answer) => answer(req, res, decoded, origin))
          .then(
            (answered) => {
              if (!answered) next();
            },
            (error: unknown) => {
              handler = null;
              next(error);
            },
          );
      });
    },
  };
}
