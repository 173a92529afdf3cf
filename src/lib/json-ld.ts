/**
 * JSON for a `<script type="application/ld+json">`: `<`, `>` and `&` are written as \u escapes so a
 * seller's text containing `</script>` or `<!--` cannot end the script element; U+2028 and U+2029 too,
 * for older parsers. The result is still the same JSON.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
