/**
 * What every HTTP surface of the backend shares: reading a request's body within its limits, errors
 * as answers, CORS, and who is calling (the `Authorization` header). The surfaces are `public-api.ts`,
 * `file-storage.ts`, `http-actions.ts`, `dev-sign-in.ts`, `openid.ts` and the CLI's (`cli/`);
 * `router.ts` sends each request to its surface.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { BAD_ADMIN_KEY } from "./admin-key.ts";
import { AuthError } from "./auth.ts";
import type { Identity } from "../runtime/execution.ts";
import { describeIssue } from "../core/protocol.ts";
import type { BackendServices } from "./services.ts";

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
export async function withBodyTurn<T>(
  req: IncomingMessage,
  maxBytes: number,
  work: () => Promise<T>,
): Promise<T> {
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

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** 200 with no body. */
export function sendOk(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader("Content-Length", 0);
  res.end();
}

/** CORS for the request's Origin, which `services.access` has already allowed. */
export function setCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization, Convex-Client");
  res.setHeader("Access-Control-Max-Age", "86400");
}

export type Caller = { identity: Identity | null; admin: boolean };

/**
 * Who calls, from the `Authorization` header: nobody, a user (`Bearer <token>`), or an admin
 * (`Convex <admin key>[:<identity>]`, from this machine only, never through a proxy). Throws HttpError
 * when it is invalid.
 */
export async function callerFromHeader(services: BackendServices, req: IncomingMessage): Promise<Caller> {
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

/**
 * A refused body is not read to its end: the answer says the connection closes, and once it is sent
 * the socket is closed, after a short grace in which what the client is still sending is discarded
 * (closing at once, with data unread, would reset the connection and could lose the answer).
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
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
