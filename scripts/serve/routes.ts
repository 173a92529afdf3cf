/**
 * Which paths are the app's pages (HTTP 200 with index.html) and which are unknown (HTTP 404 with the
 * same index.html, so the SPA shows its not-found page). Patterns come from `src/config/paths.ts`,
 * the one place paths are built, plus whole sections the SPA answers itself.
 */
import { paths } from "../../src/config/paths.ts";

/** Sections whose every path is a page: explore's tabs, and the dashboard (which asks for sign-in first). */
const SECTIONS = ["/explore", "/dashboard"];
/** Pages that may not be in paths.ts yet (another part of the issue adds them). */
const EXTRA_PAGES = ["/watch-list", "/live-shop/:id", "/stream/:id"];

function collectPaths(node: unknown, out: string[]): string[] {
  if (typeof node !== "object" || node === null) return out;
  const { path } = node as { path?: unknown };
  if (typeof path === "string") out.push(path);
  for (const child of Object.values(node)) collectPaths(child, out);
  return out;
}

function patternFor(path: string): RegExp {
  const escaped = path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${escaped}/?$`);
}

export const PAGE_PATTERNS: readonly RegExp[] = [
  ...[...collectPaths(paths, []), ...EXTRA_PAGES].map(patternFor),
  ...SECTIONS.map((section) => new RegExp(`^${section}(?:/.*)?$`)),
];

/** 200 for the app's pages, 404 for anything else (the same index.html either way). */
export function pageStatus(pathname: string): 200 | 404 {
  return PAGE_PATTERNS.some((pattern) => pattern.test(pathname)) ? 200 : 404;
}
