/**
 * HTTP endpoints on the backend origin (`/api/*` for ConvexHttpClient, local auth, OpenID discovery)
 * and the HTTP actions site (Convex's `.site` origin) for `convex/http.ts`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { convexToJson, type JSONValue, type Value } from "convex/values";
import { z } from "zod";
import { BAD_ADMIN_KEY } from "./admin-key.ts";
import { AuthError } from "./auth.ts";
import type { CallOutcome, FunctionKind, Identity } from "./engine.ts";
import { decodeArgs, describeIssue, encodeTs } from "./protocol.ts";
import { MAX_UPLOAD_BYTES, STORAGE_PATH_PREFIX } from "./file-urls.ts";
import { requestPathname } from "./paths.ts";
import type { BackendServices } from "./services.ts";

/** Convex's status code for "the function failed". */
export const STATUS_CODE_UDF_FAILED = 560;
/**
 * The largest body of a function call (`/api/query|mutation|action|function|run`): Convex's
 * `MAX_BACKEND_PUBLIC_API_REQUEST_SIZE`, 16 MiB of arguments and 2,000 bytes for the rest (decision 057).
 */
export const MAX_FUNCTION_REQUEST_BYTES = 16 * 1024 * 1024 + 2000;
/** The largest request body of an HTTP action: Convex's `HTTP_ACTION_BODY_LIMIT`. */
export const MAX_HTTP_ACTION_BODY_BYTES = 20 * 1024 * 1024;
/** Other JSON bodies (local sign-in, the CLI's small requests). */
const MAX_BODY_BYTES = MAX_FUNCTION_REQUEST_BYTES;
/**
 * Bodies above this size are "heavy": at most `HEAVY_REQUESTS` of them are read and handled at once,
 * the others wait unread (the network holds them back), so a few large calls cannot fill the memory.
 */
