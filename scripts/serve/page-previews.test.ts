import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ConvexHttpClient } from "convex/browser";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { api } from "../../convex/_generated/api";
import { escapeHtml } from "../../convex/lib/html.ts";
import { createPagePreviews, previewTarget, withPageHead, type PagePreview } from "./page-previews.ts";
import { startAppServer, type StartedAppServer } from "./server.ts";
import { writeTestDist } from "./test-dist.ts";

const root = path.resolve(import.meta.dirname, "../..");
const INDEX = readFileSync(path.join(root, "index.html"), "utf8");

/** Every `<meta>` and `<link rel=canonical>` of a page, as name → content. */
function headOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const match of html.matchAll(/<meta data-page-meta (?:name|property)="([^"]+)" content="([^"]*)"/g)) {
    tags[match[1] ?? ""] = match[2] ?? "";
  }
  const canonical = /<link data-page-meta rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  if (canonical) tags.canonical = canonical;
  tags.title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  tags.description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
  return tags;
}

describe("which pages get a preview", () => {
  test.each([
    ["/live-shop/east-austin-denim-co", { kind: "shop", idOrSlug: "east-austin-denim-co" }],
    ["/live-shop/ninas%20shop/", { kind: "shop", idOrSlug: "ninas shop" }],
    ["/stream/k17abc", { kind: "stream", streamId: "k17abc" }],
    ["/live-shop", null],
    ["/live-shop/a/b", null],
    ["/explore/streams", null],
  ])("%s", (pathname, target) => {
    expect(previewTarget(pathname)).toEqual(target);
  });
});

describe("the page's head", () => {
  const preview: PagePreview = {
    status: 200,
    meta: {
      title: 'Levi\'s & "501s" <drop>',
      description: "Live now · Forty pairs.",
      path: "/stream/s1",
      image: "/demo/streams/s1.svg",
      facts: [{ label: "When", value: "Live now" }],
    },
    jsonLd: { "@type": "Event", name: "</script><script>alert(1)</script>" },
  };

  test("title and description replace the defaults; preview tags and schema.org data are added", () => {
    const html = withPageHead(INDEX, preview, "https://livelocal.example");
    const head = headOf(html);
    expect(head.title).toBe("Levi&#39;s &amp; &quot;501s&quot; &lt;drop&gt; · LiveLocal");
    expect(head.description).toBe("Live now · Forty pairs.");
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(head).toMatchObject({
      canonical: "https://livelocal.example/stream/s1",
      "og:url": "https://livelocal.example/stream/s1",
      "og:image": "https://livelocal.example/demo/streams/s1.svg",
      "og:site_name": "LiveLocal",
      "twitter:card": "summary_large_image",
      "twitter:label1": "When",
      "twitter:data1": "Live now",
    });
    // Seller text cannot end the data block.
    expect(html).not.toContain("</script><script>alert(1)");
    expect(html.indexOf('type="application/ld+json"')).toBeLessThan(html.indexOf("</head>"));
  });

  test("`$'`, `$&` and `` $` `` in a title are text, not replacement patterns", () => {
    const title = "A $' B $& C $` D $$ E $1";
    const html = withPageHead(
      INDEX,
      {
        status: 200,
        meta: { ...preview.meta!, title, description: `${title} · live` },
        jsonLd: { "@type": "Event", name: title },
      },
      "https://livelocal.example",
    );
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<\/head>/g)).toHaveLength(1);
    expect(html.match(/<!doctype html>/gi)).toHaveLength(1);
    expect(headOf(html).title).toBe("A $&#39; B $&amp; C $` D $$ E $1 · LiveLocal");
    const jsonLd = /<script data-page-meta type="application\/ld\+json">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(jsonLd ?? "null")).toEqual({ "@type": "Event", name: title });
  });

  test("with a card, the preview names the card, its size and type, not the page's own picture", () => {
    const card = { url: "/og/stream/s1.png?v=abc", width: 1200, height: 630, type: "image/png" };
    const head = headOf(
      withPageHead(INDEX, { ...preview, meta: { ...preview.meta!, card } }, "https://x.example"),
    );
    expect(head).toMatchObject({
      "og:image": "https://x.example/og/stream/s1.png?v=abc",
      "og:image:type": "image/png",
      "og:image:width": "1200",
      "og:image:height": "630",
      "twitter:image": "https://x.example/og/stream/s1.png?v=abc",
      "twitter:card": "summary_large_image",
    });
  });

  test("a not-found page keeps index.html as it is", () => {
    expect(withPageHead(INDEX, { status: 404 }, "https://livelocal.example")).toBe(INDEX);
  });
});

