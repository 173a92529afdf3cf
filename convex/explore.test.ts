import { describe, expect, test } from "vitest";
import { api, internal } from "./_generated/api";
import type { Doc } from "./_generated/dataModel";
import { DEMO_STREAM_LINKS, buildSampleStreams } from "./lib/data/demo";
import { MAX_SELECTED_MSAS } from "./lib/constants";
import {
  emptyExploreFilter,
  matchesExploreFilter,
  TOO_MANY_MSAS_MESSAGE,
  type ExploreFilter,
} from "./lib/explore";
import { isStreamListedPublicly } from "./lib/lifecycle";
import {
  ANY_KEY,
  EXPLORE_REFERENCE,
  planExploreRanges,
  streamListingOrder,
  shopSortKey,
} from "./lib/exploreListing";
import type { ExploreView } from "./lib/exploreWhen";
import { deleteStreamCascade } from "./model/cascade";
import {
  listStreamListingRows,
  SHOP_STREAMS_PER_SYNC,
  shopFacets,
  streamFacets,
} from "./model/exploreListings";
import { changeShopStatus, getLiveShopBySlug, patchLiveShop, replaceShopCategories } from "./model/liveShops";
import { insertStream, linkStreamMsa, patchStream, replaceStreamCategories } from "./model/streams";
import type { StreamCard } from "./schema";
import { countDocsRead, newSeededTest, type newTest, writeWithTriggers } from "./test.setup";
// The benchmark's generator, which no deployment gets (decision 088).
import { insertGeneratedStreams } from "../scripts/bench/functions/benchData";

type Backend = ReturnType<typeof newTest>;
type Page<Card> = { page: Card[]; isDone: boolean; continueCursor: string };

const HOUR = 3_600_000;
const ADMIN = { isOwner: false, isAdmin: true };

function filterOf(selection: Partial<ExploreFilter>): ExploreFilter {
  return { ...emptyExploreFilter(), ...selection };
}

async function streamPage(
  t: Backend,
  filter: ExploreFilter,
  numItems: number,
  cursor: string | null = null,
  view?: ExploreView,
) {
  return await t.query(api.explore.listExploreStreams, {
    filter,
    view,
    paginationOpts: { numItems, cursor },
  });
}

/** Every page of the list, walked with `numItems` per page. */
async function allStreams(t: Backend, filter: ExploreFilter, numItems = 100, view?: ExploreView) {
  const cards = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const result: Page<StreamCard> = await streamPage(t, filter, numItems, cursor, view);
    cards.push(...result.page);
    if (result.isDone) return cards;
    cursor = result.continueCursor;
  }
  throw new Error("The list did not end.");
}

async function allShops(t: Backend, filter: ExploreFilter) {
  const result = await t.query(api.explore.listExploreShops, {
    filter,
    paginationOpts: { numItems: 100, cursor: null },
  });
  expect(result.isDone).toBe(true);
  return result.page;
}

/**
 * What the list should hold, worked out from the source tables with the shared rules only: every
 * stream listed publicly whose facets match and whose status the view holds (by default live, paused
 * and upcoming), in the order live, paused, soonest upcoming, latest ended.
 */
async function expectedStreams(
  t: Backend,
  filter: ExploreFilter,
  statuses: readonly string[] = LIVE_AND_UPCOMING,
): Promise<string[]> {
  return await t.run(async (ctx) => {
    const rows: { title: string; rank: number; sortKey: number; id: string }[] = [];
    for (const stream of await ctx.db.query("streams").collect()) {
      const shop = await ctx.db.get("liveShops", stream.liveShopId);
      if (!shop || !isStreamListedPublicly(stream.streamStatus, shop.status)) continue;
      if (!statuses.includes(stream.streamStatus)) continue;
      if (!matchesExploreFilter(await streamFacets(ctx, stream._id), filter)) continue;
      const order = streamListingOrder(stream);
      if (order) rows.push({ title: stream.streamTitle, ...order, id: stream._id });
    }
    rows.sort((a, b) => a.rank - b.rank || a.sortKey - b.sortKey || (a.id < b.id ? -1 : 1));
    return rows.map((row) => row.title);
  });
}

async function streamByTitle(t: Backend, title: string): Promise<Doc<"streams">> {
  const stream = await t.run(async (ctx) =>
    (await ctx.db.query("streams").collect()).find((candidate) => candidate.streamTitle === title),
  );
  if (!stream) throw new Error(`No stream "${title}".`);
  return stream;
}

async function shopBySlug(t: Backend, slug: string): Promise<Doc<"liveShops">> {
  const shop = await t.run(async (ctx) => await getLiveShopBySlug(ctx, slug));
  if (!shop) throw new Error(`No shop "${slug}".`);
  return shop;
}

const titles = (cards: { streamTitle: string }[]) => cards.map((card) => card.streamTitle);

const LIVE_AND_UPCOMING = ["LIVE", "PAUSED", "SCHEDULED"];
const REPLAYS: ExploreView = { when: "replays" };

const DEMO_TITLES = Object.fromEntries(
  buildSampleStreams(Date.now()).map((sample) => [sample.id, sample.title]),
);
const UNCATEGORIZED_TITLE = Object.entries(DEMO_STREAM_LINKS)
  .filter(([, links]) => links.categories.length === 0)
  .map(([id]) => DEMO_TITLES[id])[0];

