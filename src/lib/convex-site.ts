/**
 * Where the backend's HTTP actions answer (`convex/http.ts`, such as `GET /privacy/export`): the
 * deployment's "site" origin. On Convex that is the deployment URL with `.convex.site` for
 * `.convex.cloud` (or `VITE_CONVEX_SITE_URL` for a custom domain); with the embedded backend (whatever
 * the sign-in) it is a path on the app's own origin that the dev server and `npm start` hand to the
 * local backend's HTTP actions.
 */
import { envResult, type AppConfig } from "@/config/env";

/** The path on the app's origin under which the local backend serves its HTTP actions. */
export const LOCAL_SITE_PATH = "/local-backend/site";

/** The site origin for a configuration; no trailing slash. */
export function siteUrlFor(config: AppConfig, siteUrlSetting: unknown, origin: string): string {
  if (config.backend === "embedded") return `${origin}${LOCAL_SITE_PATH}`;
  if (typeof siteUrlSetting === "string" && siteUrlSetting.trim() !== "") {
    return siteUrlSetting.trim().replace(/\/+$/, "");
  }
  const url = new URL(config.convexUrl);
  url.hostname = url.hostname.replace(/\.convex\.cloud$/, ".convex.site");
  return url.origin;
}

/** The HTTP actions' base URL for the configured deployment. */
export function convexSiteUrl(): string {
  const config: AppConfig = envResult.ok
    ? envResult.config
    : { mode: "local", backend: "embedded", convexUrl: window.location.origin };
  return siteUrlFor(config, import.meta.env.VITE_CONVEX_SITE_URL, window.location.origin);
}
