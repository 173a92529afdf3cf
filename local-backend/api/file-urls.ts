/**
 * File storage URLs on the embedded backend, shaped like Convex's:
 *
 * - `ctx.storage.getUrl(id)` → `<origin>/api/storage/<storage id>/<signature>`, with `?component=<path>`
 *   for a component's file as on Convex: the signature (HMAC of the id and component with this store's
 *   secret) makes the address unguessable, as Convex's are.
 * - `ctx.storage.generateUploadUrl()` → `<origin>/api/storage/upload?token=<token>`: the token says
 *   when it was issued and for which component, signed with the same secret, as Convex's (encrypted)
 *   ones do; it is good for an hour, after a restart too; `POST` the file there, get `{ storageId }`
 *   back (Convex's contract). Convex's 401s answer a token that is not one (`StorageTokenInvalid`) or
 *   is over an hour old (`StorageTokenExpired`). Decision 079.
 *
 * `<origin>` is the backend's origin as the browser sees it (the app's own origin in `npm run dev` and
 * `npm start`), so every request meets the same Host and Origin checks as the rest (access.ts).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { readOrCreateSecret } from "../core/files.ts";

export const STORAGE_PATH_PREFIX = "/api/storage/";
/** Convex's upload URLs expire after an hour. */
const UPLOAD_TOKEN_TTL_MS = 60 * 60_000;
/** The largest file one upload may carry. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** What an upload token allows: storing one file in `component`, or Convex's refusal. */
export type UploadGrant =
  | { ok: true; component: string }
  | { ok: false; code: "StorageTokenInvalid" | "StorageTokenExpired"; message: string };

const INVALID_TOKEN: UploadGrant = {
  ok: false,
  code: "StorageTokenInvalid",
  message: "Couldn't decode the StoreFileAuthorization token",
};

export class FileUrls {
  private readonly secret: Buffer;

  /**
   * `dataDir` keeps the signing secret, so file URLs and upload URLs outlive restarts (null: a new
   * one per process). `now` is the clock upload tokens are issued and checked by.
   */
  constructor(
    private readonly origin: () => string,
    dataDir: string | null,
    private readonly now: () => number = Date.now,
  ) {
    this.secret = readOrCreateSecret(
      dataDir,
      "file-url-secret",
      "file addresses given out so far stop working",
    );
  }

  private sign(text: string): string {
    return createHmac("sha256", this.secret).update(text).digest("base64url");
  }

  /** What a file URL signs: the id alone for the app's files (the addresses given out before components had theirs). */
  private fileKey(storageId: string, component: string): string {
    return component === "" ? storageId : `${storageId}?component=${component}`;
  }

  getUrl(storageId: string, component = ""): string {
    const query = component === "" ? "" : `?component=${encodeURIComponent(component)}`;
    return `${this.origin()}${STORAGE_PATH_PREFIX}${encodeURIComponent(storageId)}/${this.sign(this.fileKey(storageId, component))}${query}`;
  }

  /** The storage id a file URL's path names for `component`, or null when it is not one this store signed. */
  verify(pathname: string, component = ""): string | null {
    const match = /^\/api\/storage\/([^/]+)\/([A-Za-z0-9_-]{43})$/.exec(pathname);
    if (!match) return null;
    let storageId: string;
    try {
      storageId = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    return this.signed(this.fileKey(storageId, component), match[2]) ? storageId : null;
  }

  private signed(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  uploadUrl(component = ""): string {
    const payload = Buffer.from(JSON.stringify({ issued: this.now(), component })).toString("base64url");
    return `${this.origin()}${STORAGE_PATH_PREFIX}upload?token=${payload}.${this.sign(`upload:${payload}`)}`;
  }

  /** What an upload URL's token allows, checked as Convex checks its own. */
  checkUploadToken(token: string): UploadGrant {
    const [payload, signature, ...rest] = token.split(".");
    if (rest.length > 0 || !payload || !signature || !this.signed(`upload:${payload}`, signature)) {
      return INVALID_TOKEN;
    }
    let grant: unknown;
    try {
      grant = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return INVALID_TOKEN;
    }
    const { issued, component } = (grant ?? {}) as { issued?: unknown; component?: unknown };
    if (typeof issued !== "number" || typeof component !== "string") return INVALID_TOKEN;
    if (issued + UPLOAD_TOKEN_TTL_MS <= this.now()) {
      return { ok: false, code: "StorageTokenExpired", message: "Store File Authorization expired" };
    }
    return { ok: true, component };
  }
}