/** Filters covering each sentence of the rule, checked against the shared matcher on the demo data. */
const FILTERS: Record<string, Partial<ExploreFilter>> = {
  "no filter": {},
  "a category": { categories: ["collectibles"] },
  "a subcategory": { subcategories: ["kitchen_dining"] },
  "two categories (OR)": { categories: ["home_goods", "diy_crafts"] },
  "a category and one of its subcategories": { categories: ["home_goods"], subcategories: ["furniture"] },
  "a subcategory of another category (OR)": { categories: ["collectibles"], subcategories: ["toys"] },
  "a state": { states: ["TX"] },
  "a metro area": { msas: ["16980"] },
  "a state and a metro area elsewhere (OR)": { states: ["WA"], msas: ["12060"] },
  "a state and one of its metro areas": { states: ["IL"], msas: ["16980"] },
  "a category and a metro area (AND)": { categories: ["collectibles"], msas: ["16980"] },
  "a category and a state with no such stream": { categories: ["pets_supplies"], states: ["TX"] },
  "a metro area spanning three states, by its second state": { states: ["NJ"] },
  "so many states the place pair is read whole": {
    categories: ["collectibles", "food_beverage"],
    states: ["TX", "IL", "CA", "NY", "WA", "GA", "CO", "OR", "NC", "FL", "AZ", "MA", "MI"],
  },
};

describe("explore streams follow the filter rules", () => {
  test.each(Object.entries(FILTERS))(
    "%s: exactly the matching public streams, in order",
    async (_name, selection) => {
      const t = await newSeededTest();
      const filter = filterOf(selection);
      expect(titles(await allStreams(t, filter))).toEqual(await expectedStreams(t, filter));
      // Small pages give the same list: no gaps or repeats where pages meet.
      expect(titles(await allStreams(t, filter, 2))).toEqual(await expectedStreams(t, filter));
      // Replays hold the ended shows the default list leaves out.
      expect(titles(await allStreams(t, filter, 2, REPLAYS))).toEqual(
        await expectedStreams(t, filter, ["ENDED"]),
      );
    },
  );

  test("a category and a metro area give exactly the demo streams tagged with both", async () => {
    const t = await newSeededTest();
    const filter = filterOf({ categories: ["collectibles"], msas: ["16980"] });
    const cards = await allStreams(t, filter);
    expect(cards.map((card) => [card.streamTitle, card.streamStatus])).toEqual([
      ["Pokémon Scarlet & Violet booster box breaks: pick your type", "LIVE"],
      ["Vintage baseball card night: '50s to '80s singles and sets", "SCHEDULED"],
    ]);
    expect(titles(await allStreams(t, filter, 10, REPLAYS))).toEqual([
      "Signed rookie card showcase: PSA slabs and Chicago legends",
    ]);
  });

  test("with no filter, every live and upcoming show: those on now by start, then soonest; ended ones apart", async () => {
    const t = await newSeededTest();
    const cards = await allStreams(t, emptyExploreFilter());
    expect(cards).toHaveLength(14);
    const statuses = cards.map((card) => card.streamStatus);
    expect(statuses).toEqual([...statuses].sort((a, b) => GROUPS[a] - GROUPS[b]));
    const onNow = cards.filter((card) => GROUPS[card.streamStatus] === 0);
    const started = onNow.map((card) => card.streamStartUTC ?? 0);
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(new Set(statuses)).toEqual(new Set(["LIVE", "PAUSED", "SCHEDULED"]));
    const upcoming = cards.filter((card) => card.streamStatus === "SCHEDULED");
    const starts = upcoming.map((card) => card.streamStartUTC ?? 0);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const ended = await allStreams(t, emptyExploreFilter(), 100, REPLAYS);
    expect(ended.map((card) => card.streamStatus)).toEqual(["ENDED", "ENDED", "ENDED", "ENDED"]);
    const stops = ended.map((card) => card.streamStopUTC ?? 0);
    expect(stops).toEqual([...stops].sort((a, b) => b - a));
  });

  test("a stream with no category appears only while no category is selected", async () => {
    const t = await newSeededTest();
    expect(UNCATEGORIZED_TITLE).toBeDefined();
    expect(titles(await allStreams(t, emptyExploreFilter()))).toContain(UNCATEGORIZED_TITLE);
    expect(titles(await allStreams(t, filterOf({ states: ["TX"] })))).toContain(UNCATEGORIZED_TITLE);
    expect(titles(await allStreams(t, filterOf({ categories: ["fashion_apparel"] })))).not.toContain(
      UNCATEGORIZED_TITLE,
    );
    expect(titles(await allStreams(t, filterOf({ subcategories: ["clothing"] })))).not.toContain(
      UNCATEGORIZED_TITLE,
    );
  });

  test("drafts, cancelled streams and streams of shops that are not active are left out", async () => {
    const t = await newSeededTest();
    const shown = titles(await allStreams(t, emptyExploreFilter()));
    const hidden = await t.run(async (ctx) =>
      (await ctx.db.query("streams").collect())
        .filter((stream) => stream.streamStatus === "CREATED" || stream.streamStatus === "CANCELLED")
        .map((stream) => stream.streamTitle),
    );
    expect(hidden).toHaveLength(2);
    for (const title of hidden) expect(shown).not.toContain(title);
    // The shop in maintenance gets a scheduled stream: it stays off the lists.
    const closed = await shopBySlug(t, "alberta-street-coffee");
    await writeWithTriggers(t, (ctx) =>
      insertStream(ctx, {
        liveShopId: closed._id,
        streamTitle: "Latte art night",
        streamStatus: "SCHEDULED",
        streamStartUTC: Date.now() + HOUR,
        streamStopUTC: Date.now() + 2 * HOUR,
      }),
    );
    expect(titles(await allStreams(t, emptyExploreFilter()))).not.toContain("Latte art night");
  });

  test("unknown ids are ignored; a subcategory under its selected category changes nothing", async () => {
    const t = await newSeededTest();
    const all = titles(await allStreams(t, emptyExploreFilter()));
    expect(
      titles(await allStreams(t, filterOf({ categories: ["no_such_category"], msas: ["00000"] }))),
    ).toEqual(all);
    const homeGoods = titles(await allStreams(t, filterOf({ categories: ["home_goods"] })));
    expect(
      titles(
        await allStreams(
          t,
          filterOf({ categories: ["home_goods"], subcategories: ["furniture", "home_decor"] }),
        ),
      ),
    ).toEqual(homeGoods);
  });
});

