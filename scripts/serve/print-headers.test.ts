import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { buildMetaPath, LATEST_BUILD_PATH, type BuildMeta } from "../build/build-info.ts";
import { formatHeaders, headersForBuild } from "./print-headers.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A dist/ folder as `npm run build` leaves it, for a cloud deployment with Clerk. */
function fakeBuild(): string {
  const dist = mkdtempSync(path.join(tmpdir(), "livelocal-dist-"));
  dirs.push(dist);
  const meta: BuildMeta = {
    id: "build-1",
    builtAt: "2026-11-25T00:00:00.000Z",
    convexUrl: "https://happy-otter-123.convex.cloud",
    clerkPublishableKey: `pk_test_${Buffer.from("clerk.example.com$").toString("base64")}`,
  };
  mkdirSync(path.join(dist, "builds/meta"), { recursive: true });
  writeFileSync(path.join(dist, LATEST_BUILD_PATH), JSON.stringify({ id: meta.id }));
  writeFileSync(path.join(dist, buildMetaPath(meta.id)), JSON.stringify(meta));
  writeFileSync(path.join(dist, "index.html"), "<html><head><script>theme()</script></head></html>");
  return dist;
}

test("prints the headers npm start sends, worked out for the build", () => {
  const headers = headersForBuild(fakeBuild());
  const csp = headers["Content-Security-Policy"];
  expect(csp).toContain(
    "connect-src 'self' https://happy-otter-123.convex.cloud wss://happy-otter-123.convex.cloud",
  );
  expect(csp).toContain("https://happy-otter-123.convex.site");
  expect(csp).toContain("https://clerk.example.com");
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(headers).toMatchObject({
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
  });
});

test("formats them as lines or as a _headers file", () => {
  const headers = { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" };
  expect(formatHeaders(headers, "plain")).toBe("X-Content-Type-Options: nosniff\nX-Frame-Options: DENY\n");
  expect(formatHeaders(headers, "netlify")).toBe(
    "/*\n  X-Content-Type-Options: nosniff\n  X-Frame-Options: DENY\n",
  );
});

test("says to build first when there is no build", () => {
  const empty = mkdtempSync(path.join(tmpdir(), "livelocal-dist-"));
  dirs.push(empty);
  expect(() => headersForBuild(empty)).toThrow(/Run `npm run build` first/);
});
