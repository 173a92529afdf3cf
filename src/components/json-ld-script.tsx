import { serializeJsonLd } from "@/lib/json-ld";

/** schema.org data for search engines; the JSON is escaped so page text cannot end the script. */
export function JsonLdScript({ data }: { data: unknown }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;
}