/** The lists' status groups, in order: live and paused shows together (decision 046). */
const GROUPS: Record<string, number> = { LIVE: 0, PAUSED: 0, SCHEDULED: 1, ENDED: 2 };

describe("explore filter arguments", () => {
  test(`more than ${MAX_SELECTED_MSAS} metro areas are refused with a sentence`, async () => {
    const t = await newSeededTest();
    const msas = ["12420", "16980", "35620", "31080", "42660", "12060", "38900"];
    await expect(streamPage(t, filterOf({ msas }), 10)).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", message: TOO_MANY_MSAS_MESSAGE },
    });
    await expect(
      t.query(api.explore.listExploreShops, {
        filter: filterOf({ msas }),
        paginationOpts: { numItems: 10, cursor: null },
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT", message: TOO_MANY_MSAS_MESSAGE } });
    expect(
      (await streamPage(t, filterOf({ msas: msas.slice(0, MAX_SELECTED_MSAS) }), 10)).page.length,
    ).toBeGreaterThan(0);
  });

  test("ids longer than 50 characters and page sizes out of range are refused", async () => {
    const t = await newSeededTest();
    await expect(streamPage(t, filterOf({ categories: ["x".repeat(51)] }), 10)).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT", message: "A filter value can be at most 50 characters long." },
    });
    await expect(streamPage(t, emptyExploreFilter(), 0)).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
    await expect(streamPage(t, emptyExploreFilter(), 1000)).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
  });
});

