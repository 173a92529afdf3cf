import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { useMockConvexAuth } from "@/test/convex-auth-mock";
import { convexReactMock, resetConvexMock, setQueryResult } from "@/test/convex-mock";
import { renderInRouter } from "@/test/render-in-router";
import { WatchListProviders } from "@/components/watch-list/__tests__/watch-list-providers";
import { LiveShopPage } from "../live-shop-page";
import type { PublicShop } from "../public-shop";

vi.mock("convex/react", () => ({ ...convexReactMock, useConvexAuth: useMockConvexAuth }));

beforeEach(resetConvexMock);

const START = Date.UTC(2026, 10, 21, 19, 0);

function shop(overrides: Partial<PublicShop> = {}): PublicShop {
  return {
    _id: "shop1" as PublicShop["_id"],
    liveShopName: "Sarah's Vintage",
    slug: "sarahs-vintage",
    status: "active",
    headline: "Denim from the seventies",
    description: "Vintage denim, </script><script>alert(1)</script>",
    faqSection: [{ question: "Do you ship?", answer: "Across the US." }],
    timezone: "America/New_York",
    languages: ["en", "es"],
    products: [],
    themeColor: "#112233",
    accentThemeColor: "red; background: url(evil)",
    schemaType: "Store",
    owner: null,
    categories: [{ categoryId: "fashion_apparel", label: "Fashion & Apparel" }],
    areas: [{ cbsaCode: "35620", msaLabel: "New York-Newark-Jersey City, NY-NJ" }],
    streams: {
      live: [],
      upcoming: [
        {
          _id: "stream1" as PublicShop["streams"]["upcoming"][number]["_id"],
          streamTitle: "Denim drop",
          streamStatus: "SCHEDULED",
          liveShopName: "Sarah's Vintage",
          liveShopSlug: "sarahs-vintage",
          streamStartUTC: START,
          streamStopUTC: START + 3_600_000,
          timezone: "America/New_York",
          platforms: [{ platformType: "whatnot", platformStreamUrl: "https://www.whatnot.com/live/denim" }],
        },
      ],
      past: [],
    },
    ...overrides,
  };
}

function renderPage(value: PublicShop | null, at = "/live-shop/sarahs-vintage") {
  setQueryResult(api.liveShops.getPublicShop, value);
  return renderInRouter(
    <WatchListProviders>
      <LiveShopPage />
    </WatchListProviders>,
    { path: "/live-shop/:idOrSlug", at },
  );
}

