/**
 * The HTTP actions site (Convex's `.site` origin): every request goes to the router exported by
 * `convex/http.ts`. Also answered on the backend's own origin under `SITE_PREFIX` (router.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Identity } from "../runtime/execution.ts";
import {
  HttpError,
  MAX_HTTP_ACTION_BODY_BYTES,
  callerFromHeader,
  closeAfterAnswer,
  readBody,
  withBodyTurn,
} from "./http.ts";
import type { BackendServices } from "./services.ts";

/** Where the app's origin serves the HTTP actions: `/local-backend/site/privacy/export` → `/privacy/export`. */
export const SITE_PREFIX = "/local-backend/site";

/** The path and query under `SITE_PREFIX`, or null for other paths. */
export function stripSitePrefix(url: string): string | null {
  if (!url.startsWith(SITE_PREFIX)) return null;
  const rest = url.slice(SITE_PREFIX.length);
  if (rest === "") return "/";
  if (rest.startsWith("?")) return `/${rest}`;
  return rest.startsWith("/") ? rest : null;
}

/** The HTTP actions site: every request goes to the router exported by `convex/http.ts`. */
export function createSiteHandler(
  services: BackendServices,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const access = services.access.check(req);
    if (!access.ok) {
      res.statusCode = 403;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(`${access.message}\n`);
      return;
    }
    void (async () => {
      try {
        const method = req.method ?? "GET";
        // A refused token does not refuse the request: the action's getUserIdentity() throws, as on Convex.
        let identity: Identity | Error | null = null;
        try {
          const caller = await callerFromHeader(services, req);
          identity = caller.admin ? null : caller.identity;
        } catch (e) {
          identity = e instanceof HttpError ? new Error(e.message) : null;
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
        }
        const response = await withBodyTurn(req, MAX_HTTP_ACTION_BODY_BYTES, async () => {
          const body =
            method === "GET" || method === "HEAD"
              ? undefined
              : new Uint8Array(await readBody(req, MAX_HTTP_ACTION_BODY_BYTES));
          return await services.fetchHttp(req.url ?? "/", { method, headers, body }, identity);
        });
        res.statusCode = response.status;
        response.headers.forEach((value, name) => {
          if (name !== "content-length" && name !== "set-cookie") res.setHeader(name, value);
        });
        // Each cookie its own header line (`forEach` gives them one by one, each replacing the last).
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
        const payload = Buffer.from(await response.arrayBuffer());
        res.setHeader("Content-Length", payload.length);
        res.end(method === "HEAD" ? undefined : payload);
      } catch (e) {
        if (e instanceof HttpError && !res.headersSent) {
          if (e.status === 413) closeAfterAnswer(req, res);
          res.statusCode = e.status;
          res.setHeader("Content-Type", "text/plain; charset=utf-8");
          res.end(`${e.message}\n`);
          return;
        }
        console.error("local-backend: HTTP action failed", e);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end(e instanceof Error ? e.message : String(e));
        } else {
          res.end();
        }
      }
    })();
  };
}
