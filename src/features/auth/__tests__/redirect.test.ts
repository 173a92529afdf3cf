import { describe, expect, test } from "vitest";
import { safeRedirect } from "../redirect";

describe("safeRedirect", () => {
  test.each([
    ["/dashboard/streams", "/dashboard/streams"],
    ["/dashboard/streams?status=LIVE#top", "/dashboard/streams?status=LIVE#top"],
    ["/live-shop/crumb-and-crust", "/live-shop/crumb-and-crust"],
  ])("keeps the site path %s", (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  test.each([
    ["nothing", null],
    ["an empty value", ""],
    ["an absolute URL", "https://evil.com/dashboard"],
    ["a protocol-relative URL", "//evil.com"],
    ["a backslash trick", "/\\evil.com"],
    ["a tab trick", "/\t/evil.com"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path without a leading slash", "dashboard"],
    ["the sign-in page itself", "/sign-in?redirect=/dashboard"],
  ])("falls back to the dashboard for %s", (_, value) => {
    expect(safeRedirect(value)).toBe("/dashboard");
  });

  test("the fallback can be chosen", () => {
    expect(safeRedirect("//evil.com", "/")).toBe("/");
  });
});