describe("explore shops", () => {
  test("active shops and shops in maintenance, by name, with their live badges", async () => {
    const t = await newSeededTest();
    const shops = await allShops(t, emptyExploreFilter());
    const expected = await t.run(async (ctx) => {
      const rows = [];
      for (const shop of await ctx.db.query("liveShops").collect()) {
        if (shop.status !== "active" && shop.status !== "maintenance") continue;
        const links = await ctx.db
          .query("liveShopStreams")
          .withIndex("by_liveShopId_and_streamId", (q) => q.eq("liveShopId", shop._id))
          .collect();
        const has = (status: string) => links.some((link) => link.streamStatus === status);
        const live = shop.status !== "active" ? null : has("LIVE") ? "LIVE" : has("PAUSED") ? "PAUSED" : null;
        rows.push({ name: shop.liveShopName, key: shopSortKey(shop.liveShopName), live });
      }
      rows.sort((a, b) => (a.key < b.key ? -1 : 1));
      return rows.map((row) => [row.name, row.live]);
    });
    expect(shops.map((shop) => [shop.liveShopName, shop.liveStatus ?? null])).toEqual(expected);
    expect(shops).toHaveLength(12);
    expect(shops.filter((shop) => shop.liveStatus).length).toBe(5);
    expect(shops.map((shop) => shop.liveShopName)).not.toContain("Cascade Herbal Apothecary");
    expect(shops.find((shop) => shop.status === "maintenance")?.liveShopName).toBe(
      "Alberta Street Coffee Roasters",
    );
  });

  test("the same filter rules: a category and a metro area", async () => {
    const t = await newSeededTest();
    const filter = filterOf({ categories: ["toys_kids", "collectibles"], msas: ["16980"] });
    const shops = await allShops(t, filter);
    expect(shops.map((shop) => shop.slug).sort()).toEqual([
      "logan-square-toy-exchange",
      "windy-city-card-breaks",
    ]);
    const facets = await t.run(async (ctx) =>
      Promise.all(
        (await ctx.db.query("liveShops").collect()).map(async (shop) => ({
          shop,
          facets: await shopFacets(ctx, shop._id),
        })),
      ),
    );
    for (const { shop, facets: tags } of facets) {
      const listed = shops.some((card) => card._id === shop._id);
      expect(listed, shop.slug).toBe(
        (shop.status === "active" || shop.status === "maintenance") && matchesExploreFilter(tags, filter),
      );
    }
  });

  test("a list takes no search text: that is what the search functions are for", async () => {
    const t = await newSeededTest();
    await expect(
      t.query(api.explore.listExploreShops, {
        filter: filterOf({ q: "city" }),
        paginationOpts: { numItems: 20, cursor: null },
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
    await expect(streamPage(t, filterOf({ q: "night" }), 10)).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
    // Blank text is no search text.
    expect((await streamPage(t, filterOf({ q: "  " }), 10)).page.length).toBeGreaterThan(0);
  });
});

describe("the listing tables stay in step with every write", () => {
  test("the seed produces listing rows for every public stream and shop, and only for those", async () => {
    const t = await newSeededTest();
    const { streams, listed, shops, listedShops } = await t.run(async (ctx) => ({
      streams: await ctx.db.query("streams").collect(),
      listed: await ctx.db.query("streamListings").collect(),
      shops: await ctx.db.query("liveShops").collect(),
      listedShops: await ctx.db.query("shopListings").collect(),
    }));
    expect(new Set(listed.map((row) => row.streamId)).size).toBe(18);
    expect(new Set(listedShops.map((row) => row.liveShopId)).size).toBe(12);
    for (const stream of streams) {
      const rows = listed.filter((row) => row.streamId === stream._id);
      const anywhere = rows.filter((row) => row.categoryKey === ANY_KEY && row.placeKey === ANY_KEY);
      expect(anywhere.length, stream.streamTitle).toBe(rows.length > 0 ? 1 : 0);
    }
    expect(shops).toHaveLength(13);
  });

  test("a status change moves a stream at once (through the public mutation)", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, "Mid-century warehouse walkthrough: teak, cane and brass");
    const shop = await t.run(async (ctx) => ctx.db.get("liveShops", stream.liveShopId));
    const owner = await t.run(async (ctx) => (shop ? ctx.db.get("users", shop.userId) : null));
    if (!owner) throw new Error("No owner.");
    const seller = t.withIdentity({ subject: owner.clerkId, email: owner.email });
    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "LIVE" });
    const furniture = await allStreams(t, filterOf({ subcategories: ["furniture"] }));
    expect(furniture.map((card) => card.streamStatus)).toEqual(["LIVE"]);
    expect(titles(await allStreams(t, emptyExploreFilter()))).toEqual(
      await expectedStreams(t, emptyExploreFilter()),
    );
    await seller.mutation(api.streams.setStreamStatus, { streamId: stream._id, status: "ENDED" });
    const all = await allStreams(t, emptyExploreFilter());
    expect(titles(all)).not.toContain(stream.streamTitle);
    expect(titles(all)).toEqual(await expectedStreams(t, emptyExploreFilter()));
    const replays = await allStreams(t, emptyExploreFilter(), 100, REPLAYS);
    expect(replays[0]?._id).toBe(stream._id);
  });

  test("changing a stream's categories and metro areas moves it between filters", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, "Kiln opening: fresh mugs, ramen bowls and bud vases");
    const diy = filterOf({ categories: ["diy_crafts"] });
    expect(titles(await allStreams(t, diy))).not.toContain(stream.streamTitle);
    await writeWithTriggers(t, (ctx) =>
      replaceStreamCategories(ctx, stream._id, [
        { categoryId: "diy_crafts", subcategoryId: "craft_kits", priority: 0 },
      ]),
    );
    expect(titles(await allStreams(t, diy))).toContain(stream.streamTitle);
    expect(titles(await allStreams(t, filterOf({ subcategories: ["kitchen_dining"] })))).not.toContain(
      stream.streamTitle,
    );
    const denver = await t.run(async (ctx) =>
      ctx.db
        .query("msas")
        .withIndex("by_cbsaCode", (q) => q.eq("cbsaCode", "19740"))
        .unique(),
    );
    await writeWithTriggers(t, (ctx) => linkStreamMsa(ctx, stream._id, denver!._id));
    expect(titles(await allStreams(t, filterOf({ states: ["CO"] })))).toContain(stream.streamTitle);
    for (const filter of [diy, filterOf({ states: ["CO"] }), filterOf({ states: ["GA"] })]) {
      expect(titles(await allStreams(t, filter))).toEqual(await expectedStreams(t, filter));
    }
  });

  test("suspending a shop takes its streams off the lists; reinstating brings them back", async () => {
    const t = await newSeededTest();
    const shop = await shopBySlug(t, "windy-city-card-breaks");
    const chicago = filterOf({ msas: ["16980"] });
    const before = titles(await allStreams(t, chicago));
    await writeWithTriggers(t, (ctx) =>
      changeShopStatus(ctx, shop, ADMIN, "suspended", "Counterfeit slabs reported."),
    );
    const during = titles(await allStreams(t, chicago));
    expect(during).toEqual(await expectedStreams(t, chicago));
    expect(during.length).toBe(before.length - 2);
    expect((await allShops(t, chicago)).map((card) => card.slug)).not.toContain("windy-city-card-breaks");
    const suspended = await shopBySlug(t, "windy-city-card-breaks");
    await writeWithTriggers(t, (ctx) => changeShopStatus(ctx, suspended, ADMIN, "active", undefined));
    expect(titles(await allStreams(t, chicago))).toEqual(before);
  });

  test("a shop with more streams than one batch leaves the lists whole, the rest in scheduled batches", async () => {
    const t = await newSeededTest();
    const shop = await shopBySlug(t, "second-act-furniture");
    await writeWithTriggers(t, async (ctx) => {
      for (let index = 0; index < SHOP_STREAMS_PER_SYNC + 20; index++) {
        await insertStream(ctx, {
          liveShopId: shop._id,
          streamTitle: `Warehouse sale ${index}`,
          streamStatus: "SCHEDULED",
          streamStartUTC: Date.now() + (index + 1) * HOUR,
          streamStopUTC: Date.now() + (index + 2) * HOUR,
        });
      }
    });
    const listedRows = async () =>
      await t.run(async (ctx) =>
        (await ctx.db.query("streamListings").collect()).filter((row) => row.liveShopId === shop._id),
      );
    expect((await listedRows()).length).toBeGreaterThan(0);
    await writeWithTriggers(t, (ctx) => changeShopStatus(ctx, shop, ADMIN, "suspended", "Review pending."));
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await listedRows()).toEqual([]);
    const suspended = await shopBySlug(t, "second-act-furniture");
    await writeWithTriggers(t, (ctx) => changeShopStatus(ctx, suspended, ADMIN, "active", undefined));
    await t.finishAllScheduledFunctions(() => undefined);
    expect(new Set((await listedRows()).map((row) => row.streamId)).size).toBe(SHOP_STREAMS_PER_SYNC + 21);
  });

  test("renaming a shop renames its stream cards", async () => {
    const t = await newSeededTest();
    const shop = await shopBySlug(t, "second-act-furniture");
    await writeWithTriggers(t, (ctx) =>
      patchLiveShop(ctx, shop._id, { liveShopName: "Third Act Furniture" }),
    );
    const cards = await allStreams(t, filterOf({ subcategories: ["furniture"] }));
    expect(cards.map((card) => card.liveShopName)).toEqual(["Third Act Furniture"]);
    const found = await t.query(api.explore.searchExploreShops, { filter: filterOf({ q: "third" }) });
    expect(found.results.map((card) => card.liveShopName)).toEqual(["Third Act Furniture"]);
    const streams = await t.query(api.explore.searchExploreStreams, { filter: filterOf({ q: "third act" }) });
    expect(titles(streams.results)).toEqual(["Mid-century warehouse walkthrough: teak, cane and brass"]);
  });

  test("a shop's categories follow its links, and its live badge its streams", async () => {
    const t = await newSeededTest();
    const shop = await shopBySlug(t, "second-act-furniture");
    await writeWithTriggers(t, (ctx) =>
      replaceShopCategories(ctx, shop, [
        { categoryId: "collectibles", subcategoryId: "trading_cards", priority: 0 },
      ]),
    );
    expect(
      (await allShops(t, filterOf({ categories: ["collectibles"] }))).map((card) => card.slug),
    ).toContain("second-act-furniture");
    const stream = await streamByTitle(t, "Mid-century warehouse walkthrough: teak, cane and brass");
    await writeWithTriggers(t, (ctx) => patchStream(ctx, stream._id, { streamStatus: "LIVE" }));
    const card = (await allShops(t, emptyExploreFilter())).find(
      (candidate) => candidate.slug === "second-act-furniture",
    );
    expect(card?.liveStatus).toBe("LIVE");
  });

  test("deleting a stream removes it and its listing rows", async () => {
    const t = await newSeededTest();
    const stream = await streamByTitle(t, "Kiln opening: fresh mugs, ramen bowls and bud vases");
    await writeWithTriggers(t, (ctx) => deleteStreamCascade(ctx, stream._id));
    await t.finishAllScheduledFunctions(() => undefined);
    expect(titles(await allStreams(t, emptyExploreFilter()))).not.toContain(stream.streamTitle);
    const rows = await t.run((ctx) => listStreamListingRows(ctx, stream._id));
    expect(rows).toEqual([]);
  });

  test("the migration rebuilds every row from the data", async () => {
    const t = await newSeededTest();
    const snapshot = async () =>
      await t.run(async (ctx) => {
        const rows = await ctx.db.query("streamListings").collect();
        const shops = await ctx.db.query("shopListings").collect();
        const strip = ({ _id, _creationTime, createdAt, updatedAt, ...rest }: Record<string, unknown>) => {
          void [_id, _creationTime, createdAt, updatedAt];
          return JSON.stringify(rest);
        };
        return { streams: rows.map(strip).sort(), shops: shops.map(strip).sort() };
      });
    const before = await snapshot();
    const orphan = await writeWithTriggers(t, async (ctx) =>
      insertStream(ctx, {
        liveShopId: (await ctx.db.query("liveShops").first())!._id,
        streamTitle: "Soon gone",
        streamStatus: "SCHEDULED",
        streamStartUTC: Date.now() + HOUR,
        streamStopUTC: Date.now() + 2 * HOUR,
      }),
    );
    // Lose every row, plus leave one behind for a stream deleted without triggers.
    await t.run(async (ctx) => {
      for (const row of await ctx.db.query("streamListings").collect()) {
        if (row.streamId !== orphan) await ctx.db.delete("streamListings", row._id);
      }
      for (const row of await ctx.db.query("shopListings").collect())
        await ctx.db.delete("shopListings", row._id);
      await ctx.db.delete("streams", orphan);
    });
    await t.mutation(internal.explore.rebuildListings, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await snapshot()).toEqual(before);
  });

  test("rows written before decision 046 stay listed with the shows on now, and the migration rewrites them", async () => {
    const t = await newSeededTest();
    const live = await allStreams(t, emptyExploreFilter(), 100, { when: "live" });
    const paused = live.find((card) => card.streamStatus === "PAUSED")!;
    const rowsOf = () => t.run((ctx) => listStreamListingRows(ctx, paused._id));
    const current = await rowsOf();
    // As they were: a paused show ranked 1, and every row carrying the stream's card.
    await t.run(async (ctx) => {
      for (const row of current) await ctx.db.patch("streamListings", row._id, { rank: 1, card: paused });
    });
    const waiting = await allStreams(t, emptyExploreFilter(), 100, { when: "live" });
    expect(waiting.map((card) => card._id).sort()).toEqual(live.map((card) => card._id).sort());
    const found = await t.query(api.explore.searchExploreStreams, {
      filter: filterOf({ q: paused.streamTitle }),
      view: { when: "live" },
    });
    expect(found.results.map((card) => card._id)).toContain(paused._id);

    await t.mutation(internal.explore.rebuildListings, {});
    await t.finishAllScheduledFunctions(() => undefined);
    const rebuilt = await rowsOf();
    const kept = ({ updatedAt, ...row }: (typeof current)[number]) => {
      void updatedAt;
      return row;
    };
    expect(rebuilt.map(kept)).toEqual(current.map(kept));
    expect(rebuilt.every((row) => row.card === undefined && row.rank === 0)).toBe(true);
    expect(await allStreams(t, emptyExploreFilter(), 100, { when: "live" })).toEqual(live);
  });
});

