import { paths } from "@/config/paths";

// Any origin works: it only serves to detect a value that would leave the site once resolved.
const BASE = "http://livelocal.invalid";

/**
 * The `?redirect=` target, if it is a path on this site; otherwise the dashboard. Refuses absolute and
 * protocol-relative URLs (`https://evil.com`, `//evil.com`, `/\evil.com`), which would turn the
 * sign-in page into an open redirect, and the sign-in page itself, which would loop.
 */
export function safeRedirect(
  value: string | null | undefined,
  fallback: string = paths.dashboard.root.getHref(),
): string {
  // Browsers read "\" as "/" and drop tabs and newlines, so "/\evil.com" is "//evil.com" to them.
  if (!value?.startsWith("/") || value.includes("\\") || Array.from(value).some((ch) => ch <= " ")) {
    return fallback;
  }
  if (value.startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  if (url.pathname === paths.signIn.path || url.pathname.startsWith(`${paths.signIn.path}/`)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The current location as a redirect target: path, query and hash. */
export function currentPathForRedirect(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}
