/** What a page downloads before it can run, read from Vite's build manifest (`build.manifest`). */

/** The part of a `dist/.vite/manifest.json` entry this measurement needs. */
export type ManifestChunk = {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

/**
 * The JavaScript files loaded before anything renders: the entry and, transitively, its static
 * imports (dynamic imports load later, on demand). Extra keys (a route's lazy module) add their own
 * static closure, for the figure "with the page's route".
 */
export function initialJsFiles(manifest: Manifest, extraKeys: string[] = []): string[] {
  const entries = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([key]) => key);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk "${key}".`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [...entries, ...extraKeys]) visit(key);
  return [...seen]
    .map((key) => manifest[key]?.file ?? "")
    .filter((file) => file.endsWith(".js"))
    .sort();
}
