/**
 * File storage over HTTP: `POST /api/storage/upload?token=…` (an upload URL from
 * `ctx.storage.generateUploadUrl()`) and `GET /api/storage/<id>/<signature>` (a file URL from
 * `ctx.storage.getUrl()`); the URLs themselves are made and checked in `file-urls.ts`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, readBody, sendJson } from "./http.ts";
import { MAX_UPLOAD_BYTES, STORAGE_PATH_PREFIX } from "./file-urls.ts";
import type { BackendServices } from "./services.ts";

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

export async function handleStorage(
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
