import { describe, expect, it } from "vitest";
import { SUBCATEGORY_SYNONYMS } from "./categorySynonyms";
import { CATEGORIES } from "./data/categories";
import {
  emptyExploreFilter,
  matchesExploreFilter,
  TOO_MANY_MSAS_MESSAGE,
  type ExploreFilter,
} from "./explore";
import {
  ANY_KEY,
  EXPLORE_REFERENCE,
  exploreFilterRefusal,
  listingCategoryKeys,
  listingPlaceKeys,
  LIVE_RANKS,
  MAX_EXPLORE_RANGES,
  normalizeExploreFilter,
  planExploreRanges,
  searchRankOf,
  streamListingOrder,
  facetSearchTexts,
} from "./exploreListing";

const filterOf = (selection: Partial<ExploreFilter>): ExploreFilter => ({
  ...emptyExploreFilter(),
  ...selection,
});
const keysOf = (filter: ExploreFilter) =>
  planExploreRanges(filter, EXPLORE_REFERENCE).ranges.map(
    (range) => `${range.categoryKey} × ${range.placeKey}`,
  );

describe("index ranges of a filter", () => {
  it("an empty filter reads the one range every listed item is under", () => {
    expect(keysOf(emptyExploreFilter())).toEqual(["* × *"]);
  });

  it("a category and a metro area read the one range of both", () => {
    expect(keysOf(filterOf({ categories: ["collectibles"], msas: ["16980"] }))).toEqual([
      "category:collectibles × msa:16980",
    ]);
  });

  it("a subcategory under a selected category, or a metro area in a selected state, adds no range", () => {
    expect(
      keysOf(
        filterOf({
          categories: ["home_goods"],
          subcategories: ["furniture"],
          states: ["IL"],
          msas: ["16980"],
        }),
      ),
    ).toEqual(["category:home_goods × state:IL"]);
    // St. Louis lies in MO and IL: selecting IL covers it.
    expect(keysOf(filterOf({ states: ["IL"], msas: ["41180"] }))).toEqual(["* × state:IL"]);
  });

  it("OR inside each pair, AND between them: one range per pair of keys", () => {
    expect(
      keysOf(filterOf({ categories: ["toys_kids"], subcategories: ["trading_cards"], states: ["TX", "IL"] })),
    ).toEqual([
      "category:toys_kids × state:TX",
      "category:toys_kids × state:IL",
      "subcategory:trading_cards × state:TX",
      "subcategory:trading_cards × state:IL",
    ]);
  });

  it(`past ${MAX_EXPLORE_RANGES} ranges, one pair is read whole and checked item by item`, () => {
    const states = ["TX", "IL", "CA", "NY", "WA", "GA", "CO", "OR", "NC", "FL", "AZ", "MA", "MI"];
    const plan = planExploreRanges(
      filterOf({ categories: ["toys_kids", "home_goods"], states }),
      EXPLORE_REFERENCE,
    );
    expect(plan.exact).toBe(false);
    expect(plan.ranges.map((range) => range.placeKey)).toEqual([ANY_KEY, ANY_KEY]);
  });

  it("an item is under a range of the plan exactly when it matches the filter", () => {
    const items = [
      { categories: ["home_goods"], subcategories: ["furniture"], msas: ["41180"], states: ["MO", "IL"] },
      { categories: ["collectibles"], subcategories: [], msas: ["12420"], states: ["TX"] },
      { categories: [], subcategories: [], msas: ["16980"], states: ["IL", "IN", "WI"] },
      { categories: ["toys_kids"], subcategories: ["toys"], msas: [], states: [] },
    ];
    const filters = [
      emptyExploreFilter(),
      filterOf({ states: ["IL"] }),
      filterOf({ subcategories: ["furniture"], msas: ["12420"] }),
      filterOf({ categories: ["collectibles", "toys_kids"] }),
      filterOf({ categories: ["home_goods"], states: ["WI"], msas: ["41180"] }),
    ];
    for (const filter of filters) {
      const ranges = planExploreRanges(filter, EXPLORE_REFERENCE).ranges;
      for (const facets of items) {
        const listedUnder = ranges.some(
          (range) =>
            listingCategoryKeys(facets).includes(range.categoryKey) &&
            listingPlaceKeys(facets).includes(range.placeKey),
        );
        expect(listedUnder, JSON.stringify({ filter, facets })).toBe(matchesExploreFilter(facets, filter));
      }
    }
  });
});

describe("filter arguments", () => {
  it("refuses more than 6 metro areas with the explore sentence", () => {
    const msas = ["12420", "16980", "35620", "31080", "42660", "12060", "38900"];
    expect(exploreFilterRefusal(filterOf({ msas }))).toBe(TOO_MANY_MSAS_MESSAGE);
    expect(exploreFilterRefusal(filterOf({ msas: msas.slice(0, 6) }))).toBeNull();
  });

  it("refuses ids over 50 characters and over-long search text", () => {
    expect(exploreFilterRefusal(filterOf({ subcategories: ["a".repeat(51)] }))).toMatch(/50 characters/);
    expect(exploreFilterRefusal(filterOf({ q: "a".repeat(201) }))).toMatch(/200 characters/);
  });

  it("drops unknown ids and duplicates, capitalizes states, forgets blank text", () => {
    expect(
      normalizeExploreFilter(
        {
          categories: ["collectibles", "collectibles", "nope"],
          subcategories: ["toys"],
          states: ["tx", "ZZ"],
          msas: ["99999", "16980"],
          q: "  ",
        },
        EXPLORE_REFERENCE,
      ),
    ).toEqual({ categories: ["collectibles"], subcategories: ["toys"], states: ["TX"], msas: ["16980"] });
  });
});

