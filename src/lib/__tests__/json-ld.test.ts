import { expect, test } from "vitest";
import { serializeJsonLd } from "../json-ld";

test("serializeJsonLd cannot close the script element and stays the same JSON", () => {
  const data = { name: "</script><script>alert(1)</script> & <!-- \u2028" };
  const text = serializeJsonLd(data);
  expect(text).not.toMatch(/[<>&\u2028]/);
  expect(JSON.parse(text)).toEqual(data);
});
