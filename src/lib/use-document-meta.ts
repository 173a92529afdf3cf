import { useEffect } from "react";

/** Sets the tab title ("<title> · LiveLocal") and `<meta name="description">` while the page is shown. */
export function useDocumentMeta({ title, description }: { title: string; description?: string }): void {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · LiveLocal`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  useEffect(() => {
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
}