describe("order", () => {
  it("on now (live or paused) by start, upcoming soonest first, ended latest first; drafts and cancelled not listed", () => {
    const order = [
      { streamStatus: "ENDED", streamStartUTC: 1, streamStopUTC: 2, _creationTime: 0 },
      { streamStatus: "ENDED", streamStartUTC: 5, streamStopUTC: 9, _creationTime: 0 },
      { streamStatus: "SCHEDULED", streamStartUTC: 50, _creationTime: 0 },
      { streamStatus: "SCHEDULED", streamStartUTC: 20, _creationTime: 0 },
      { streamStatus: "LIVE", streamStartUTC: 6, _creationTime: 0 },
      { streamStatus: "PAUSED", streamStartUTC: 3, _creationTime: 0 },
      { streamStatus: "LIVE", streamStartUTC: 4, _creationTime: 0 },
    ] as const;
    const sorted = [...order]
      .map((stream) => ({ stream, key: streamListingOrder(stream)! }))
      .sort((a, b) => a.key.rank - b.key.rank || a.key.sortKey - b.key.sortKey)
      .map(({ stream }) => `${stream.streamStatus} ${stream.streamStartUTC}`);
    expect(sorted).toEqual([
      "PAUSED 3",
      "LIVE 4",
      "LIVE 6",
      "SCHEDULED 20",
      "SCHEDULED 50",
      "ENDED 5",
      "ENDED 1",
    ]);
    expect(streamListingOrder({ streamStatus: "CREATED", _creationTime: 0 })).toBeNull();
    expect(streamListingOrder({ streamStatus: "CANCELLED", _creationTime: 0 })).toBeNull();
    expect(Object.is(streamListingOrder({ streamStatus: "ENDED", _creationTime: 0 })?.sortKey, 0)).toBe(true);
  });

  it("newest: live shows still by start, then upcoming shows the most recently added first", () => {
    const order = [
      { streamStatus: "SCHEDULED", streamStartUTC: 20, _creationTime: 100 },
      { streamStatus: "SCHEDULED", streamStartUTC: 50, _creationTime: 300 },
      { streamStatus: "LIVE", streamStartUTC: 9, _creationTime: 500 },
      { streamStatus: "LIVE", streamStartUTC: 4, _creationTime: 1 },
    ] as const;
    const sorted = [...order]
      .map((stream) => ({ stream, key: streamListingOrder(stream)! }))
      .sort((a, b) => a.key.rank - b.key.rank || a.key.newestKey - b.key.newestKey)
      .map(({ stream }) => `${stream.streamStatus} ${stream.streamStartUTC}`);
    expect(sorted).toEqual(["LIVE 4", "LIVE 9", "SCHEDULED 50", "SCHEDULED 20"]);
  });
});

describe("search rank", () => {
  it("is the rank, but one for live and paused shows, which search takes together", () => {
    const rankOf = (streamStatus: "LIVE" | "PAUSED" | "SCHEDULED" | "ENDED") =>
      streamListingOrder({ streamStatus, streamStartUTC: 1, _creationTime: 1 })!.rank;
    expect(rankOf("PAUSED")).toBe(rankOf("LIVE"));
    expect(searchRankOf(rankOf("PAUSED"))).toBe(searchRankOf(rankOf("LIVE")));
    expect(new Set([rankOf("LIVE"), rankOf("SCHEDULED"), rankOf("ENDED")].map(searchRankOf)).size).toBe(3);
    // A row written before decision 046 keeps paused shows' old rank: search reads it as live.
    expect(LIVE_RANKS).toHaveLength(2);
    expect(searchRankOf(LIVE_RANKS[1])).toBe(searchRankOf(rankOf("LIVE")));
  });
});

describe("search text of facets", () => {
  it("names categories, subcategories, metro areas and states as a buyer types them, and apart what the subcategories hold", () => {
    expect(
      facetSearchTexts({
        categories: ["collectibles"],
        subcategories: ["trading_cards"],
        msas: ["16980"],
        states: ["IL", "IN"],
      }),
    ).toEqual({
      categories: ["Collectibles", "Trading Cards"],
      areas: ["Chicago-Naperville-Elgin, IL-IN", "Illinois", "Indiana"],
      // The subcategory's description in the category tree, then its synonyms (decision 062).
      categoryWords: [
        "Sports and trading card game (TCG) cards: singles, sealed packs and graded cards.",
        ...(SUBCATEGORY_SYNONYMS.trading_cards ?? []),
      ],
    });
    expect(SUBCATEGORY_SYNONYMS.trading_cards).toContain("pokemon");
  });
});

describe("subcategory synonyms", () => {
  it("name every subcategory of the category tree, and nothing else", () => {
    const ids = CATEGORIES.flatMap((category) => category.subcategories.map((sub) => sub.id));
    expect(Object.keys(SUBCATEGORY_SYNONYMS).sort()).toEqual([...ids].sort());
    for (const words of Object.values(SUBCATEGORY_SYNONYMS)) expect(words.length).toBeLessThanOrEqual(8);
  });
});
