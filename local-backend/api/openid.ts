/**
 * OpenID discovery of the backend's own token issuer: `/.well-known/openid-configuration` and
 * `/.well-known/jwks.json`, as an OpenID provider publishes them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson, setCors } from "./http.ts";
import type { BackendServices } from "./services.ts";

/** Answers the discovery document and the keys; false for other paths. `origin`: the backend's, as the browser sees it. */
export function handleOpenId(
  services: BackendServices,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  origin: () => string,
): boolean {
  const method = req.method ?? "GET";
  if (pathname === "/.well-known/openid-configuration" && method === "GET") {
    setCors(req, res);
    sendJson(res, 200, services.auth.openIdConfiguration(origin()));
    return true;
  }
  if (pathname === "/.well-known/jwks.json" && method === "GET") {
    setCors(req, res);
    sendJson(res, 200, services.auth.jwks());
    return true;
  }
  return false;
}
