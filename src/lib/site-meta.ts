/**
 * The site's name, default description and tab titles: what every page's head needs, apart from
 * page-meta.ts (link previews, which format times) so the app's first script stays small.
 */
export const SITE_NAME = "LiveLocal";

/** index.html's own description, which every page without one of its own keeps. */
export const DEFAULT_DESCRIPTION =
  "LiveLocal: find live shopping shows from sellers in your metro area, by category and place.";

export function documentTitle(title: string): string {
  return `${title} · ${SITE_NAME}`;
}
