/**
 * The backend origin's HTTP router: `/api/*` (the public function API, file storage, the Convex CLI's
 * endpoints), `/local-auth/*`, `/.well-known/*` and the HTTP actions site under `SITE_PREFIX`, each
 * handled by its own file; errors become answers here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestPathname } from "../core/paths.ts";
import { handleDevSignIn } from "./dev-sign-in.ts";
import { handleStorage } from "./file-storage.ts";
import { STORAGE_PATH_PREFIX } from "./file-urls.ts";
import { HttpError, callerFromHeader, closeAfterAnswer, sendJson, setCors } from "./http.ts";
import { stripSitePrefix } from "./http-actions.ts";
import { handleOpenId } from "./openid.ts";
import { handlePublicApi } from "./public-api.ts";
import type { BackendServices } from "./services.ts";

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export type ApiOptions = {
  services: BackendServices;
  /** The backend origin as the browser sees it (for the OpenID discovery document). */
  origin: () => string;
  /** Extra loopback-only JSON endpoints (e.g. stats), by path. */
  extraRoutes?: Record<string, () => unknown>;
  /**
   * The HTTP actions site, also answered on this origin under `SITE_PREFIX` (prefix stripped), so the
   * app reaches them on its own origin in `npm run dev` and `npm start` (src/lib/convex-site.ts).
   */
  site?: (req: IncomingMessage, res: ServerResponse) => void;
};

/**
 * `/api/*`, `/local-auth/*` and `/.well-known/*` as a connect-style middleware (Vite's middlewares,
 * or the standalone server). Other paths go to `next()`.
 */
export function createApiMiddleware(options: ApiOptions): Middleware {
  const { services } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> => {
    const method = req.method ?? "GET";
    const sitePath = options.site ? stripSitePrefix(req.url ?? "/") : null;
    if (options.site && sitePath !== null) {
      req.url = sitePath;
      options.site(req, res);
      return true;
    }
    if (pathname.startsWith("/api/")) {
      setCors(req, res);
      if (method === "OPTIONS") {
        res.statusCode = 204;
        res.end();
        return true;
      }
      if (pathname.startsWith(STORAGE_PATH_PREFIX)) {
        await handleStorage(services, req, res, pathname);
        return true;
      }
      const cli = services.cli.route(method, pathname);
      if (cli) {
        // What the Convex CLI asks (`logs`, `env`, `export`, `import`): for the admin key only, as on Convex.
        if (!(await callerFromHeader(services, req)).admin) {
          throw new HttpError(
            403,
            "BadDeployKey",
            "The provided deploy key was invalid for this deployment. Double check that the environment this key was generated for matches the desired deployment.",
          );
        }
        await cli(req, res, new URL(req.url ?? "/", "http://localhost"));
        return true;
      }
      return await handlePublicApi(services, req, res, pathname);
    }
    if (handleOpenId(services, req, res, pathname, options.origin)) return true;
    if (pathname.startsWith("/local-auth/")) return await handleDevSignIn(services, req, res, pathname);
    if (options.extraRoutes && pathname in options.extraRoutes) {
      setCors(req, res);
      if (!services.access.isOperator(req)) {
        throw new HttpError(
          403,
          "Forbidden",
          "This is answered to this machine only, never through a proxy.",
        );
      }
      if (method === "OPTIONS") {
        res.statusCode = 204;
        res.end();
        return true;
      }
      const extra = options.extraRoutes?.[pathname];
      if (extra && method === "GET") {
        sendJson(res, 200, extra());
        return true;
      }
      return false;
    }
    return false;
  };
  return (req, res, next) => {
    const access = services.access.check(req);
    if (!access.ok) {
      sendJson(res, 403, { code: "Forbidden", message: access.message });
      return;
    }
    const pathname = requestPathname(req.url);
    if (pathname === null) {
      sendJson(res, 400, { code: "BadRequest", message: "The request's URL does not parse." });
      return;
    }
    handle(req, res, pathname).then(
      (handled) => {
        if (!handled) next();
      },
      (e: unknown) => {
        if (e instanceof HttpError) {
          if (e.status === 413) closeAfterAnswer(req, res);
          sendJson(res, e.status, { code: e.code, message: e.message });
        } else {
          console.error("local-backend: request failed", e);
          sendJson(res, 500, {
            code: "InternalServerError",
            message: e instanceof Error ? e.message : String(e),
          });
        }
      },
    );
  };
}