describe("the preview cache", () => {
  test("keeps an answer for its TTL, then reads again; a failed read is not kept", async () => {
    let clock = 0;
    const read = vi.fn(() => Promise.resolve<PagePreview>({ status: 404 }));
    const previews = createPagePreviews({ convexUrl: () => "unused", ttlMs: 1000, now: () => clock, read });
    await previews("/stream/a", "http://x");
    await previews("/stream/a", "http://x");
    expect(read).toHaveBeenCalledTimes(1);
    clock = 1500;
    await previews("/stream/a", "http://x");
    expect(read).toHaveBeenCalledTimes(2);
    expect(await previews("/sign-in", "http://x")).toBeNull();
    read.mockRejectedValueOnce(new Error("backend down"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await previews("/stream/b", "http://x")).toBeNull();
    expect(await previews("/stream/b", "http://x")).toEqual({ status: 404 });
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  test("holds at most maxEntries answers, dropping the oldest", async () => {
    const read = vi.fn(() => Promise.resolve<PagePreview>({ status: 404 }));
    const previews = createPagePreviews({ convexUrl: () => "unused", maxEntries: 2, read });
    for (const id of ["a", "b", "c", "a"]) await previews(`/stream/${id}`, "http://x");
    expect(read).toHaveBeenCalledTimes(4);
  });
});

// Issue 17 items 6 and 7, through `npm start` with the local backend and the demo data.
describe("npm start", () => {
  let app: StartedAppServer;
  let dist: string;

  beforeAll(async () => {
    dist = writeTestDist(INDEX, "livelocal-previews-");
    app = await startAppServer({
      distDir: dist,
      port: 0,
      sitePort: 0,
      dataDir: null,
      quiet: true,
      demoData: true,
      // Pages are read again on every request: a test changes a shop and a show.
      previewTtlMs: 0,
    });
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  test("a shop's page, by slug or id, names the shop in its head, read from the backend", async () => {
    const response = await fetch(`${app.url}/live-shop/east-austin-denim-co`);
    expect(response.status).toBe(200);
    const head = headOf(await response.text());
    expect(head).toMatchObject({
      title: "East Austin Denim Co. · LiveLocal",
      description: "Hand-picked 80s and 90s denim, washed, measured and graded, dropped live every week.",
      canonical: `${app.url}/live-shop/east-austin-denim-co`,
      "og:title": "East Austin Denim Co.",
      "og:image:width": "1200",
      "og:image:height": "630",
      "twitter:card": "summary_large_image",
    });
    // A PNG drawn from the shop's banner (preview-images.test.ts): few previews show an SVG.
    expect(head["og:image"]).toMatch(new RegExp(`^${app.url}/og/live-shop/east-austin-denim-co\\.png\\?v=`));
    const shop = await new ConvexHttpClient(app.url).query(api.liveShops.getPublicShop, {
      idOrSlug: "east-austin-denim-co",
    });
    const byId = await fetch(`${app.url}/live-shop/${shop!._id}`);
    expect(byId.status).toBe(200);
    // The canonical address is the slug's, whichever was asked for.
    expect(headOf(await byId.text()).canonical).toBe(`${app.url}/live-shop/east-austin-denim-co`);
  });

  test("a stream's page carries its title, when it is, its picture and its Event", async () => {
    const shop = await new ConvexHttpClient(app.url).query(api.liveShops.getPublicShop, {
      idOrSlug: "east-austin-denim-co",
    });
    const live = shop!.streams.live[0];
    const response = await fetch(`${app.url}/stream/${live._id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const head = headOf(html);
    expect(head["og:title"]).toBe(live.streamTitle.replace(/'/g, "&#39;"));
    expect(head.description).toMatch(/^Live now · Forty pairs of washed and graded 501s/);
    expect(head).toMatchObject({
      canonical: `${app.url}/stream/${live._id}`,
      "og:image:type": "image/png",
      "twitter:label1": "When",
      "twitter:data1": "Live now",
      "twitter:label2": "Shop",
      "twitter:data2": "East Austin Denim Co. on Whatnot",
    });
    expect(head["og:image"]).toMatch(new RegExp(`^${app.url}/og/stream/${live._id}\\.png\\?v=`));
    expect(html).toContain('"eventStatus":"https://schema.org/EventScheduled"');
  });

  test("a shop named `A $' B $& C` and a show titled with `` $` `` keep one <title>, their text and valid JSON-LD", async () => {
    // Maria renames her shop and a show of hers, as she would in the dashboard.
    const client = new ConvexHttpClient(app.url);
    const issuer = process.env.LIVELOCAL_LOCAL_AUTH_ISSUER ?? "";
    (client as unknown as { setAdminAuth(key: string, actingAs: object): void }).setAdminAuth(app.adminKey!, {
      subject: "demo_seller_maria",
      issuer,
    });
    const publicShop = (await client.query(api.liveShops.getPublicShop, {
      idOrSlug: "east-austin-denim-co",
    }))!;
    const shop = (await client.query(api.liveShops.getMyShop, { liveShopId: publicShop._id }))!;
    const shopName = "A $' B $& C";
    await client.mutation(api.liveShops.updateLiveShop, {
      liveShopId: shop._id,
      shop: {
        liveShopName: shopName,
        slug: shop.slug,
        taxId: shop.taxId,
        headline: shop.headline,
        description: shop.description,
        faqSection: shop.faqSection ?? [],
        timezone: shop.timezone,
        languages: shop.languages ?? [],
        productsSummary: shop.productsSummary,
        products: shop.products ?? [],
        bannerImageUrl: shop.bannerImageUrl,
        logoUrl: shop.logoUrl,
        themeColor: shop.themeColor,
        accentThemeColor: shop.accentThemeColor,
        coverImageUrl: shop.coverImageUrl,
        shopTrailerUrl: shop.shopTrailerUrl,
        schemaType: shop.schemaType,
      },
    });
    const streamId = publicShop.streams.live[0]._id;
    const stream = (await client.query(api.streams.getMyStream, { streamId }))!;
    const streamTitle = "Drop $` night $' $&";
    await client.mutation(api.streams.updateStream, {
      streamId,
      stream: {
        streamTitle,
        streamDescription: stream.streamDescription,
        streamImageUrls: stream.streamImageUrls ?? [],
        streamVideoUrl: stream.streamVideoUrl,
        replayVideoUrl: stream.replayVideoUrl,
        streamTrailerUrl: stream.streamTrailerUrl,
        streamStartUTC: stream.streamStartUTC,
        streamStopUTC: stream.streamStopUTC,
        timezone: stream.timezone,
        products: stream.products ?? [],
      },
    });

    for (const [pathname, text] of [
      [`/live-shop/${shop._id}`, shopName],
      [`/stream/${streamId}`, streamTitle],
    ]) {
      const html = await (await fetch(`${app.url}${pathname}`)).text();
      expect(html.match(/<title>/g), pathname).toHaveLength(1);
      expect(html.match(/<\/head>/g), pathname).toHaveLength(1);
      expect(headOf(html).title, pathname).toBe(`${escapeHtml(text)} · LiveLocal`);
      const blocks = [
        ...html.matchAll(/<script data-page-meta type="application\/ld\+json">([^<]*)<\/script>/g),
      ];
      expect(blocks, pathname).toHaveLength(1);
      expect(JSON.stringify(JSON.parse(blocks[0][1]))).toContain(JSON.stringify(text).slice(1, -1));
    }
  });

  test.each(["/live-shop/nope-shop", "/stream/bogus", "/stream/k1234567890abcdefghijklmnopqrstu"])(
    "%s is not found: 404 with the app, which shows its not-found page",
    async (pathname) => {
      const response = await fetch(`${app.url}${pathname}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe(INDEX);
    },
  );

  test("home and the explore lists keep the site's title and name the site's card", async () => {
    for (const pathname of ["/", "/explore/streams", "/explore/live-shops/"]) {
      const response = await fetch(`${app.url}${pathname}`);
      expect(response.status).toBe(200);
      const head = headOf(await response.text());
      expect(head.title, pathname).toBe("LiveLocal");
      expect(head["og:image"], pathname).toMatch(new RegExp(`^${app.url}/og/home\\.png\\?v=`));
      // Explore's filters are in its query: its address without them is not the page's own.
      expect(head.canonical, pathname).toBe(pathname === "/" ? `${app.url}/` : undefined);
    }
  });

  test("other pages and unknown paths are as before", async () => {
    expect((await fetch(`${app.url}/sign-in`)).status).toBe(200);
    expect((await fetch(`${app.url}/nope`)).status).toBe(404);
  });
});