describe("explore pagination", () => {
  test("pages stay gapless when a stream is inserted above them", async () => {
    const t = await newSeededTest();
    const filter = emptyExploreFilter();
    const first = await streamPage(t, filter, 5);
    const second = await streamPage(t, filter, 5, first.continueCursor);
    const liveShopId = (await shopBySlug(t, "second-act-furniture"))._id;
    const newId = await writeWithTriggers(t, (ctx) =>
      insertStream(ctx, {
        liveShopId,
        streamTitle: "Pop-up live sale",
        streamStatus: "LIVE",
        streamStartUTC: 1,
      }),
    );
    // The browser re-runs the first page up to where it ended (convex-helpers `usePaginatedQuery`).
    const firstAgain = await t.query(api.explore.listExploreStreams, {
      filter,
      paginationOpts: { numItems: 5, cursor: null, endCursor: first.continueCursor },
    });
    const secondAgain = await streamPage(t, filter, 5, first.continueCursor);
    expect(firstAgain.page[0]?._id).toBe(newId);
    expect(firstAgain.page.slice(1)).toEqual(first.page);
    expect(secondAgain.page).toEqual(second.page);
    const rest = await allStreams(t, filter, 100);
    const walked = [...firstAgain.page, ...secondAgain.page];
    expect(walked).toEqual(rest.slice(0, walked.length));
  });

  test("a stream listed under two selected categories appears once, wherever pages end", async () => {
    const t = await newSeededTest();
    // "Studio seconds sale" (ended) is in home goods and DIY & crafts; so is "Living succulent wall"
    // (cancelled).
    const filter = filterOf({ categories: ["home_goods", "diy_crafts"], states: ["GA", "WA"] });
    const expected = await expectedStreams(t, filter, ["ENDED"]);
    for (const size of [1, 2, 3]) {
      expect(titles(await allStreams(t, filter, size, REPLAYS))).toEqual(expected);
    }
    const studio = await streamByTitle(
      t,
      "Studio seconds sale: small glaze flaws, full function, half price",
    );
    const rows = await t.run((ctx) => listStreamListingRows(ctx, studio._id));
    const underFilter = rows.filter((row) =>
      planExploreRanges(filter, EXPLORE_REFERENCE).ranges.some(
        (range) => range.categoryKey === row.categoryKey && range.placeKey === row.placeKey,
      ),
    );
    expect(underFilter.map((row) => row.categoryKey).sort()).toEqual([
      "category:diy_crafts",
      "category:home_goods",
    ]);
    expect(expected).toContain(studio.streamTitle);
  });
});