describe("LiveShopPage", () => {
  test("shows the shop with its details, streams and platform links, and sets title and description", () => {
    renderPage(shop());
    expect(screen.getByRole("heading", { level: 1, name: "Sarah's Vintage" })).toBeInTheDocument();
    expect(screen.getByText("English, Spanish")).toBeInTheDocument();
    expect(screen.getByText("Fashion & Apparel")).toBeInTheDocument();
    expect(screen.getByText("New York-Newark-Jersey City, NY-NJ")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Denim drop" })).toHaveAttribute("href", "/stream/stream1");
    const watch = screen.getByRole("link", { name: /Watch on Whatnot/ });
    expect(watch).toHaveAttribute("target", "_blank");
    expect(watch).toHaveAttribute("rel", "noopener noreferrer");
    expect(document.title).toBe("Sarah's Vintage · LiveLocal");
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      "content",
      "Denim from the seventies",
    );
  });

  test("applies only valid #rrggbb theme colours, with readable text", () => {
    renderPage(shop());
    const container = document.body;
    const themed = container.querySelector<HTMLElement>('[style*="--shop-theme"]');
    expect(themed?.style.getPropertyValue("--shop-theme")).toBe("#112233");
    expect(themed?.style.getPropertyValue("--shop-theme-text")).toBe("#ffffff");
    expect(themed?.style.getPropertyValue("--shop-accent")).toBe("");
    expect(container.innerHTML).not.toContain("url(evil)");
  });

  test("a shop in maintenance shows the temporarily closed notice", () => {
    renderPage(shop({ status: "maintenance" }));
    // The page's own status line (the notices region in the corner is another).
    expect(screen.getByText("Temporarily closed.").closest('[role="status"]')).toHaveTextContent(
      /taking a short break/,
    );
  });

  test("the FAQ is a disclosure with aria-expanded", async () => {
    renderPage(shop());
    const question = screen.getByRole("button", { name: "Do you ship?" });
    expect(question).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText("Across the US.")).not.toBeVisible();
    await userEvent.click(question);
    expect(question).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("Across the US.")).toBeVisible();
  });

  test("JSON-LD: the shop as its schema type, its live and upcoming shows as online Events, escaped", () => {
    const [upcoming] = shop().streams.upcoming;
    const live = {
      ...upcoming,
      _id: "live1" as typeof upcoming._id,
      streamTitle: "On now",
      streamStatus: "LIVE" as const,
    };
    renderPage(shop({ streams: { live: [live], upcoming: [upcoming], past: [] } }));
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
        url: `${window.location.origin}/stream/stream1`,
      }),
    ]);
  });

  test("a stream whose stored time no date can show is listed without it, and is no JSON-LD event", () => {
    const [upcoming] = shop().streams.upcoming;
    renderPage(
      shop({
        streams: {
          live: [],
          upcoming: [
            {
              ...upcoming,
              _id: "bad" as typeof upcoming._id,
              streamTitle: "Far future",
              streamStartUTC: 2 ** 53 - 1,
            },
            { ...upcoming, streamStopUTC: 8.64e15 + 10 },
          ],
          past: [],
        },
      }),
    );
    expect(screen.getByRole("link", { name: "Far future" })).toHaveAttribute("href", "/stream/bad");
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
    renderPage(shop());
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith({
      title: "Sarah's Vintage",
      text: "Sarah's Vintage: Denim from the seventies",
      url: `${window.location.origin}/live-shop/sarahs-vintage`,
    });
    Reflect.deleteProperty(navigator, "share");
  });

  test("shows the products summary, every product with its price, and the cover picture", () => {
    renderPage(
      shop({
        productsSummary: "Jeans, jackets and boots from the seventies.",
        products: [
          { id: "p1", name: "501 jeans", price: "24.50", imageUrl: "https://img.example/501.png" },
          { id: "p2", name: "Trucker jacket", price: "80", description: "Type III, size M." },
        ],
        coverImageUrl: "https://img.example/cover.png",
      }),
    );
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

  test("the live and next shows come before the About text (first on a phone's one column)", () => {
    renderPage(shop());
    const upcoming = screen.getByRole("heading", { name: "Upcoming shows" });
    const about = screen.getByRole("heading", { name: "About" });
    expect(upcoming.compareDocumentPosition(about) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  test("a preview (the owner's draft) says it is not public yet, and is no structured data", () => {
    renderPage(shop({ status: "draft", preview: true }));
    expect(screen.getByText("Preview: not public yet.").closest('[role="status"]')).toHaveTextContent(
      /It is a draft: submit it for verification/,
    );
    expect(screen.getByRole("link", { name: "Edit the shop" })).toHaveAttribute(
      "href",
      "/dashboard/liveshops/shop1",
    );
    expect(document.body.querySelector('script[type="application/ld+json"]')).toBeNull();
    expect(screen.queryByRole("button", { name: "Share" })).not.toBeInTheDocument();
  });

  test("a public shop has no preview banner", () => {
    renderPage(shop());
    expect(screen.queryByText(/^Preview:/)).not.toBeInTheDocument();
  });

  test("an unknown or non-public shop is the not-found page", () => {
    renderPage(null, "/live-shop/nope");
    expect(screen.getByText("Page not found: /live-shop/nope")).toBeInTheDocument();
  });

  test("a direct trailer file plays in a video element; a page is a link out", () => {
    renderPage(shop({ shopTrailerUrl: "https://cdn.example/trailer.mp4" }));
    const trailer = screen.getByRole("heading", { name: "Trailer" }).parentElement!;
    expect(trailer.querySelector("video")).toHaveAttribute("src", "https://cdn.example/trailer.mp4");
    expect(within(trailer).queryByRole("link", { name: /Watch the trailer/ })).toBeInTheDocument();
  });
});

describe("the shop's owner (issue 16 item 12)", () => {
  test("is shown by name and picture when they show their profile", () => {
    renderPage(shop({ owner: { name: "Sarah Kim", avatar: "https://img.example.com/sarah.png" } }));
    const byline = screen.getByText(/^Run by/);
    expect(byline).toHaveTextContent("Run by Sarah Kim");
    expect(byline.parentElement?.querySelector("img")).toHaveAttribute(
      "src",
      "https://img.example.com/sarah.png",
    );
  });

  test("is shown by initials without a picture", () => {
    renderPage(shop({ owner: { name: "Sarah Kim" } }));
    expect(screen.getByText(/^Run by/)).toHaveTextContent("Run by Sarah Kim");
    expect(screen.getByText("SK")).toBeInTheDocument();
  });

  test("is not shown at all when they keep their profile to themselves", () => {
    renderPage(shop({ owner: null }));
    expect(screen.queryByText(/Run by/)).not.toBeInTheDocument();
  });
});
