/**
 * docs/product.md#errors: navigating to an external URL without an explicit external flag raises an error.
 * Every link that leaves LiveLocal (platform links, replays, trailers) goes through this check, so a
 * seller's URL can neither open another scheme (`javascript:`, `data:`) nor pass for an in-app link.
 */
export type ExternalOptions = { external?: boolean };

export class ExternalNavigationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExternalNavigationError";
  }
}

function currentOrigin(): string {
  return typeof window === "undefined" ? "http://localhost" : window.location.origin;
}

/** The URL resolved against this site; throws for anything that is not http(s). */
export function parseNavigableUrl(href: string, origin = currentOrigin()): URL {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    throw new ExternalNavigationError(`Refusing to navigate to "${href}": it is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ExternalNavigationError(
      `Refusing to navigate to "${href}": only http and https links are allowed.`,
    );
  }
  return url;
}

export function isExternalUrl(href: string, origin = currentOrigin()): boolean {
  return parseNavigableUrl(href, origin).origin !== new URL(origin).origin;
}

/**
 * The checked absolute address to navigate to. Throws when `href` leaves the site without
 * `{ external: true }`, or is not http(s).
 */
export function checkExternalNavigation(
  href: string,
  options: ExternalOptions = {},
  origin = currentOrigin(),
): string {
  const url = parseNavigableUrl(href, origin);
  if (url.origin !== new URL(origin).origin && options.external !== true) {
    throw new ExternalNavigationError(
      `Navigating to the external URL "${url.href}" needs the explicit external flag ({ external: true }).`,
    );
  }
  return url.href;
}

/** Opens `href` in a new tab without giving it a handle on this page (noopener, noreferrer). */
export function openExternal(href: string, options: ExternalOptions = {}): void {
  const checked = checkExternalNavigation(href, options);
  window.open(checked, "_blank", "noopener,noreferrer");
}