describe("documents read per page", () => {
  test("at most 3 × the page size plus one per index range, whatever the filter", async () => {
    const t = await newSeededTest();
    const filters = [
      emptyExploreFilter(),
      filterOf({ categories: ["collectibles"] }),
      filterOf({ categories: ["home_goods", "diy_crafts"], states: ["GA", "WA"] }),
      filterOf({ states: ["IL", "TX"], msas: ["12060"] }),
    ];
    for (const filter of filters) {
      const ranges = planExploreRanges(filter, EXPLORE_REFERENCE).ranges.length;
      let cursor: string | null = null;
      for (let pageNumber = 0; pageNumber < 3; pageNumber++) {
        const { result, docsRead } = await countDocsRead(() => streamPage(t, filter, 3, cursor));
        expect(docsRead, JSON.stringify(filter)).toBeLessThanOrEqual(3 * 3 + ranges);
        expect(docsRead).toBeGreaterThanOrEqual(result.page.length);
        if (result.isDone) break;
        cursor = result.continueCursor;
      }
    }
  });

  test("does not grow with the number of streams", async () => {
    const t = await newSeededTest();
    const filter = filterOf({ categories: ["collectibles"], msas: ["16980"] });
    const before = (await countDocsRead(() => streamPage(t, filter, 2))).docsRead;
    await t.run(async (ctx) => await insertGeneratedStreams(ctx, { count: 300, offset: 0, seed: 7 }));
    const after = (await countDocsRead(() => streamPage(t, filter, 2))).docsRead;
    expect(after).toBeLessThanOrEqual(before * 1.2);
  });
});

