import { describe, expect, test } from "vitest";
import { LOCAL_SITE_PATH, siteUrlFor } from "../convex-site";

const clerk = (convexUrl: string) => ({
  mode: "clerk" as const,
  backend: "deployment" as const,
  convexUrl,
  clerkPublishableKey: "pk_test_x",
});

describe("siteUrlFor", () => {
  test("a Convex deployment's HTTP actions answer on .convex.site", () => {
    expect(siteUrlFor(clerk("https://happy-otter-123.convex.cloud"), undefined, "https://app.test")).toBe(
      "https://happy-otter-123.convex.site",
    );
  });

  test("VITE_CONVEX_SITE_URL wins, without a trailing slash", () => {
    expect(
      siteUrlFor(
        clerk("https://happy-otter-123.convex.cloud"),
        " https://api.example.com/ ",
        "https://app.test",
      ),
    ).toBe("https://api.example.com");
    expect(siteUrlFor(clerk("https://happy-otter-123.convex.cloud"), "", "https://app.test")).toBe(
      "https://happy-otter-123.convex.site",
    );
  });

  test("the local backend answers under a path of the app's own origin", () => {
    expect(
      siteUrlFor(
        { mode: "local", backend: "embedded", convexUrl: "http://127.0.0.1:5173" },
        undefined,
        "http://127.0.0.1:5173",
      ),
    ).toBe(`http://127.0.0.1:5173${LOCAL_SITE_PATH}`);
    // Clerk's sign-in on the embedded backend: its HTTP actions are still on the app's origin.
    expect(
      siteUrlFor(
        { ...clerk("http://127.0.0.1:4173"), backend: "embedded" },
        "https://ignored.example",
        "http://127.0.0.1:4173",
      ),
    ).toBe(`http://127.0.0.1:4173${LOCAL_SITE_PATH}`);
    expect(LOCAL_SITE_PATH).toBe("/local-backend/site");
  });
});
