/**
 * File storage over HTTP, as Convex's `storage.rs` answers it: `POST /api/storage/upload?token=…` (an
 * upload URL from `ctx.storage.generateUploadUrl()`; a `Digest: sha-256=…` header is checked against
 * the bytes) and `GET /api/storage/<id>/<signature>[?component=…]` (a file URL from
 * `ctx.storage.getUrl()`, whole or one `Range`); the URLs themselves are made and checked in
 * `file-urls.ts`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError, readBody, sendJson } from "./http.ts";
import { MAX_UPLOAD_BYTES, STORAGE_PATH_PREFIX } from "./file-urls.ts";
import { digestFromHeader, FileStorageError } from "../runtime/storage-rules.ts";
import type { BackendServices } from "./services.ts";

/**
 * Uploaded files are the public's content on the app's own origin: they are served sandboxed (no
 * script of theirs runs as the app) and never sniffed into another type. A storage id's bytes never
 * change, so browsers may keep them 30 days, as Convex lets them (`private`: no shared cache).
 */
const STORED_FILE_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "private, max-age=2592000",
  "Accept-Ranges": "bytes",
};

/** What a `Range` header asks of a file of `size` bytes: all of it, one range, or nothing it has. */
type RangeAsked = { whole: true } | { whole: false; start: number; end: number } | "unsatisfiable";

/**
 * Convex serves one byte range (206) and answers 416 to several, or to none it can read; a header
 * that is not `bytes=` is ignored, and an empty file is answered whole. Where Convex's own answer
 * is not HTTP's (a range past the end, a suffix range), this follows RFC 9110 (decision 079).
 */
function rangeAsked(header: string | undefined, size: number): RangeAsked {
  if (header === undefined || !header.startsWith("bytes=")) return { whole: true };
  const ranges = header
    .slice("bytes=".length)
    .split(",")
    .flatMap((spec) => {
      const match = /^(\d*)-(\d*)$/.exec(spec.trim());
      return match && (match[1] || match[2]) ? [{ first: match[1], last: match[2] }] : [];
    });
  if (ranges.length !== 1) return "unsatisfiable";
  if (size === 0) return { whole: true };
  const { first, last } = ranges[0];
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0
      ? "unsatisfiable"
      : { whole: false, start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== "" && Number(last) < start)) return "unsatisfiable";
  return { whole: false, start, end };
}

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
  if (e instanceof FileStorageError) {
    return new HttpError(e.code === "InvalidStorageToken" ? 401 : 400, e.code, e.message);
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
  const query = new URL(req.url ?? "/", "http://localhost").searchParams;
  if (pathname === `${STORAGE_PATH_PREFIX}upload`) {
    if (method !== "POST") throw new HttpError(405, "MethodNotAllowed", "Upload with POST.");
    const token = query.get("token");
    if (token === null) {
      throw new HttpError(400, "BadQueryArgs", "Failed to deserialize query string: missing field `token`");
    }
    const grant = services.fileUrls.checkUploadToken(token);
    if (!grant.ok) throw new HttpError(401, grant.code, grant.message);
    // Convex reads the first Digest header only.
    const digestHeader = [req.headers.digest ?? []].flat()[0];
    const sha256 = digestHeader === undefined ? null : digestFromHeader(digestHeader);
    if (digestHeader !== undefined && !sha256) {
      throw new HttpError(400, "BadHeader", "Bad header for digest: invalid HTTP header");
    }
    const body = await readBody(req, MAX_UPLOAD_BYTES);
    const header = req.headers["content-type"];
    const contentType = typeof header === "string" && header.length <= 255 ? header : null;
    let storageId: string;
    try {
      storageId = await services.storeUpload(new Uint8Array(body), contentType, {
        component: grant.component,
        sha256,
      });
    } catch (e) {
      throw uploadFailure(e);
    }
    sendJson(res, 200, { storageId });
    return;
  }
  if (method !== "GET" && method !== "HEAD")
    throw new HttpError(405, "MethodNotAllowed", "Files are read with GET.");
  const component = query.get("component") ?? "";
  const storageId = services.fileUrls.verify(pathname, component);
  const file = storageId === null ? null : services.storedFile(storageId, component);
  if (!file) {
    const named = storageId ?? pathname.slice(STORAGE_PATH_PREFIX.length).split("/")[0];
    throw new HttpError(404, "FileNotFound", `File ${named} not found`);
  }
  const size = file.bytes.length;
  const range = rangeAsked(req.headers.range, size);
  if (range === "unsatisfiable") {
    res.statusCode = 416;
    res.setHeader("Content-Range", `bytes */${size}`);
    res.setHeader("Content-Length", 0);
    res.end();
    return;
  }
  for (const [name, value] of Object.entries(STORED_FILE_HEADERS)) res.setHeader(name, value);
  res.setHeader("Content-Type", file.contentType ?? "application/octet-stream");
  let bytes = file.bytes;
  if (range.whole) {
    res.statusCode = 200;
    res.setHeader("Digest", `sha-256=${file.sha256}`);
  } else {
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    bytes = bytes.subarray(range.start, range.end + 1);
  }
  res.setHeader("Content-Length", bytes.length);
  res.end(method === "HEAD" ? undefined : bytes);
}