const HEAVY_BODY_BYTES = 1024 * 1024;
const HEAVY_REQUESTS = 2;

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function describeBytes(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString("en-US")} bytes`;
}

function payloadTooLarge(maxBytes: number): HttpError {
  return new HttpError(
    413,
    "PayloadTooLarge",
    `The request body is larger than this endpoint accepts (${describeBytes(maxBytes)}).`,
  );
}

/** The body's declared length (`Content-Length`), or null when it is sent in chunks. */
function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers["content-length"];
  if (header === undefined) return null;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/**
 * Reads the body as it arrives, refusing it (413) as soon as it is over `maxBytes`, or at once when
 * its declared length is: nothing past the limit is kept, and the connection is closed after the
 * answer rather than read to the end.
 */
export async function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = declaredLength(req);
  if (declared !== null && declared > maxBytes) throw payloadTooLarge(maxBytes);
  if (req.readableEnded) return Buffer.alloc(0);
  // Read with events, not `for await`: leaving that loop early destroys the request, and with it
  // the socket the refusal is to be sent on.
  return await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > maxBytes) {
        req.pause();
        chunks.length = 0;
        finish(payloadTooLarge(maxBytes));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => finish(null);
    const onError = (e: Error) => finish(e);
    const onClose = () => finish(new Error("The request was closed before its body was sent."));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/** Turns for heavy requests: FIFO, at most `HEAVY_REQUESTS` held at once. */
class HeavyRequestTurns {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  async take(): Promise<() => void> {
    if (this.held >= HEAVY_REQUESTS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held -= 1;
    };
  }
}

const heavyRequests = new HeavyRequestTurns();

/**
 * Runs `work` (which reads the body) at once for a small body, or in its turn for one that may be
 * heavy (declared over `HEAVY_BODY_BYTES`, or sent in chunks of unknown total). A body over `maxBytes`
 * is refused before it waits.
 */
async function withBodyTurn<T>(req: IncomingMessage, maxBytes: number, work: () => Promise<T>): Promise<T> {
  const declared = declaredLength(req);
  if (declared !== null && declared > maxBytes) throw payloadTooLarge(maxBytes);
  const heavy =
    declared === null ? req.headers["transfer-encoding"] !== undefined : declared > HEAVY_BODY_BYTES;
  if (!heavy) return await work();
  const release = await heavyRequests.take();
  try {
    return await work();
  } finally {
    release();
  }
}

/** The body as JSON checked against `schema`; a 400 with one sentence otherwise (nothing runs). */
export async function readJson<T>(
  req: IncomingMessage,
  schema: z.ZodType<T>,
  maxBytes = MAX_BODY_BYTES,
): Promise<T> {
  const body = await readBody(req, maxBytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8") || "{}");
  } catch {
    throw new HttpError(400, "BadJsonBody", "The request body is not JSON.");
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) throw new HttpError(400, "BadJsonBody", describeIssue(checked.error, "request body"));
  return checked.data;
}

/** `/api/query|mutation|action`: arguments as an array (one per argument); `/api/function`: one object. */
const functionRequest = z.object({
  path: z.string().min(1).max(1024),
  format: z.enum(["convex_encoded_json", "json"]).optional(),
  args: z.unknown().optional(),
});
function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `/api/run/<function identifier>`: the path is in the URL. */
const runRequest = functionRequest.extend({ path: z.undefined().optional() });

const tokenRequest = z.object({
  sub: z.string().trim().min(1).max(255),
  email: z.string().max(320).optional(),
  name: z.string().max(200).optional(),
  picture: z.string().max(2048).optional(),
});

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** `/api/run/messages/list` runs `messages:list` (Convex's HTTP API); null for other paths. */
function runRoute(pathname: string): FunctionRoute | null {
  const match = /^\/api\/run\/(.+\/[^/]+)$/.exec(pathname);
  if (!match) return null;
  let identifier: string;
  try {
    identifier = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const slash = identifier.lastIndexOf("/");
  return {
    kind: undefined,
    argsAsArray: false,
    path: `${identifier.slice(0, slash)}:${identifier.slice(slash + 1)}`,
  };
}

/** CORS for the request's Origin, which `services.access` has already allowed. */
function setCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Convex-Client");
  res.setHeader("Access-Control-Max-Age", "86400");
}

type Caller = { identity: Identity | null; admin: boolean };

/**
 * Who calls, from the `Authorization` header: nobody, a user (`Bearer <token>`), or an admin
 * (`Convex <admin key>[:<identity>]`, from this machine only, never through a proxy). Throws HttpError
 * when it is invalid.
 */
async function callerFromHeader(services: BackendServices, req: IncomingMessage): Promise<Caller> {
  const header = req.headers.authorization;
  if (!header) return { identity: null, admin: false };
  const space = header.indexOf(" ");
  const scheme = space === -1 ? header : header.slice(0, space);
  const value = space === -1 ? "" : header.slice(space + 1);
  if (scheme === "Bearer" && value) {
    try {
      return { identity: (await services.auth.verify(value)).identity, admin: false };
    } catch (e) {
      if (e instanceof AuthError) throw new HttpError(e.status, e.code, e.message);
      throw new HttpError(401, "Unauthenticated", String(e));
    }
  }
  if (scheme === "Convex" && value) {
    if (!services.access.isOperator(req)) {
      throw new HttpError(
        403,
        "Forbidden",
        "The admin key is accepted from this machine only, never through a proxy.",
      );
    }
    const admin = services.adminKey.parse(value);
    if (admin instanceof Error) {
      throw new HttpError(
        401,
        admin.message === BAD_ADMIN_KEY ? "BadAdminKey" : "Unauthenticated",
        admin.message,
      );
    }
    return { identity: admin.identity, admin: true };
  }
  throw new HttpError(
    401,
    "Unauthenticated",
    "The local backend accepts `Authorization: Bearer <token>` or `Authorization: Convex <admin key>`.",
  );
}

function outcomeBody(
  outcome: Pick<CallOutcome, "logLines"> &
    ({ success: true; value: Value } | { success: false; errorMessage: string; errorData?: Value }),
): { status: number; body: Record<string, unknown> } {
  if (outcome.success) {
    return {
      status: 200,
      body: { status: "success", value: convexToJson(outcome.value), logLines: outcome.logLines },
    };
  }
  return {
    status: STATUS_CODE_UDF_FAILED,
    body: {
      status: "error",
      errorMessage: outcome.errorMessage,
      ...(outcome.errorData !== undefined ? { errorData: convexToJson(outcome.errorData) } : {}),
      logLines: outcome.logLines,
    },
  };
}

/**
 * How a route takes its arguments: `/api/query|mutation|action` as the official client sends them (an
 * array, one per argument) or as Convex's HTTP API documents them (one object); `/api/function` and
 * `/api/run/<module>/<function>` one object. `path` comes from the body, or from the URL for `/api/run`.
 */
type FunctionRoute = { kind: FunctionKind | undefined; argsAsArray: boolean; path?: string };

async function runFunctionRequest(
  services: BackendServices,
  req: IncomingMessage,
  route: FunctionRoute,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const body: { path?: string; args?: unknown } = await readJson<{ path?: string; args?: unknown }>(
    req,
    route.path === undefined ? functionRequest : runRequest,
    MAX_FUNCTION_REQUEST_BYTES,
  );
  const path = route.path ?? body.path ?? "";
  const caller = await callerFromHeader(services, req);
  let wireArgs: JSONValue[];
  if (route.argsAsArray && Array.isArray(body.args)) {
    wireArgs = body.args as JSONValue[];
  } else if (!route.argsAsArray || body.args === undefined || isPlainObject(body.args)) {
    wireArgs = [(body.args === undefined ? {} : body.args) as JSONValue];
  } else {
    throw new HttpError(400, "BadJsonBody", "Invalid `args`: expected an array of arguments or one object");
  }
  const args = decodeArgs(wireArgs, path);
  if (args instanceof Error) {
    return outcomeBody({ success: false, errorMessage: args.message, logLines: [] });
  }
  const outcome = await services.call(path, args, {
    identity: caller.identity,
    // An admin runs internal functions too (`npx convex run`), as on Convex.
    publicOnly: !caller.admin,
    kind: route.kind,
    deferWrites: true,
  });
  services.printLogs(outcome.udfPath, outcome.logLines);
  if (!outcome.writes.isEmpty) services.reportWrites(outcome.writes);
  return outcomeBody(outcome);
}

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
      if (method === "POST" && pathname === "/api/query_ts") {
        sendJson(res, 200, { ts: encodeTs(services.clock.next()) });
        return true;
      }
      const routes: Record<string, FunctionRoute> = {
        "/api/query": { kind: "query", argsAsArray: true },
        "/api/query_at_ts": { kind: "query", argsAsArray: true },
        "/api/mutation": { kind: "mutation", argsAsArray: true },
        "/api/action": { kind: "action", argsAsArray: true },
        "/api/function": { kind: undefined, argsAsArray: false },
      };
      const route = routes[pathname.replace(/\/$/, "")] ?? runRoute(pathname);
      if (!route) return false;
      if (method !== "POST")
        throw new HttpError(405, "MethodNotAllowed", `${method} is not allowed on ${pathname}`);
      const { status, body } = await withBodyTurn(req, MAX_FUNCTION_REQUEST_BYTES, () =>
        runFunctionRequest(services, req, route),
      );
      sendJson(res, status, body);
      return true;
    }
    if (pathname === "/.well-known/openid-configuration" && method === "GET") {
      setCors(req, res);
      sendJson(res, 200, services.auth.openIdConfiguration(options.origin()));
      return true;
    }
    if (pathname === "/.well-known/jwks.json" && method === "GET") {
      setCors(req, res);
      sendJson(res, 200, services.auth.jwks());
      return true;
    }
    if (pathname.startsWith("/local-auth/") || (options.extraRoutes && pathname in options.extraRoutes)) {
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
      if (pathname.startsWith("/local-auth/")) {
        const refusal = services.access.devSignInRefusal(req);
        if (refusal !== null) throw new HttpError(403, "Forbidden", refusal);
      } else if (!services.access.isOperator(req)) {
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
      if (pathname === "/local-auth/token" && method === "POST") {
        const { sub, email, name, picture } = await readJson(req, tokenRequest);
        const limit = await services.allowSignIn(req.socket.remoteAddress ?? "unknown");
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

/**
 * A refused body is not read to its end: the answer says the connection closes, and once it is sent
 * the socket is closed, after a short grace in which what the client is still sending is discarded
 * (closing at once, with data unread, would reset the connection and could lose the answer).
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
  // Null once the request has been destroyed (the client went away).
  const socket = req.socket as IncomingMessage["socket"] | null;
  if (!socket || socket.destroyed) return;
  res.once("finish", () => {
    req.resume();
    const timer = setTimeout(() => socket.destroy(), 1000);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
}

/**
 * Uploaded files are the public's content on the app's own origin: they are served sandboxed (no
 * script of theirs runs as the app) and never sniffed into another type.
 */
const STORED_FILE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "private, max-age=3600",
};

/** Why an upload was not stored, in words (nothing of it was kept): a full disk is 507, as WebDAV answers it. */
function uploadFailure(e: unknown): unknown {
  const error = e as (NodeJS.ErrnoException & { cause?: { code?: string } }) | null;
  // A database error reaches here as the call's error, its SQLite error its cause.
  const code = error?.code ?? error?.cause?.code;
  if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL") {
    console.error(`local-backend: an upload was refused: ${e instanceof Error ? e.message : String(e)}`);
    return new HttpError(507, "InsufficientStorage", "The server's disk is full; the file was not stored.");
  }
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    console.error(`local-backend: an upload was refused: ${e instanceof Error ? e.message : String(e)}`);
    return new HttpError(
      500,
      "StorageNotWritable",
      "The server cannot write its files; the file was not stored.",
    );
  }
  return e;
}

/** `POST /api/storage/upload?token=…` stores a file; `GET /api/storage/<id>/<signature>` serves one (file-urls.ts). */
async function handleStorage(
  services: BackendServices,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> {
  const method = req.method ?? "GET";
  if (pathname === `${STORAGE_PATH_PREFIX}upload`) {
    if (method !== "POST") throw new HttpError(405, "MethodNotAllowed", "Upload with POST.");
    const token = new URL(req.url ?? "/", "http://localhost").searchParams.get("token");
    if (!services.fileUrls.isValid(token)) {
      throw new HttpError(
        403,
        "InvalidUploadUrl",
        "This upload URL is not valid or has expired; ask for a new one.",
      );
    }
    const body = await readBody(req, MAX_UPLOAD_BYTES);
    if (!services.fileUrls.redeem(token)) {
      throw new HttpError(403, "InvalidUploadUrl", "This upload URL has been used; ask for a new one.");
    }
    const header = req.headers["content-type"];
    const contentType = typeof header === "string" && header.length <= 255 ? header : null;
    let storageId: string;
    try {
      storageId = await services.storeUpload(new Uint8Array(body), contentType);
    } catch (e) {
      throw uploadFailure(e);
    }
    sendJson(res, 200, { storageId });
    return;
  }
  if (method !== "GET" && method !== "HEAD")
    throw new HttpError(405, "MethodNotAllowed", "Files are read with GET.");
  const storageId = services.fileUrls.verify(pathname);
  const file = storageId === null ? null : services.storedFile(storageId);
  if (!file) throw new HttpError(404, "NotFound", "There is no such file.");
  const bytes = Buffer.from(await file.blob.arrayBuffer());
  res.statusCode = 200;
  for (const [name, value] of Object.entries(STORED_FILE_HEADERS)) res.setHeader(name, value);
  res.setHeader("Content-Type", file.contentType ?? "application/octet-stream");
  res.setHeader("Content-Length", bytes.length);
  res.end(method === "HEAD" ? undefined : bytes);
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
          if (name.toLowerCase() !== "content-length") res.setHeader(name, value);
        });
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