describe("bench data", () => {
  test("generated streams get the same listing rows the triggers would give them", async () => {
    const t = await newSeededTest();
    await t.run(async (ctx) => await insertGeneratedStreams(ctx, { count: 60, offset: 0, seed: 3 }));
    const snapshot = async () =>
      await t.run(async (ctx) =>
        (await ctx.db.query("streamListings").collect())
          .map(({ _id, _creationTime, createdAt, updatedAt, ...row }) => {
            void [_id, _creationTime, createdAt, updatedAt];
            return JSON.stringify(row);
          })
          .sort(),
      );
    const generated = await snapshot();
    await t.mutation(internal.explore.rebuildListings, {});
    await t.finishAllScheduledFunctions(() => undefined);
    expect(await snapshot()).toEqual(generated);
  });
});

describe("explore views: live now, today, this weekend, the next 7 days, replays", () => {
  // A week far from the demo's (which is around now): Wednesday 5 March 2031 to Thursday 13 March,
  // with the US change to daylight time on Sunday the 9th. Times are Chicago's.
  const CHICAGO = "America/Chicago";
  const chicago = (day: number, hour: number, minute = 0) =>
    Date.UTC(2031, 2, day, hour + (day >= 9 && (day > 9 || hour >= 3) ? 5 : 6), minute);
  const SHOWS: [string, number][] = [
    ["Friday noon", chicago(7, 12)],
    ["Saturday late", chicago(8, 23, 30)],
    ["Sunday noon", chicago(9, 12)],
    ["Monday just after midnight", chicago(10, 0, 30)],
    ["Friday next week", chicago(14, 9)],
  ];

  async function withWeek(): Promise<Backend> {
    const t = await newSeededTest();
    const liveShopId = (await shopBySlug(t, "second-act-furniture"))._id;
    await writeWithTriggers(t, async (ctx) => {
      for (const [streamTitle, start] of SHOWS) {
        await insertStream(ctx, {
          liveShopId,
          streamTitle,
          streamStatus: "SCHEDULED",
          streamStartUTC: start,
          streamStopUTC: start + HOUR,
        });
      }
    });
    return t;
  }

  const liveTitles = (cards: StreamCard[]) =>
    cards
      .filter((card) => card.streamStatus === "LIVE" || card.streamStatus === "PAUSED")
      .map((c) => c.streamTitle);
  const upcomingTitles = (cards: StreamCard[]) =>
    cards.filter((card) => card.streamStatus === "SCHEDULED").map((card) => card.streamTitle);

  test("live now holds the shows on now, live or paused, by start", async () => {
    const t = await newSeededTest();
    const live = await allStreams(t, emptyExploreFilter(), 2, { when: "live" });
    expect(titles(live)).toEqual(await expectedStreams(t, emptyExploreFilter(), ["LIVE", "PAUSED"]));
    expect(live.map((card) => card.streamStatus).sort()).toEqual(["LIVE", "LIVE", "LIVE", "LIVE", "PAUSED"]);
  });

  test("a pause or a resume keeps a show's place and badge current and writes no listing row", async () => {
    const t = await newSeededTest();
    const live = async () =>
      (await allStreams(t, emptyExploreFilter(), 2, { when: "live" })).map((card) => [
        card.streamTitle,
        card.streamStatus,
      ]);
    const before = await live();
    const [title] = before.find(([, status]) => status === "LIVE")!;
    const stream = await streamByTitle(t, title);
    const rows = () => t.run((ctx) => listStreamListingRows(ctx, stream._id));
    const rowsBefore = await rows();
    expect(rowsBefore.length).toBeGreaterThan(0);
    await writeWithTriggers(t, (ctx) => patchStream(ctx, stream._id, { streamStatus: "PAUSED" }));
    expect(await live()).toEqual(before.map(([name, status]) => [name, name === title ? "PAUSED" : status]));
    expect(await rows()).toEqual(rowsBefore);
    await writeWithTriggers(t, (ctx) => patchStream(ctx, stream._id, { streamStatus: "LIVE" }));
    expect(await live()).toEqual(before);
    expect(await rows()).toEqual(rowsBefore);
  });

  test("today: the shows on now and those starting on the viewer's day", async () => {
    const t = await withWeek();
    const today = await allStreams(t, emptyExploreFilter(), 3, {
      when: "today",
      day: "2031-03-08",
      timeZone: CHICAGO,
    });
    expect(liveTitles(today)).toHaveLength(5);
    expect(upcomingTitles(today)).toEqual(["Saturday late"]);
    // In Berlin, Chicago's Saturday 23:30 is already Sunday, as is its Sunday noon.
    const berlin = await allStreams(t, emptyExploreFilter(), 3, {
      when: "today",
      day: "2031-03-09",
      timeZone: "Europe/Berlin",
    });
    expect(upcomingTitles(berlin)).toEqual(["Saturday late", "Sunday noon"]);
  });

  test("a window's pages meet without gaps or repeats, also when a page is re-read to its end", async () => {
    const t = await withWeek();
    const view: ExploreView = { when: "week", day: "2031-03-07", timeZone: CHICAGO };
    const whole = titles(await allStreams(t, emptyExploreFilter(), 100, view));
    expect(whole).toHaveLength(9);
    for (const size of [1, 2, 5])
      expect(titles(await allStreams(t, emptyExploreFilter(), size, view))).toEqual(whole);
    // convex-helpers' usePaginatedQuery re-reads a page up to where it ended: across the two parts too.
    const first = await streamPage(t, emptyExploreFilter(), 6, null, view);
    const again = await t.query(api.explore.listExploreStreams, {
      filter: emptyExploreFilter(),
      view,
      paginationOpts: { numItems: 6, cursor: null, endCursor: first.continueCursor },
    });
    expect(titles(again.page)).toEqual(whole.slice(0, 6));
    const second = await streamPage(t, emptyExploreFilter(), 6, first.continueCursor, view);
    expect(titles(second.page)).toEqual(whole.slice(6));
  });

  test("this weekend: Saturday and Sunday; the shows on now only while it is the weekend", async () => {
    const t = await withWeek();
    const wednesday = await allStreams(t, emptyExploreFilter(), 3, {
      when: "weekend",
      day: "2031-03-05",
      timeZone: CHICAGO,
    });
    expect(titles(wednesday)).toEqual(["Saturday late", "Sunday noon"]);
    const sunday = await allStreams(t, emptyExploreFilter(), 3, {
      when: "weekend",
      day: "2031-03-09",
      timeZone: CHICAGO,
    });
    expect(liveTitles(sunday)).toHaveLength(5);
    expect(upcomingTitles(sunday)).toEqual(["Saturday late", "Sunday noon"]);
  });

  test("the next 7 days: today and the six after it (Friday to Thursday), soonest first", async () => {
    const t = await withWeek();
    const week = await allStreams(t, emptyExploreFilter(), 4, {
      when: "week",
      day: "2031-03-07",
      timeZone: CHICAGO,
    });
    expect(upcomingTitles(week)).toEqual([
      "Friday noon",
      "Saturday late",
      "Sunday noon",
      "Monday just after midnight",
    ]);
    expect(titles(week).slice(0, 5)).toEqual(liveTitles(week));
    // The filter still applies: none of these is in Texas.
    const texas = await allStreams(t, filterOf({ states: ["TX"] }), 4, {
      when: "week",
      day: "2031-03-07",
      timeZone: CHICAGO,
    });
    expect(upcomingTitles(texas)).toEqual([]);
  });

  test("newest: the shows on now, then upcoming shows the most recently added first", async () => {
    const t = await withWeek();
    const newest = await allStreams(t, emptyExploreFilter(), 3, { when: "upcoming", sort: "newest" });
    const soonest = await allStreams(t, emptyExploreFilter(), 3, { when: "upcoming" });
    expect(liveTitles(newest)).toEqual(liveTitles(soonest));
    expect(upcomingTitles(newest).slice(0, 5)).toEqual([...SHOWS.map(([title]) => title)].reverse());
    expect([...titles(newest)].sort()).toEqual([...titles(soonest)].sort());
  });

  test("a window without the viewer's day or zone is refused with a sentence", async () => {
    const t = await newSeededTest();
    await expect(streamPage(t, emptyExploreFilter(), 5, null, { when: "today" })).rejects.toMatchObject({
      data: { code: "INVALID_ARGUMENT" },
    });
    await expect(
      streamPage(t, emptyExploreFilter(), 5, null, {
        when: "week",
        day: "2031-03-07",
        timeZone: "Nowhere/Else",
      }),
    ).rejects.toMatchObject({ data: { code: "INVALID_ARGUMENT" } });
  });
});

