/**
 * Serves the built app from dist/: files as they are (hashed assets cached for a year), every other
 * path gets index.html with 200 for the app's pages and 404 for unknown ones, all with the security
 * headers. Text is compressed (brotli or gzip) once and kept in memory.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { inlineScriptHashes, securityHeaders, type CspOptions } from "./headers.ts";
import { withPageHead, type PagePreview } from "./page-previews.ts";
import type { PreviewImageHandler } from "./preview-images.ts";
import { pageStatus } from "./routes.ts";
import { deferredAppStart, isServerRendered, withRenderedPage, type PageRenderer } from "./server-render.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|manifest\+json)|image\/svg\+xml)/;

/** Hashed build output: its name changes with its content, so it may be cached for good. */
const IMMUTABLE = /^\/assets\//;
/** Files that must be fetched fresh: the build check and the build's manifest. */
const NO_STORE = /^\/builds\//;

export type AppHandlerOptions = Omit<CspOptions, "inlineScriptHashes" | "host"> & {
  distDir: string;
  /** Compress every text file at start (default true). */
  precompress?: boolean;
  /**
   * Shop and stream pages' status and head (page-previews.ts): 404 for an unknown one, link preview
   * tags for the others, and for home and the explore lists. Null for any other path, or when the
   * backend could not be read.
   */
  previews?: (pathname: string, origin: string) => Promise<PagePreview | null>;
  /** The pictures previews name, `/og/{page}.png` (preview-images.ts; decision 068). */
  previewImages?: PreviewImageHandler;
  /** The site's public address for canonical and preview URLs; by default `http://{Host}`. */
  publicOrigin?: string;
  /**
   * Renders a public page to HTML with the data it was drawn with (server-render.ts; decision 040);
   * null when it could not. Without it, every page is rendered by the browser.
   */
  render?: PageRenderer;
};

const brotli = (raw: Buffer, quality = 9) =>
  brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality } });

/** A page made for one request is compressed faster than files kept for every visitor. */
const DYNAMIC_BROTLI_QUALITY = 5;

type Body = { raw: Buffer; br?: Buffer; gzip?: Buffer; dynamic?: boolean };

export function cacheControlFor(pathname: string): string {
  if (IMMUTABLE.test(pathname)) return "public, max-age=31536000, immutable";
  if (NO_STORE.test(pathname)) return "no-store";
  return "public, max-age=3600";
}

