import { useEffect } from "react";

/** Sets the tab title as "<title> · LiveLocal" while the page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · LiveLocal`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
