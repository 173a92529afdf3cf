import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cacheControlFor, createAppHandler } from "./app-handler.ts";
import {
  clerkFrontendApiHost,
  contentSecurityPolicy,
  convexSiteOrigin,
  inlineScriptHashes,
} from "./headers.ts";
import { pageStatus } from "./routes.ts";

describe("pageStatus", () => {
  test.each([
    "/",
    "/sign-in",
    "/explore/streams",
    "/explore/live-shops",
    "/explore/anything",
    "/live-shop/sarahs-vintage",
    "/stream/k17abc",
    "/watch-list",
    "/dashboard",
    "/dashboard/streams/new",
    "/dashboard/not-a-page",
    "/dashboard/admin/users",
  ])("%s is a page (200)", (pathname) => {
    expect(pageStatus(pathname)).toBe(200);
  });

  test.each(["/nope", "/live-shop", "/live-shop/a/b", "/stream/", "/explorer", "/sign-in/x", "/index.htm"])(
    "%s is unknown (404)",
    (pathname) => {
      expect(pageStatus(pathname)).toBe(404);
    },
  );
});

describe("Content-Security-Policy", () => {
  const html = `<script>document.documentElement.classList.toggle("dark", true);</script>
    <script type="module" src="/assets/index.js"></script><script type="application/ld+json">{}</script>`;

  test("hashes only the inline classic scripts", () => {
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(1);
    expect(hashes[0]).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });

  test("local mode allows only the app itself (and its own WebSocket), never framing", () => {
    const csp = contentSecurityPolicy({
      convexUrl: null,
      clerkPublishableKey: null,
      inlineScriptHashes: ["'sha256-abc='"],
      host: "127.0.0.1:4173",
    });
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'sha256-abc='");
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:4173 wss://127.0.0.1:4173");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/clerk|convex\.cloud|unsafe-eval/);
  });

  test("with a deployment, the Convex origin (https and wss) and Clerk's frontend API are allowed", () => {
    const key = `pk_test_${Buffer.from("happy-otter-12.clerk.accounts.dev$").toString("base64")}`;
    const csp = contentSecurityPolicy({
      convexUrl: "https://happy-otter-123.convex.cloud",
      clerkPublishableKey: key,
      inlineScriptHashes: [],
    });
    expect(csp).toContain("https://happy-otter-123.convex.cloud wss://happy-otter-123.convex.cloud");
    expect(csp).toMatch(/script-src 'self' https:\/\/happy-otter-12\.clerk\.accounts\.dev/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/happy-otter-12\.clerk\.accounts\.dev/);
  });

  test("with a deployment, its HTTP actions origin (.convex.site, or the one configured) may be called", () => {
    const options = {
      convexUrl: "https://happy-otter-123.convex.cloud",
      clerkPublishableKey: null,
      inlineScriptHashes: [],
    };
    expect(contentSecurityPolicy(options)).toMatch(
      /connect-src [^;]*https:\/\/happy-otter-123\.convex\.site/,
    );
    const custom = contentSecurityPolicy({ ...options, convexSiteUrl: "https://api.example.com/" });
    expect(custom).toMatch(/connect-src [^;]*https:\/\/api\.example\.com/);
    expect(custom).not.toContain("convex.site");
    expect(convexSiteOrigin("https://convex.example.com", null)).toBeNull();
    expect(contentSecurityPolicy({ ...options, convexUrl: null })).not.toContain("convex.site");
  });

  test("a hostile Host header stays out of the policy", () => {
    const csp = contentSecurityPolicy({
      convexUrl: null,
      clerkPublishableKey: null,
      inlineScriptHashes: [],
      host: "evil.test; script-src *",
    });
    expect(csp).not.toContain("evil");
  });

  test("reads Clerk's host from a publishable key, and refuses anything else", () => {
    expect(clerkFrontendApiHost(`pk_live_${Buffer.from("clerk.example.com$").toString("base64")}`)).toBe(
      "clerk.example.com",
    );
    expect(clerkFrontendApiHost("sk_test_abc")).toBeNull();
    expect(clerkFrontendApiHost(`pk_test_${Buffer.from("a b$").toString("base64")}`)).toBeNull();
  });
});

test("hashed assets are cached for a year, build checks never, other files an hour", () => {
  expect(cacheControlFor("/assets/index-abc.js")).toBe("public, max-age=31536000, immutable");
  expect(cacheControlFor("/builds/latest.json")).toBe("no-store");
  expect(cacheControlFor("/favicon.svg")).toBe("public, max-age=3600");
});

describe("the app handler", () => {
  let server: Server;
  let origin = "";
  const INDEX = `<!doctype html><title>LiveLocal</title><script>window.theme = 1;</script><div id="root"></div>`;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), "livelocal-serve-"));
    mkdirSync(path.join(dist, "assets"));
    mkdirSync(path.join(dist, ".vite"));
    writeFileSync(path.join(dist, "index.html"), INDEX);
    writeFileSync(
      path.join(dist, "assets/index-abc.js"),
      `console.log(${JSON.stringify("x".repeat(5000))});`,
    );
    writeFileSync(path.join(dist, ".vite/manifest.json"), "{}");
    const handler = createAppHandler({ distDir: dist, convexUrl: null, clerkPublishableKey: null });
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a known page answers 200 with index.html, uncached, with the security headers", async () => {
    const response = await fetch(`${origin}/explore/streams?category=toys_kids`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(inlineScriptHashes(INDEX)[0]);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  test("an unknown path answers 404 with the same page, for the SPA's not-found page", async () => {
    const response = await fetch(`${origin}/nope`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(INDEX);
  });

  test("assets are served with their type, compressed and cached for good", async () => {
    const response = await fetch(`${origin}/assets/index-abc.js`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(await response.text()).toContain("console.log");
  });

  test("the build's private files and paths outside dist/ are not served", async () => {
    for (const pathname of ["/.vite/manifest.json", "/%2e%2e/%2e%2e/etc/passwd", "/assets/../../x"]) {
      const response = await fetch(`${origin}${pathname}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(INDEX);
    }
  });

  test("only GET and HEAD", async () => {
    expect((await fetch(`${origin}/`, { method: "POST" })).status).toBe(405);
  });
});
