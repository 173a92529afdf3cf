/**
 * Development sign-in (`/local-auth/*`): whether this caller may sign in here, and the backend's own
 * tokens for those who may (access.ts decides; decision 053).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { HttpError, readJson, sendJson, setCors } from "./http.ts";
import type { BackendServices } from "./services.ts";

const tokenRequest = z.object({
  sub: z.string().trim().min(1).max(255),
  email: z.string().max(320).optional(),
  name: z.string().max(200).optional(),
  picture: z.string().max(2048).optional(),
});

/** Answers `/local-auth/*`; false for a path or method it does not know. */
export async function handleDevSignIn(
  services: BackendServices,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<boolean> {
  const method = req.method ?? "GET";
  setCors(req, res);
  // Whether this caller may sign in here, for the sign-in page to say so: answered to anyone.
  if (pathname === "/local-auth/config" && method === "GET") {
    const refusal = services.access.devSignInRefusal(req);
    sendJson(res, 200, {
      devSignIn: refusal === null,
      message: refusal,
      issuer: services.auth.issuer,
      providers: services.auth.getProviders(),
    });
    return true;
  }
  const refusal = services.access.devSignInRefusal(req);
  if (refusal !== null) throw new HttpError(403, "Forbidden", refusal);
  if (method === "OPTIONS") {
    res.statusCode = 204;
    res.end();
    return true;
  }
  if (pathname === "/local-auth/token" && method === "POST") {
    const { sub, email, name, picture } = await readJson(req, tokenRequest);
    const limit = await services.allowSignIn(services.access.clientAddress(req));
    if (!limit.ok) {
      const seconds = Math.max(1, Math.ceil(limit.retryAfterMs / 1000));
      res.setHeader("Retry-After", String(seconds));
      throw new HttpError(
        429,
        "RateLimited",
        `Too many sign-ins from this machine in a short time. Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`,
      );
    }
    const issued = await services.auth.issueToken({ sub, email, name, picture });
    sendJson(res, 200, issued);
    return true;
  }
  return false;
}