export function createAppHandler(options: AppHandlerOptions) {
  const distDir = path.resolve(options.distDir);
  const indexHtml = readFileSync(path.join(distDir, "index.html"));
  const indexText = indexHtml.toString("utf8");
  // A server-rendered page starts the app with an inline script of its own (server-render.ts).
  const appStart = deferredAppStart(indexText);
  const hashes = [
    ...inlineScriptHashes(indexText),
    ...(options.render ? inlineScriptHashes(appStart.script) : []),
  ];
  const bodies = new Map<string, Body>([["/index.html", { raw: indexHtml }]]);

  const headersFor = (req: IncomingMessage) =>
    securityHeaders({ ...options, inlineScriptHashes: hashes, host: req.headers.host });

  /** The file under dist/ for a URL path, or null (never outside dist/; dotfiles and .vite/ are private). */
  function fileFor(pathname: string): string | null {
    if (pathname.split("/").some((segment) => segment.startsWith("."))) return null;
    const file = path.join(distDir, pathname);
    if (!file.startsWith(distDir + path.sep)) return null;
    return existsSync(file) && statSync(file).isFile() ? file : null;
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    file: string,
    status: number,
    cache: string,
  ) {
    let body = bodies.get(key);
    if (!body) {
      body = { raw: readFileSync(file) };
      bodies.set(key, body);
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    sendBody(req, res, body, type, status, cache);
  }

  function sendBody(
    req: IncomingMessage,
    res: ServerResponse,
    body: Body,
    type: string,
    status: number,
    cache: string,
  ) {
    const accept = String(req.headers["accept-encoding"] ?? "");
    let payload = body.raw;
    res.setHeader("Vary", "Accept-Encoding");
    if (COMPRESSIBLE.test(type) && body.raw.length > 1024) {
      if (/\bbr\b/.test(accept)) {
        body.br ??= brotli(body.raw, body.dynamic ? DYNAMIC_BROTLI_QUALITY : 9);
        payload = body.br;
        res.setHeader("Content-Encoding", "br");
      } else if (/\bgzip\b/.test(accept)) {
        body.gzip ??= gzipSync(body.raw, { level: 9 });
        payload = body.gzip;
        res.setHeader("Content-Encoding", "gzip");
      }
    }
    res.statusCode = status;
    for (const [name, value] of Object.entries(headersFor(req))) res.setHeader(name, value);
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Length", payload.length);
    res.setHeader("Cache-Control", cache);
    res.end(req.method === "HEAD" ? undefined : payload);
  }

  // Compress the build's text files now, so no visitor waits for it (a few hundred ms of CPU).
  if (options.precompress !== false) {
    for (const entry of readdirSync(distDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const pathname = `/${path.relative(distDir, file).split(path.sep).join("/")}`;
      const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "";
      if (!fileFor(pathname) || !COMPRESSIBLE.test(type)) continue;
      const raw = readFileSync(file);
      if (raw.length > 1024)
        bodies.set(pathname, { raw, br: brotli(raw), gzip: gzipSync(raw, { level: 9 }) });
    }
  }

  return function handleApp(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.statusCode = 405;
      res.setHeader("Allow", "GET, HEAD");
      res.end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      pathname = "/\u0000"; // undecodable: an unknown page
    }
    const file = pathname === "/index.html" ? null : fileFor(pathname);
    if (file) {
      send(req, res, pathname, file, 200, cacheControlFor(pathname));
      return;
    }
    // A missing asset is a 404 too, but with the page rather than a bare error: same for every path.
    // The page itself is never cached, so a new build is picked up at the next load.
    const sendPage = () =>
      send(req, res, "/index.html", path.join(distDir, "index.html"), pageStatus(pathname), "no-cache");
    const origin = options.publicOrigin ?? `http://${req.headers.host ?? "localhost"}`;
    if (options.previewImages && pathname.startsWith("/og/")) {
      for (const [name, value] of Object.entries(headersFor(req))) res.setHeader(name, value);
      options.previewImages(req, res, pathname, origin).then(
        (answered) => {
          if (!answered) sendPage();
        },
        (error: unknown) => {
          console.warn(`Preview picture ${pathname} failed: ${String(error)}`);
          if (!res.headersSent) res.statusCode = 503;
          res.end();
        },
      );
      return;
    }
    const status = pageStatus(pathname);
    // An unknown path is drawn too: the not-found page, readable without JavaScript (a crawler's view).
    const render =
      options.render && (isServerRendered(pathname) || status === 404) ? options.render : undefined;
    if ((!options.previews && !render) || (status !== 200 && !render)) {
      sendPage();
      return;
    }
    const url = req.url ?? "/";
    void answerPage(pathname, url, origin, render, status).then(
      (page) => {
        if (!page) return sendPage();
        sendBody(
          req,
          res,
          { raw: Buffer.from(page.html), dynamic: true },
          CONTENT_TYPES[".html"] ?? "text/html",
          page.status,
          "no-cache",
        );
      },
      () => sendPage(),
    );
  };

  /**
   * A page's own HTML: its head for a shop or stream, then its content rendered by the server where it
   * is one of those pages, or an unknown path, or a missing shop or stream (the not-found page, with
   * its 404). Null: index.html as it is.
   */
  async function answerPage(
    pathname: string,
    url: string,
    origin: string,
    render: PageRenderer | undefined,
    pathStatus: 200 | 404,
  ): Promise<{ status: 200 | 404; html: string } | null> {
    const preview = options.previews ? await options.previews(pathname, origin) : null;
    const status = preview?.status ?? pathStatus;
    const rendered = render ? await render(url, origin) : null;
    if (!preview && !rendered) return null;
    let html = preview ? withPageHead(indexText, preview, origin) : indexText;
    if (rendered) html = withRenderedPage(html, rendered, appStart);
    return { status, html };
  }
}
