import { describe, expect, test, vi } from "vitest";
import {
  checkExternalNavigation,
  ExternalNavigationError,
  isExternalUrl,
  openExternal,
} from "../external-url";

const ORIGIN = "https://livelocal.example";

describe("checkExternalNavigation (docs/product.md#errors)", () => {
  test("an external URL without the explicit flag raises an error", () => {
    expect(() => checkExternalNavigation("https://www.whatnot.com/live/1", {}, ORIGIN)).toThrow(
      ExternalNavigationError,
    );
    expect(() =>
      checkExternalNavigation("https://www.whatnot.com/live/1", { external: false }, ORIGIN),
    ).toThrow(/explicit external flag/);
  });

  test("with { external: true } it is allowed", () => {
    expect(checkExternalNavigation("https://www.whatnot.com/live/1", { external: true }, ORIGIN)).toBe(
      "https://www.whatnot.com/live/1",
    );
  });

  test("same-site paths need no flag", () => {
    expect(checkExternalNavigation("/stream/abc", {}, ORIGIN)).toBe(`${ORIGIN}/stream/abc`);
    expect(isExternalUrl("/stream/abc", ORIGIN)).toBe(false);
    expect(isExternalUrl("//evil.example/x", ORIGIN)).toBe(true);
  });

  test.each(["javascript:alert(1)", "data:text/html,hi", "ftp://files.example/x", "mailto:a@b.c"])(
    "refuses %s even with the flag",
    (href) => {
      expect(() => checkExternalNavigation(href, { external: true }, ORIGIN)).toThrow(/only http and https/);
    },
  );

  test("refuses what is not a URL", () => {
    expect(() => checkExternalNavigation("http://", { external: true }, ORIGIN)).toThrow(
      ExternalNavigationError,
    );
  });
});

describe("openExternal", () => {
  test("opens a new tab without opener or referrer", () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    openExternal("https://www.tiktok.com/@shop/live", { external: true });
    expect(open).toHaveBeenCalledWith("https://www.tiktok.com/@shop/live", "_blank", "noopener,noreferrer");
    open.mockRestore();
  });

  test("throws before opening anything without the flag", () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    expect(() => openExternal("https://www.tiktok.com/@shop/live")).toThrow(/explicit external flag/);
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });
});
