import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { insertStreamPlatform } from "@convex/model/streams";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { seedShop, seedStream } from "@/test/convex-seed";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { LiveShopPage } from "../live-shop-page";

const convex = convexBackend();

const START = Date.UTC(2026, 10, 21, 19, 0);

type ShopSeed = NonNullable<Parameters<typeof seedShop>[2]>;
type StreamSeed = NonNullable<Parameters<typeof seedStream>[2]>;

const WHATNOT = { platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/denim" } as const;

/** The upcoming show the shop has unless a test says otherwise. */
const DENIM_DROP: StreamSeed = {
  streamTitle: "Denim drop",
  streamStatus: "SCHEDULED",
  streamStartUTC: START,
  streamStopUTC: START + 3_600_000,
  timezone: "America/New_York",
};

/** Sarah's shop as `overrides` change it, with `streams` (each linked on Whatnot); the ids they got. */
async function seedSarahsShop(
  overrides: ShopSeed = {},
  streams: StreamSeed[] = [DENIM_DROP],
  owner?: TestPerson,
) {
  const seller = owner ?? (await convex.addUser("seller"));
  const liveShopId = await seedShop(convex, seller, {
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    status: "active",
    headline: "Denim from the seventies",
    description: "Vintage denim, </script><script>alert(1)</script>",
    faqSection: [{ question: "Do you ship?", answer: "Across the US." }],
    timezone: "America/New_York",
    languages: ["en", "es"],
    themeColor: "#112233",
    accentThemeColor: "red; background: url(evil)",
    schemaType: "Store",
    categories: [{ categoryId: "fashion_apparel", priority: 0 }],
    cbsaCodes: ["35620"],
    ...overrides,
  });
  const streamIds: Id<"streams">[] = [];
  for (const stream of streams) {
    const streamId = await seedStream(convex, liveShopId, stream);
    await convex.run((ctx) => insertStreamPlatform(ctx, streamId, WHATNOT));
    streamIds.push(streamId);
  }
  return { seller, liveShopId, streamIds };
}

/** The shop's page at `at`, once its query has answered (the page, or not found). */
async function renderPageAt(at = "/live-shop/sarahs-vintage") {
  const router = renderInRouter(
    <convex.wrapper>
      <WatchListProviders>
        <LiveShopPage />
      </WatchListProviders>
    </convex.wrapper>,
    { path: "/live-shop/:idOrSlug", at },
  );
  await screen.findByRole("heading", { level: 1 });
  return router;
}

/** Sarah's shop on its page. */
async function renderPage(overrides: ShopSeed = {}, streams?: StreamSeed[]) {
  const seeded = await seedSarahsShop(overrides, streams);
  await renderPageAt();
  return seeded;
}

describe("LiveShopPage", () => {
  test("shows the shop with its details, streams and platform links, and sets title and description", async () => {
    const {
      streamIds: [denimDrop],
    } = await renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Sarah's Vintage" })).toBeInTheDocument();
    expect(screen.getByText("English, Spanish")).toBeInTheDocument();
    expect(screen.getByText("Fashion & Apparel")).toBeInTheDocument();
    expect(screen.getByText("New York-Newark-Jersey City, NY-NJ")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Denim drop" })).toHaveAttribute("href", `/stream/${denimDrop}`);
    const watch = screen.getByRole("link", { name: /Watch on Whatnot/ });
    expect(watch).toHaveAttribute("target", "_blank");
    expect(watch).toHaveAttribute("rel", "noopener noreferrer");
    expect(document.title).toBe("Sarah's Vintage · LiveLocal");
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      "content",
      "Denim from the seventies",
    );
  });

  test("applies only valid #rrggbb theme colours, with readable text", async () => {
    await renderPage();
    const container = document.body;
    const themed = container.querySelector<HTMLElement>('[style*="--shop-theme"]');
    expect(themed?.style.getPropertyValue("--shop-theme")).toBe("#112233");
    expect(themed?.style.getPropertyValue("--shop-theme-text")).toBe("#ffffff");
    expect(themed?.style.getPropertyValue("--shop-accent")).toBe("");
    expect(container.innerHTML).not.toContain("url(evil)");
  });

  test("a shop in maintenance shows the temporarily closed notice", async () => {
    await renderPage({ status: "maintenance" });
    // The page's own status line (the notices region in the corner is another).
    expect(screen.getByText("Temporarily closed.").closest('[role="status"]')).toHaveTextContent(
      /taking a short break/,
    );
  });

  test("the FAQ is a disclosure with aria-expanded", async () => {
    await renderPage();
    const question = screen.getByRole("button", { name: "Do you ship?" });
    expect(question).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText("Across the US.")).not.toBeVisible();
    await userEvent.click(question);
    expect(question).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("Across the US.")).toBeVisible();
  });

  test("JSON-LD: the shop as its schema type, its live and upcoming shows as online Events, escaped", async () => {
    const {
      streamIds: [, denimDrop],
    } = await renderPage({}, [{ ...DENIM_DROP, streamTitle: "On now", streamStatus: "LIVE" }, DENIM_DROP]);
    const container = document.body;
    const script = container.querySelector('script[type="application/ld+json"]');
    expect(script?.innerHTML).not.toContain("</script>");
    const data = JSON.parse(script?.textContent ?? "{}") as Record<string, unknown> & {
      event: Record<string, unknown>[];
    };
    expect(data["@type"]).toBe("Store");
    expect(data.description).toContain("</script>");
    // Issue 17 item 5: the live show was missing; each is at the platform's address.
    expect(data.event).toEqual([
      expect.objectContaining({ name: "On now", eventStatus: "https://schema.org/EventScheduled" }),
      expect.objectContaining({
        "@type": "Event",
        name: "Denim drop",
        startDate: new Date(START).toISOString(),
        endDate: new Date(START + 3_600_000).toISOString(),
        eventStatus: "https://schema.org/EventScheduled",
        eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
        location: { "@type": "VirtualLocation", url: "https://www.whatnot.com/live/denim" },
        url: `${window.location.origin}/stream/${denimDrop}`,
      }),
    ]);
  });

  test("a stream whose stored time no date can show is listed without it, and is no JSON-LD event", async () => {
    const {
      streamIds: [farFuture],
    } = await renderPage({}, [
      { ...DENIM_DROP, streamTitle: "Far future", streamStartUTC: 2 ** 53 - 1 },
      { ...DENIM_DROP, streamStopUTC: 8.64e15 + 10 },
    ]);
    expect(screen.getByRole("link", { name: "Far future" })).toHaveAttribute("href", `/stream/${farFuture}`);
    const script = document.body.querySelector('script[type="application/ld+json"]');
    const data = JSON.parse(script?.textContent ?? "{}") as { event: Record<string, unknown>[] };
    expect(data.event).toEqual([
      expect.objectContaining({ name: "Denim drop", startDate: new Date(START).toISOString() }),
    ]);
    expect(data.event[0]).not.toHaveProperty("endDate");
  });

  // Issue 17 item 8: the stream page could be shared, a shop's could not (ShareButton's own test).
  test("Share uses the share sheet with the shop's name and headline where there is one", async () => {
    const share = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    await renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith({
      title: "Sarah's Vintage",
      text: "Sarah's Vintage: Denim from the seventies",
      url: `${window.location.origin}/live-shop/sarahs-vintage`,
    });
    Reflect.deleteProperty(navigator, "share");
  });

  test("shows the products summary, every product with its price, and the cover picture", async () => {
    await renderPage({
      productsSummary: "Jeans, jackets and boots from the seventies.",
      products: [
        { id: "p1", name: "501 jeans", price: "24.50", imageUrl: "https://img.example/501.png" },
        { id: "p2", name: "Trucker jacket", price: "80", description: "Type III, size M." },
      ],
      coverImageUrl: "https://img.example/cover.png",
    });
    const products = screen.getByRole("region", { name: "What we sell" });
    expect(products).toHaveTextContent("Jeans, jackets and boots from the seventies.");
    expect(within(products).getByRole("heading", { name: "501 jeans" })).toBeInTheDocument();
    expect(within(products).getByText("$24.50")).toBeInTheDocument();
    expect(within(products).getByText("$80.00")).toBeInTheDocument();
    expect(within(products).getByText("Type III, size M.")).toBeInTheDocument();
    expect(within(products).getByRole("img", { name: "501 jeans" })).toHaveAttribute(
      "src",
      "https://img.example/501.png",
    );
    const about = screen.getByRole("region", { name: "About" });
    expect(about.querySelector('img[src="https://img.example/cover.png"]')).not.toBeNull();
  });

  test("the live and next shows come before the About text (first on a phone's one column)", async () => {
    await renderPage();
    const upcoming = screen.getByRole("heading", { name: "Upcoming shows" });
    const about = screen.getByRole("heading", { name: "About" });
    expect(upcoming.compareDocumentPosition(about) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test("a preview (the owner's draft) says it is not public yet, and is no structured data", async () => {
    const seller = await convex.signInAs("seller");
    const { liveShopId } = await seedSarahsShop({ status: "draft" }, [DENIM_DROP], seller);
    await renderPageAt();
    expect(screen.getByText("Preview: not public yet.").closest('[role="status"]')).toHaveTextContent(
      /It is a draft: submit it for verification/,
    );
    expect(screen.getByRole("link", { name: "Edit the shop" })).toHaveAttribute(
      "href",
      `/dashboard/liveshops/${liveShopId}`,
    );
    expect(document.body.querySelector('script[type="application/ld+json"]')).toBeNull();
    expect(screen.queryByRole("button", { name: "Share" })).not.toBeInTheDocument();
  });

  test("a public shop has no preview banner, even to its owner", async () => {
    const seller = await convex.signInAs("seller");
    await seedSarahsShop({}, [DENIM_DROP], seller);
    await renderPageAt();
    expect(screen.queryByText(/^Preview:/)).not.toBeInTheDocument();
  });

  test("an unknown or non-public shop is the not-found page", async () => {
    await seedSarahsShop({ status: "draft" });
    for (const at of ["/live-shop/nope", "/live-shop/sarahs-vintage"]) {
      await renderPageAt(at);
      expect(screen.getByText(`Page not found: ${at}`)).toBeInTheDocument();
      cleanup();
    }
  });

  test("a direct trailer file plays in a video element; a page is a link out", async () => {
    await renderPage({ shopTrailerUrl: "https://cdn.example/trailer.mp4" });
    const trailer = screen.getByRole("heading", { name: "Trailer" }).parentElement!;
    expect(trailer.querySelector("video")).toHaveAttribute("src", "https://cdn.example/trailer.mp4");
    expect(within(trailer).queryByRole("link", { name: /Watch the trailer/ })).toBeInTheDocument();
  });
});

describe("the shop's owner (issue 16 item 12)", () => {
  /** Sarah's shop on its page, its owner's profile as she set it. */
  async function renderOwnedBy({
    name,
    avatar,
    showProfile,
  }: {
    name: string;
    avatar?: string;
    showProfile: boolean;
  }) {
    const seller = await convex.addUser("seller", { name });
    await convex.run(async (ctx) => {
      const user = await ctx.db.get(seller.userId);
      await ctx.db.patch(seller.userId, {
        avatar,
        privacyPreferences: { ...user!.privacyPreferences, showProfile },
      });
    });
    await seedSarahsShop({}, [DENIM_DROP], seller);
    await renderPageAt();
  }

  test("is shown by name and picture when they show their profile", async () => {
    await renderOwnedBy({
      name: "Sarah Kim",
      avatar: "https://img.example.com/sarah.png",
      showProfile: true,
    });
    const byline = screen.getByText(/^Run by/);
    expect(byline).toHaveTextContent("Run by Sarah Kim");
    expect(byline.parentElement?.querySelector("img")).toHaveAttribute(
      "src",
      "https://img.example.com/sarah.png",
    );
  });

  test("is shown by initials without a picture", async () => {
    await renderOwnedBy({ name: "Sarah Kim", showProfile: true });
    expect(screen.getByText(/^Run by/)).toHaveTextContent("Run by Sarah Kim");
    expect(screen.getByText("SK")).toBeInTheDocument();
  });

  test("is not shown at all when they keep their profile to themselves", async () => {
    await renderOwnedBy({
      name: "Sarah Kim",
      avatar: "https://img.example.com/sarah.png",
      showProfile: false,
    });
    expect(screen.queryByText(/Run by/)).not.toBeInTheDocument();
  });
});
