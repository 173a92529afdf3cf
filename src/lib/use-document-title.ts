import { useDocumentMeta } from "./use-document-meta";

/** Sets the tab title as "<title> · LiveLocal" while the page is shown (useDocumentMeta, title only). */
export function useDocumentTitle(title: string): void {
  useDocumentMeta({ title });
}
