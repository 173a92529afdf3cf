/**
 * JSON to put inside a `<script>` element (`application/json`, `application/ld+json`): `<`, `>` and `&`
 * are written as \u escapes, so text containing `</script>` or `<!--` cannot end the element; U+2028
 * and U+2029 too, for older parsers. The result is still the same JSON.
 *
 * No imports: `npm start` (scripts/serve) runs this module in Node, and the main chunk carries it.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
