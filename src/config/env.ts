/** "local": development sign-in (the embedded backend's); "clerk": sign-in with Clerk. */
export type AuthMode = "local" | "clerk";

/**
 * Where the app's Convex functions run: "embedded", the local backend on the page's own origin
 * (`npm run dev`, `npm start`); "deployment", the Convex deployment VITE_CONVEX_URL names.
 */
export type Backend = "embedded" | "deployment";

/**
 * The three combinations: development sign-in on the embedded backend (nothing set); Clerk on a Convex
 * deployment (VITE_CONVEX_URL and VITE_CLERK_PUBLISHABLE_KEY); Clerk on the embedded backend
 * (VITE_CLERK_PUBLISHABLE_KEY alone, with CLERK_JWT_ISSUER_DOMAIN where the backend starts; decision 073).
 */
export type AppConfig =
  | { mode: "local"; backend: "embedded"; convexUrl: string }
  | { mode: "clerk"; backend: Backend; convexUrl: string; clerkPublishableKey: string };

export type ConfigProblem = {
  variable: "VITE_CONVEX_URL" | "VITE_CLERK_PUBLISHABLE_KEY";
  message: string;
};

export type EnvResult =
  { ok: true; config: AppConfig } | { ok: false; mode: AuthMode; problem: ConfigProblem };

// Plain checks rather than zod: this module is in the main chunk, and zod's runtime would cost a
// sizeable share of the initial-JS budget for two strings.

/** An empty line in .env (`VITE_CONVEX_URL=`) means "not set", as it does for Vite's own variables. */
function optionalString(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** The reason a deployment URL is refused, or null when it is usable. */
function convexUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not an http(s) URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "is not an http(s) URL";
  // The same mistake ConvexReactClient refuses: .convex.site serves HTTP actions, not the sync API.
  if (/\.convex\.site\/?$/.test(value)) return "ends with .convex.site; use the .convex.cloud URL";
  return null;
}

/** Clerk's own rule (`isPublishableKey` in @clerk/shared): pk_test_/pk_live_ + base64 of "<frontend api>$". */
function isClerkPublishableKey(key: string): boolean {
  const match = /^pk_(?:test|live)_([A-Za-z0-9+/=]+)$/.exec(key);
  if (!match?.[1]) return false;
  try {
    const decoded = atob(match[1]);
    return decoded.endsWith("$") && !decoded.slice(0, -1).includes("$") && decoded.includes(".");
  } catch {
    return false;
  }
}

const INVALID_KEY =
  "VITE_CLERK_PUBLISHABLE_KEY is not a valid Clerk publishable key (expected pk_test_… or pk_live_…).";

/** Validates the app's environment. Never throws: a problem is returned for the app to show. */
export function parseEnv(source: Record<string, unknown>, origin: string): EnvResult {
  const convexUrl = optionalString(source.VITE_CONVEX_URL);
  const key = optionalString(source.VITE_CLERK_PUBLISHABLE_KEY);
  if (convexUrl === undefined) {
    if (key === undefined)
      return { ok: true, config: { mode: "local", backend: "embedded", convexUrl: origin } };
    if (!isClerkPublishableKey(key)) {
      return {
        ok: false,
        mode: "clerk",
        problem: { variable: "VITE_CLERK_PUBLISHABLE_KEY", message: INVALID_KEY },
      };
    }
    return {
      ok: true,
      config: { mode: "clerk", backend: "embedded", convexUrl: origin, clerkPublishableKey: key },
    };
  }

  const urlProblem = convexUrlProblem(convexUrl);
  if (urlProblem !== null) {
    const message = `VITE_CONVEX_URL ${urlProblem} (got "${convexUrl}").`;
    return { ok: false, mode: "clerk", problem: { variable: "VITE_CONVEX_URL", message } };
  }
  if (key === undefined || !isClerkPublishableKey(key)) {
    const message =
      key === undefined
        ? "VITE_CLERK_PUBLISHABLE_KEY is missing. A real Convex deployment (VITE_CONVEX_URL is set) needs Clerk's publishable key."
        : INVALID_KEY;
    return { ok: false, mode: "clerk", problem: { variable: "VITE_CLERK_PUBLISHABLE_KEY", message } };
  }
  return { ok: true, config: { mode: "clerk", backend: "deployment", convexUrl, clerkPublishableKey: key } };
}

/** The environment, read once when the app starts. */
// On the server (decision 040) the origin is not the browser's; the page's client never connects there.
export const envResult: EnvResult = parseEnv(
  import.meta.env,
  typeof window === "undefined" ? "http://localhost" : window.location.origin,
);

export const mode: AuthMode = envResult.ok ? envResult.config.mode : envResult.mode;
