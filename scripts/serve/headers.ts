/**
 * Security headers for `npm start`. The Content-Security-Policy allows the app itself, the Convex
 * deployment (https and wss) and, when configured, Clerk's hosts — nothing else may run or be called.
 */
import { createHash } from "node:crypto";

export type CspOptions = {
  /** The Convex deployment built in; null in local mode (the app's own origin serves it). */
  convexUrl: string | null;
  /**
   * Where the deployment's HTTP actions answer (`VITE_CONVEX_SITE_URL`, src/lib/convex-site.ts); when
   * absent, a `.convex.cloud` deployment's `.convex.site` origin. Local mode serves them on 'self'.
   */
  convexSiteUrl?: string | null;
  /** Clerk's publishable key built in; its frontend API host is read from it. */
  clerkPublishableKey: string | null;
  /** Hashes ('sha256-…') of the inline scripts of index.html (the theme script). */
  inlineScriptHashes: readonly string[];
  /** The request's host, for same-origin WebSockets (CSP's 'self' does not cover ws: everywhere). */
  host?: string;
};

/** `'sha256-…'` of every inline classic script in an HTML document (JSON-LD data blocks never run). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\ssrc\s*=/i.test(attributes) || /type\s*=\s*["']?application\/(?:ld\+)?json/i.test(attributes))
      continue;
    hashes.push(
      `'sha256-${createHash("sha256")
        .update(match[2] ?? "")
        .digest("base64")}'`,
    );
  }
  return hashes;
}

/** Clerk's frontend API host from a publishable key: pk_test_/pk_live_ + base64("<host>$"). */
export function clerkFrontendApiHost(publishableKey: string): string | null {
  const encoded = /^pk_(?:test|live)_([A-Za-z0-9+/=]+)$/.exec(publishableKey)?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  return /^[a-z0-9.-]+\$$/i.test(decoded) ? decoded.slice(0, -1) : null;
}

/** The HTTP actions' origin for a deployment, as src/lib/convex-site.ts computes it; null if unknown. */
export function convexSiteOrigin(convexUrl: string, convexSiteUrl?: string | null): string | null {
  try {
    if (convexSiteUrl?.trim()) return new URL(convexSiteUrl.trim()).origin;
    const url = new URL(convexUrl);
    if (!url.hostname.endsWith(".convex.cloud")) return null;
    url.hostname = url.hostname.replace(/\.convex\.cloud$/, ".convex.site");
    return url.origin;
  } catch {
    return null;
  }
}

// A Host header is client input: only a plain host[:port] goes into the policy.
const SAFE_HOST = /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:]+\](?::\d{1,5})?$/i;

export function contentSecurityPolicy(options: CspOptions): string {
  const connect = ["'self'"];
  if (options.host && SAFE_HOST.test(options.host))
    connect.push(`ws://${options.host}`, `wss://${options.host}`);
  const script = ["'self'", ...options.inlineScriptHashes];
  const frame: string[] = [];
  const image = ["'self'", "data:", "blob:", "https:"];
  if (options.convexUrl) {
    const convex = new URL(options.convexUrl);
    connect.push(convex.origin, `wss://${convex.host}`);
    // The HTTP actions (the data export's download) answer on the deployment's site origin.
    const site = convexSiteOrigin(options.convexUrl, options.convexSiteUrl);
    if (site && !connect.includes(site)) connect.push(site);
  }
  const clerkHost = options.clerkPublishableKey ? clerkFrontendApiHost(options.clerkPublishableKey) : null;
  if (clerkHost) {
    // Clerk's documented needs: its frontend API for script and calls, Cloudflare's bot check.
    script.push(`https://${clerkHost}`, "https://challenges.cloudflare.com");
    connect.push(`https://${clerkHost}`);
    frame.push("https://challenges.cloudflare.com");
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(" ")}`,
    // Inline styles: React's style props and Clerk's components set them; they cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // Sellers' images and videos may live on their own https hosts (decision 005).
    `img-src ${image.join(" ")}`,
    "media-src 'self' https: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    `frame-src ${frame.length ? frame.join(" ") : "'none'"}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: CspOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // For browsers without frame-ancestors.
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
    // "Near me" asks for the position on this origin only.
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=()",
  };
}
