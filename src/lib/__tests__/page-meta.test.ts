import { readFileSync } from "node:fs";
import path from "node:path";
import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, test } from "vitest";
import { DEFAULT_DESCRIPTION, previewTags, shopPageMeta, shortText, streamPageMeta } from "../page-meta";
import { clearServerPageMeta, useDocumentMeta } from "../use-document-meta";

/** Sat, Nov 21 2026, 7:30 PM in Chicago. */
const START = Date.UTC(2026, 10, 22, 1, 30);

const stream = {
  _id: "s1",
  streamTitle: "Pokémon booster breaks",
  streamDescription: "Three sealed boxes, opened live.",
  streamStatus: "SCHEDULED" as const,
  streamStartUTC: START,
  streamImageUrls: ["/demo/streams/s1.svg"],
  timezone: "America/Chicago",
  shop: { liveShopName: "Windy City Card Breaks" },
  streamVideoUrl: "https://www.whatnot.com/user/windy",
  platforms: [
    { platformType: "tiktok" as const, platformStreamUrl: "https://www.tiktok.com/@windy/live" },
    { platformType: "whatnot" as const, platformStreamUrl: "https://www.whatnot.com/user/windy" },
  ],
};

describe("a stream's head", () => {
  test("says when (in the shop's zone: a server cannot know the reader's), where and what", () => {
    expect(streamPageMeta(stream)).toEqual({
      title: "Pokémon booster breaks",
      description: "Sat, Nov 21, 7:30 PM CST · Three sealed boxes, opened live.",
      path: "/stream/s1",
      image: "/demo/streams/s1.svg",
      facts: [
        { label: "When", value: "Sat, Nov 21, 7:30 PM CST" },
        { label: "Shop", value: "Windy City Card Breaks on Whatnot" },
      ],
    });
  });

  test.each([
    ["LIVE", "Live now"],
    ["CANCELLED", "Cancelled"],
    ["ENDED", "Ended · it started Sat, Nov 21, 7:30 PM CST"],
  ] as const)("%s reads %s", (streamStatus, when) => {
    expect(streamPageMeta({ ...stream, streamStatus }).facts[0]).toEqual({ label: "When", value: when });
  });

  // Issue 41: a show planned for later that ran early previewed a start in the future.
  test("a show that went live early says when it really started", () => {
    const wentLive = START - 3 * 86_400_000;
    expect(
      streamPageMeta({
        ...stream,
        streamStatus: "ENDED",
        streamStartedUTC: wentLive,
        streamEndedUTC: wentLive + 3_600_000,
      }).facts[0],
    ).toEqual({ label: "When", value: "Ended · it started Wed, Nov 18, 7:30 PM CST" });
  });

  test("the preview's tags name the page on the site's public address", () => {
    const tags = previewTags(streamPageMeta(stream), "https://livelocal.example");
    expect(tags).toContainEqual({
      tag: "link",
      rel: "canonical",
      href: "https://livelocal.example/stream/s1",
    });
    expect(tags).toContainEqual({
      tag: "meta",
      attribute: "property",
      key: "og:image",
      content: "https://livelocal.example/demo/streams/s1.svg",
    });
    expect(tags).toContainEqual({
      tag: "meta",
      attribute: "name",
      key: "twitter:data2",
      content: "Windy City Card Breaks on Whatnot",
    });
  });
});

describe("a shop's head", () => {
  test("its headline, else its description cut short; its canonical address by slug", () => {
    const shop = {
      liveShopName: "Sarah's Vintage",
      slug: "sarahs-vintage",
      status: "active",
      bannerImageUrl: "/b.svg",
    };
    expect(shopPageMeta({ ...shop, headline: "Denim" })).toMatchObject({
      description: "Denim",
      path: "/live-shop/sarahs-vintage",
      image: "/b.svg",
    });
    const long = "Vintage denim, washed and measured. ".repeat(10);
    expect(shopPageMeta({ ...shop, description: long }).description).toBe(shortText(long));
    expect(shortText(long).length).toBeLessThanOrEqual(160);
    expect(shortText(long)).toMatch(/…$/);
    expect(shopPageMeta(shop).description).toBe("Sarah's Vintage on LiveLocal");
  });
});

describe("the head in the browser", () => {
  afterEach(() => {
    document.head.innerHTML = "";
  });

  test("index.html's description is the default the app returns to", () => {
    const html = readFileSync(path.resolve(import.meta.dirname, "../../../index.html"), "utf8");
    expect(html.replace(/\s+/g, " ")).toContain(`content="${DEFAULT_DESCRIPTION}"`);
  });

  test("at boot, the server's preview tags go and title and description return to the defaults", () => {
    document.head.innerHTML = `<title>Sarah's Vintage · LiveLocal</title><meta name="description" content="Denim" />
      <link data-page-meta rel="canonical" href="http://x/live-shop/a" /><meta data-page-meta property="og:title" content="x" />`;
    clearServerPageMeta();
    expect(document.title).toBe("LiveLocal");
    expect(document.head.querySelector('meta[name="description"]')).toHaveAttribute(
      "content",
      DEFAULT_DESCRIPTION,
    );
    expect(document.head.querySelectorAll("[data-page-meta]")).toHaveLength(0);
  });

  test("a page sets its canonical address while it is shown", () => {
    const { unmount } = renderHook(() => useDocumentMeta({ title: "Shop", canonical: "/live-shop/a" }));
    expect(document.head.querySelector('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${window.location.origin}/live-shop/a`,
    );
    unmount();
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
  });
});
