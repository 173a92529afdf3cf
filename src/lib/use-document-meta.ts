import { useLayoutEffect } from "react";
import { DEFAULT_DESCRIPTION, documentTitle, SITE_NAME } from "./site-meta";

/** What `npm start` wrote into the page it served for link previews carries this attribute. */
export const SERVER_META_ATTRIBUTE = "data-page-meta";

/**
 * Takes the head back to index.html's own before the app's first render: the tags `npm start` added
 * for link previews (decision 033) go, the title and description return to the defaults, so each
 * page sets (and on leaving restores) exactly its own.
 */
export function clearServerPageMeta(): void {
  for (const element of document.head.querySelectorAll(`[${SERVER_META_ATTRIBUTE}]`)) element.remove();
  document.title = SITE_NAME;
  document.head
    .querySelector<HTMLMetaElement>('meta[name="description"]')
    ?.setAttribute("content", DEFAULT_DESCRIPTION);
}

/**
 * Sets the tab title ("<title> · LiveLocal"), `<meta name="description">` and, for pages with a
 * canonical address (a shop by its slug), `<link rel="canonical">` while the page is shown. Layout
 * effects: the head changes in the same commit as the page, so nothing (a reader, a test) ever sees a
 * page under the last page's title.
 */
export function useDocumentMeta({
  title,
  description,
  canonical,
}: {
  title: string;
  description?: string;
  /** A site path; the link holds it on this origin. */
  canonical?: string;
}): void {
  useLayoutEffect(() => {
    const previous = document.title;
    document.title = documentTitle(title);
    return () => {
      document.title = previous;
    };
  }, [title]);

  useLayoutEffect(() => {
    if (description === undefined) return;
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !meta;
    if (!meta) {
      meta = document.createElement("meta");
      meta.name = "description";
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (created) meta.remove();
      else meta.content = previous;
    };
  }, [description]);

  useLayoutEffect(() => {
    if (canonical === undefined) return;
    const link = document.createElement("link");
    link.rel = "canonical";
    link.href = new URL(canonical, window.location.origin).href;
    document.head.append(link);
    return () => link.remove();
  }, [canonical]);
}
