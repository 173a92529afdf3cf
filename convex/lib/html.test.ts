import { describe, expect, test } from "vitest";
import { escapeHtml } from "./html";

describe("escapeHtml", () => {
  test("escapes every character that could end an element's text or either kind of quoted attribute", () => {
    expect(escapeHtml(`"'<>&`)).toBe("&quot;&#39;&lt;&gt;&amp;");
    expect(escapeHtml(`<a title='x' href="y">Nora's & Co</a>`)).toBe(
      "&lt;a title=&#39;x&#39; href=&quot;y&quot;&gt;Nora&#39;s &amp; Co&lt;/a&gt;",
    );
  });

  test("leaves other text as it is, $-patterns included", () => {
    expect(escapeHtml("Café $' $& $` 100%")).toBe("Café $&#39; $&amp; $` 100%");
  });
});