describe("result counts", () => {
  test("count what the list holds, for streams in each view and for shops", async () => {
    const t = await newSeededTest();
    const count = (view?: ExploreView, selection: Partial<ExploreFilter> = {}) =>
      t.query(api.explore.countExploreStreams, { filter: filterOf(selection), view });
    expect(await count()).toEqual({ count: 14, more: false });
    expect(await count({ when: "live" })).toEqual({ count: 5, more: false });
    expect(await count(REPLAYS)).toEqual({ count: 4, more: false });
    expect(await count(undefined, { states: ["IL"] })).toEqual({
      count: (await allStreams(t, filterOf({ states: ["IL"] }))).length,
      more: false,
    });
    expect(await t.query(api.explore.countExploreShops, { filter: emptyExploreFilter() })).toEqual({
      count: 12,
      more: false,
    });
  });

  test("past 100 the count says so, and reads no more", async () => {
    const t = await newSeededTest();
    await t.run(async (ctx) => await insertGeneratedStreams(ctx, { count: 400, offset: 0, seed: 5 }));
    const { result, docsRead } = await countDocsRead(() =>
      t.query(api.explore.countExploreStreams, { filter: emptyExploreFilter() }),
    );
    expect(result).toEqual({ count: 100, more: true });
    expect(docsRead).toBeLessThanOrEqual(101);
  });
});
