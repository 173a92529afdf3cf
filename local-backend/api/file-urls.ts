/**
 * File storage URLs on the embedded backend, shaped like Convex's:
 *
 * - `ctx.storage.getUrl(id)` → `<origin>/api/storage/<storage id>/<signature>`: the signature (HMAC of the
 *   id with this store's secret) makes the address unguessable, as Convex's are, although storage ids
 *   here are sequential.
 * - `ctx.storage.generateUploadUrl()` → `<origin>/api/storage/upload?token=<token>`: one upload per
 *   token, within an hour; `POST` the file there, get `{ storageId }` back (Convex's contract).
 *
 * `<origin>` is the backend's origin as the browser sees it (the app's own origin in `npm run dev` and
 * `npm start`), so every request meets the same Host and Origin checks as the rest (access.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readOrCreateSecret } from "../core/files.ts";

export const STORAGE_PATH_PREFIX = "/api/storage/";
/** Convex's upload URLs expire after an hour. */
const UPLOAD_TOKEN_TTL_MS = 60 * 60_000;
/** The largest file one upload may carry. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export class FileUrls {
  private readonly secret: Buffer;
  private readonly uploadTokens = new Map<string, number>();

  /** `dataDir` keeps the signing secret, so file URLs outlive restarts (null: a new one per process). */
  constructor(
    private readonly origin: () => string,
    dataDir: string | null,
  ) {
    this.secret = readOrCreateSecret(
      dataDir,
      "file-url-secret",
      "file addresses given out so far stop working",
    );
  }

  private signature(storageId: string): string {
    return createHmac("sha256", this.secret).update(storageId).digest("base64url");
  }

  getUrl(storageId: string): string {
    return `${this.origin()}${STORAGE_PATH_PREFIX}${encodeURIComponent(storageId)}/${this.signature(storageId)}`;
  }

  /** The storage id a file URL's path names, or null when it is not one this store signed. */
  verify(pathname: string): string | null {
    const match = /^\/api\/storage\/([^/]+)\/([A-Za-z0-9_-]{43})$/.exec(pathname);
    if (!match) return null;
    let storageId: string;
    try {
      storageId = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
    const expected = Buffer.from(this.signature(storageId));
    const given = Buffer.from(match[2]);
    return expected.length === given.length && timingSafeEqual(expected, given) ? storageId : null;
  }

  uploadUrl(): string {
    const now = Date.now();
    for (const [token, expires] of this.uploadTokens) if (expires < now) this.uploadTokens.delete(token);
    const token = randomBytes(32).toString("base64url");
    this.uploadTokens.set(token, now + UPLOAD_TOKEN_TTL_MS);
    return `${this.origin()}${STORAGE_PATH_PREFIX}upload?token=${token}`;
  }

  /** Whether an upload token was issued here within the hour and not used yet. */
  isValid(token: string | null): boolean {
    if (!token) return false;
    const expires = this.uploadTokens.get(token);
    return expires !== undefined && expires >= Date.now();
  }

  /** Uses up an upload token: true once per token issued here within the hour. */
  redeem(token: string | null): boolean {
    if (!token) return false;
    const expires = this.uploadTokens.get(token);
    this.uploadTokens.delete(token);
    return expires !== undefined && expires >= Date.now();
  }
}
