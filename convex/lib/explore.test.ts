import { describe, expect, it } from "vitest";
import { MAX_SELECTED_MSAS } from "./constants";
import {
  addCategory,
  addMsa,
  addState,
  categorySelection,
  clearFilter,
  emptyExploreFilter,
  exploreFilterToSearchParams,
  facetsFromLinks,
  isExploreFilterEmpty,
  matchesExploreFilter,
  parseExploreFilter,
  removeCategory,
  removeMsa,
  removeState,
  toggleSubcategory,
  type CategoryTree,
  type ExploreFacets,
  type ExploreFilter,
  type MsaLookup,
} from "./explore";

/** A slice of data/categories.json and data/msas.csv, enough for every rule. */
const tree: CategoryTree = [
  {
    id: "fashion_apparel",
    subcategories: [
      { id: "clothing" },
      { id: "shoes" },
      { id: "jewelry_watches" },
      { id: "handbags_accessories" },
    ],
  },
  {
    id: "home_goods",
    subcategories: [
      { id: "home_decor" },
      { id: "kitchen_dining" },
      { id: "bedding_bath" },
      { id: "furniture" },
    ],
  },
  {
    id: "beauty_personal_care",
    subcategories: [{ id: "makeup" }, { id: "skin_care" }, { id: "hair_care" }, { id: "fragrance" }],
  },
];
const FASHION = ["clothing", "shoes", "jewelry_watches", "handbags_accessories"];

const NEW_YORK = "35620"; // NY-NJ
const ALLENTOWN = "10900"; // PA-NJ
const PHILADELPHIA = "37980"; // PA-NJ-DE-MD
const ALBANY = "10580"; // NY
const BUFFALO = "15380"; // NY
const ROCHESTER = "40380"; // NY
const AUSTIN = "12420"; // TX
const DALLAS = "19100"; // TX
const LOS_ANGELES = "31080"; // CA
const msas: MsaLookup = [
  { cbsaCode: NEW_YORK, states: ["NY", "NJ"] },
  { cbsaCode: ALLENTOWN, states: ["PA", "NJ"] },
  { cbsaCode: PHILADELPHIA, states: ["PA", "NJ", "DE", "MD"] },
  { cbsaCode: ALBANY, states: ["NY"] },
  { cbsaCode: BUFFALO, states: ["NY"] },
  { cbsaCode: ROCHESTER, states: ["NY"] },
  { cbsaCode: AUSTIN, states: ["TX"] },
  { cbsaCode: DALLAS, states: ["TX"] },
  { cbsaCode: LOS_ANGELES, states: ["CA"] },
];
const reference = { categories: tree, msas };

function filterWith(selection: Partial<ExploreFilter>): ExploreFilter {
  return { ...emptyExploreFilter(), ...selection };
}

function facets(selection: Partial<ExploreFacets>): ExploreFacets {
  return { categories: [], subcategories: [], msas: [], states: [], ...selection };
}

/** A stream tagged fashion_apparel/clothing in New York (NY-NJ). */
const clothingInNewYork = facets({
  categories: ["fashion_apparel"],
  subcategories: ["clothing"],
  msas: [NEW_YORK],
  states: ["NY", "NJ"],
});

describe("docs/product.md#explore: how a selection changes", () => {
  it('"Adding a category also selects all its subcategories."', () => {
    expect(addCategory(emptyExploreFilter(), "fashion_apparel", tree)).toEqual(
      filterWith({ categories: ["fashion_apparel"], subcategories: FASHION }),
    );
  });

  it('"Removing a category removes its subcategories." (and leaves other categories alone)', () => {
    const both = addCategory(addCategory(emptyExploreFilter(), "fashion_apparel", tree), "home_goods", tree);
    expect(removeCategory(both, "fashion_apparel", tree)).toEqual(
      addCategory(emptyExploreFilter(), "home_goods", tree),
    );
  });

  it('"Adding or removing a state drops any selected MSA that no longer belongs to a selected state." (adding)', () => {
    const start = filterWith({ states: ["NY"], msas: [NEW_YORK, ALBANY] });
    expect(addState(start, "TX", msas)).toEqual(
      filterWith({ states: ["NY", "TX"], msas: [NEW_YORK, ALBANY] }),
    );
    // An MSA chosen without its state (say from the home page) is dropped once a state narrows the list.
    const metroOnly = filterWith({ msas: [NEW_YORK, AUSTIN] });
    expect(addState(metroOnly, "TX", msas)).toEqual(filterWith({ states: ["TX"], msas: [AUSTIN] }));
  });

  it('"Adding or removing a state drops any selected MSA that no longer belongs to a selected state." (removing)', () => {
    const start = filterWith({ states: ["NY", "NJ", "TX"], msas: [NEW_YORK, ALBANY, ALLENTOWN, AUSTIN] });
    // New York is NY-NJ, so it stays while NJ is selected; Albany is NY only.
    expect(removeState(start, "NY", msas)).toEqual(
      filterWith({ states: ["NJ", "TX"], msas: [NEW_YORK, ALLENTOWN, AUSTIN] }),
    );
  });

  it("removing the last state drops every MSA (the literal reading: none belongs to a selected state)", () => {
    const start = filterWith({ states: ["TX"], msas: [AUSTIN, DALLAS] });
    expect(removeState(start, "TX", msas)).toEqual(emptyExploreFilter());
  });
});

describe("docs/product.md#explore: matching", () => {
  it('"OR within the category/subcategory pair" (a category or a subcategory is enough)', () => {
    const filter = filterWith({ categories: ["home_goods"], subcategories: ["clothing"] });
    expect(matchesExploreFilter(clothingInNewYork, filter)).toBe(true);
    expect(matchesExploreFilter(facets({ categories: ["home_goods"] }), filter)).toBe(true);
    expect(matchesExploreFilter(facets({ categories: ["beauty_personal_care"] }), filter)).toBe(false);
  });

  it('"OR ... within the state/MSA pair" (a state or an MSA is enough)', () => {
    const filter = filterWith({ states: ["TX"], msas: [NEW_YORK] });
    expect(matchesExploreFilter(clothingInNewYork, filter)).toBe(true);
    expect(matchesExploreFilter(facets({ msas: [AUSTIN], states: ["TX"] }), filter)).toBe(true);
    expect(matchesExploreFilter(facets({ msas: [LOS_ANGELES], states: ["CA"] }), filter)).toBe(false);
  });

  it('"AND between the two pairs" (both must match)', () => {
    const filter = filterWith({ categories: ["fashion_apparel"], states: ["TX"] });
    expect(matchesExploreFilter(clothingInNewYork, filter)).toBe(false);
    expect(matchesExploreFilter(clothingInNewYork, { ...filter, states: ["NJ"] })).toBe(true);
  });

  it('"An empty selection means no restriction."', () => {
    expect(matchesExploreFilter(clothingInNewYork, emptyExploreFilter())).toBe(true);
    expect(matchesExploreFilter(facets({}), emptyExploreFilter())).toBe(true);
    // An empty pair does not restrict while the other pair does.
    expect(matchesExploreFilter(clothingInNewYork, filterWith({ msas: [NEW_YORK] }))).toBe(true);
    expect(matchesExploreFilter(clothingInNewYork, filterWith({ subcategories: ["clothing"] }))).toBe(true);
  });

  it('"A stream with no category string matches only when no category is selected."', () => {
    const untagged = facets({ msas: [NEW_YORK], states: ["NY", "NJ"] });
    expect(matchesExploreFilter(untagged, emptyExploreFilter())).toBe(true);
    expect(matchesExploreFilter(untagged, filterWith({ states: ["NY"] }))).toBe(true);
    expect(matchesExploreFilter(untagged, filterWith({ categories: ["fashion_apparel"] }))).toBe(false);
    // A subcategory selected on its own is a category selection too.
    expect(matchesExploreFilter(untagged, filterWith({ subcategories: ["clothing"] }))).toBe(false);
  });

  it("likewise a stream with no place matches only when no state or MSA is selected", () => {
    const nowhere = facets({ categories: ["fashion_apparel"] });
    expect(matchesExploreFilter(nowhere, filterWith({ categories: ["fashion_apparel"] }))).toBe(true);
    expect(matchesExploreFilter(nowhere, filterWith({ states: ["NY"] }))).toBe(false);
    expect(matchesExploreFilter(nowhere, filterWith({ msas: [NEW_YORK] }))).toBe(false);
  });

  it("a stream tagged with a category but no subcategory does not match a subcategory selected on its own", () => {
    const fashionOnly = facets({ categories: ["fashion_apparel"] });
    expect(matchesExploreFilter(fashionOnly, filterWith({ subcategories: ["shoes"] }))).toBe(false);
    expect(
      matchesExploreFilter(fashionOnly, addCategory(emptyExploreFilter(), "fashion_apparel", tree)),
    ).toBe(true);
  });
});

describe("docs/product.md#explore: at most 6 MSAs", () => {
  const sixMsas = [NEW_YORK, ALLENTOWN, PHILADELPHIA, ALBANY, BUFFALO, ROCHESTER];

  it('"At most 6 MSAs can be selected in the explore filter." (the seventh is refused with a message)', () => {
    const six = filterWith({ msas: sixMsas });
    expect(MAX_SELECTED_MSAS).toBe(6);
    expect(addMsa(six, AUSTIN, msas)).toEqual({ filter: six, error: "You can select up to 6 metro areas." });
  });

  it("up to six are added one by one without an error", () => {
    let filter = emptyExploreFilter();
    for (const cbsaCode of sixMsas) {
      const change = addMsa(filter, cbsaCode, msas);
      expect(change.error).toBeUndefined();
      filter = change.filter;
    }
    expect(filter.msas).toEqual(sixMsas);
  });

  it("adding an MSA that is already selected changes nothing, even at the limit", () => {
    const six = filterWith({ msas: sixMsas });
    expect(addMsa(six, NEW_YORK, msas)).toEqual({ filter: six });
  });

  it("after removing one, another can be added", () => {
    const five = removeMsa(filterWith({ msas: sixMsas }), ALBANY);
    expect(addMsa(five, AUSTIN, msas).filter.msas).toEqual([
      NEW_YORK,
      ALLENTOWN,
      PHILADELPHIA,
      BUFFALO,
      ROCHESTER,
      AUSTIN,
    ]);
  });

  it("adding an MSA does not add its state, and an unknown MSA is ignored", () => {
    expect(addMsa(emptyExploreFilter(), AUSTIN, msas).filter).toEqual(filterWith({ msas: [AUSTIN] }));
    expect(addMsa(emptyExploreFilter(), "99999", msas)).toEqual({ filter: emptyExploreFilter() });
  });
});

describe("docs/product.md#explore", () => {
  it('"Filters: categories and their subcategories; states and metropolitan areas (MSAs)."', () => {
    expect(Object.keys(emptyExploreFilter()).sort()).toEqual([
      "categories",
      "msas",
      "states",
      "subcategories",
    ]);
  });

  it('"Adding a category also selects all its subcategories; removing it removes them."', () => {
    const added = addCategory(emptyExploreFilter(), "home_goods", tree);
    expect(added.subcategories).toEqual(["home_decor", "kitchen_dining", "bedding_bath", "furniture"]);
    expect(removeCategory(added, "home_goods", tree)).toEqual(emptyExploreFilter());
  });

  it('"Adding or removing a state drops every selected MSA that no longer belongs to a selected state."', () => {
    const start = filterWith({ states: ["PA"], msas: [ALLENTOWN, PHILADELPHIA] });
    const withNj = addState(start, "NJ", msas);
    expect(withNj.msas).toEqual([ALLENTOWN, PHILADELPHIA]);
    expect(removeState(withNj, "PA", msas).msas).toEqual([ALLENTOWN, PHILADELPHIA]); // both are also NJ
  });

  it('"At most 6 MSAs can be selected."', () => {
    const seven = `msa=${[NEW_YORK, ALLENTOWN, PHILADELPHIA, ALBANY, BUFFALO, ROCHESTER, AUSTIN].join("&msa=")}`;
    expect(parseExploreFilter(seven, reference).msas).toHaveLength(6);
  });

  it('"a stream with no category matches only when no category is selected"', () => {
    expect(matchesExploreFilter(facets({}), emptyExploreFilter())).toBe(true);
    expect(matchesExploreFilter(facets({}), addCategory(emptyExploreFilter(), "home_goods", tree))).toBe(
      false,
    );
  });

  it('"The filter state lives in the URL query, so a filtered view can be shared and survives reload."', () => {
    let filter = addCategory(emptyExploreFilter(), "fashion_apparel", tree);
    filter = toggleSubcategory(filter, "makeup", tree);
    filter = addState(filter, "NY", msas);
    filter = addMsa(filter, ALBANY, msas).filter;
    filter = addMsa(filter, NEW_YORK, msas).filter;
    filter = { ...filter, q: "vintage denim" };
    const url = `/explore/streams?${exploreFilterToSearchParams(filter).toString()}`;
    const reloaded = parseExploreFilter(new URL(url, "https://livelocal.example").searchParams, reference);
    expect(normalized(reloaded)).toEqual(normalized(filter));
  });
});

function normalized(filter: ExploreFilter): ExploreFilter {
  return {
    categories: [...filter.categories].sort(),
    subcategories: [...filter.subcategories].sort(),
    states: [...filter.states].sort(),
    msas: [...filter.msas].sort(),
    ...(filter.q === undefined ? {} : { q: filter.q }),
  };
}

describe("subcategories (decided here: a category is selected exactly while all its subcategories are)", () => {
  it("selecting a subcategory on its own narrows to it", () => {
    expect(toggleSubcategory(emptyExploreFilter(), "shoes", tree)).toEqual(
      filterWith({ subcategories: ["shoes"] }),
    );
  });

  it("deselecting a subcategory of a selected category deselects the category and keeps the siblings", () => {
    const fashion = addCategory(emptyExploreFilter(), "fashion_apparel", tree);
    expect(toggleSubcategory(fashion, "shoes", tree)).toEqual(
      filterWith({ subcategories: ["clothing", "jewelry_watches", "handbags_accessories"] }),
    );
  });

  it("selecting the last missing subcategory selects the category again", () => {
    const three = filterWith({ subcategories: ["clothing", "jewelry_watches", "handbags_accessories"] });
    expect(toggleSubcategory(three, "shoes", tree)).toEqual(
      filterWith({ categories: ["fashion_apparel"], subcategories: [...three.subcategories, "shoes"] }),
    );
  });

  it("deselecting a subcategory selected on its own just removes it", () => {
    expect(toggleSubcategory(filterWith({ subcategories: ["shoes"] }), "shoes", tree)).toEqual(
      emptyExploreFilter(),
    );
  });

  it("an unknown subcategory or category changes nothing", () => {
    expect(toggleSubcategory(emptyExploreFilter(), "nope", tree)).toEqual(emptyExploreFilter());
    expect(addCategory(emptyExploreFilter(), "nope", tree)).toEqual(emptyExploreFilter());
  });

  it("categorySelection tells all, some or none for a tri-state checkbox", () => {
    const filter = toggleSubcategory(addCategory(emptyExploreFilter(), "home_goods", tree), "makeup", tree);
    expect(categorySelection(filter, "home_goods", tree)).toBe("all");
    expect(categorySelection(filter, "beauty_personal_care", tree)).toBe("some");
    expect(categorySelection(filter, "fashion_apparel", tree)).toBe("none");
  });
});

describe("states and the rest of the selection", () => {
  it("adding a state twice keeps one, and lowercase codes are accepted", () => {
    expect(addState(addState(emptyExploreFilter(), "ny", msas), "NY", msas).states).toEqual(["NY"]);
  });

  it("an unknown state is ignored", () => {
    expect(addState(filterWith({ msas: [AUSTIN] }), "ZZ", msas)).toEqual(filterWith({ msas: [AUSTIN] }));
  });

  it("clearFilter empties every selection and keeps the search text", () => {
    const full = filterWith({ categories: ["home_goods"], states: ["TX"], msas: [AUSTIN], q: "lamps" });
    expect(clearFilter(full)).toEqual({ ...emptyExploreFilter(), q: "lamps" });
    expect(isExploreFilterEmpty(clearFilter(filterWith({ states: ["TX"] })))).toBe(true);
    expect(isExploreFilterEmpty(clearFilter(full))).toBe(false);
  });
});

describe("facetsFromLinks", () => {
  it("collects categories, subcategories, MSAs, and the union of the MSAs' states, without duplicates", () => {
    const links = [
      { categoryId: "fashion_apparel", subcategoryId: "clothing" },
      { categoryId: "fashion_apparel", subcategoryId: "shoes" },
      { categoryId: "home_goods" },
    ];
    const rows = [
      { cbsaCode: NEW_YORK, states: ["NY", "NJ"] },
      { cbsaCode: PHILADELPHIA, states: ["PA", "NJ", "DE", "MD"] },
    ];
    expect(facetsFromLinks(links, rows)).toEqual({
      categories: ["fashion_apparel", "home_goods"],
      subcategories: ["clothing", "shoes"],
      msas: [NEW_YORK, PHILADELPHIA],
      states: ["NY", "NJ", "PA", "DE", "MD"],
    });
  });

  it("a stream in Philadelphia (PA-NJ-DE-MD) matches a filter on Delaware", () => {
    const inPhiladelphia = facetsFromLinks(
      [],
      [{ cbsaCode: PHILADELPHIA, states: ["PA", "NJ", "DE", "MD"] }],
    );
    expect(matchesExploreFilter(inPhiladelphia, filterWith({ states: ["DE"] }))).toBe(true);
  });
});

describe("URL query", () => {
  it("writes one repeated parameter per value, sorted, so one selection gives one URL", () => {
    const a = filterWith({ states: ["TX", "NY"], msas: [DALLAS, AUSTIN], q: " denim " });
    const b = filterWith({ states: ["NY", "TX"], msas: [AUSTIN, DALLAS], q: "denim" });
    expect(exploreFilterToSearchParams(a).toString()).toBe("state=NY&state=TX&msa=12420&msa=19100&q=denim");
    expect(exploreFilterToSearchParams(b).toString()).toBe(exploreFilterToSearchParams(a).toString());
  });

  it("an empty filter is an empty query", () => {
    expect(exploreFilterToSearchParams(emptyExploreFilter()).toString()).toBe("");
    expect(parseExploreFilter("", reference)).toEqual(emptyExploreFilter());
  });

  it("round-trips every kind of selection, including MSAs without their states", () => {
    const filter: ExploreFilter = {
      categories: ["beauty_personal_care"],
      subcategories: ["fragrance", "hair_care", "kitchen_dining", "makeup", "skin_care"],
      states: ["CA", "NJ"],
      msas: [AUSTIN, NEW_YORK],
      q: "candles & soap",
    };
    expect(parseExploreFilter(exploreFilterToSearchParams(filter), reference)).toEqual(filter);
  });

  it("also reads comma lists, and a leading question mark", () => {
    expect(parseExploreFilter("?state=NY,TX&msa=35620,12420", reference)).toEqual(
      filterWith({ states: ["NY", "TX"], msas: [AUSTIN, NEW_YORK] }),
    );
  });

  it("drops unknown ids and duplicates, and uppercases state codes", () => {
    const query =
      "category=home_goods&category=nope&category=home_goods&subcategory=zzz&state=ny&state=NY&state=QQ&msa=00000&msa=12420&msa=12420";
    expect(parseExploreFilter(query, reference)).toEqual(
      filterWith({
        categories: ["home_goods"],
        subcategories: ["bedding_bath", "furniture", "home_decor", "kitchen_dining"],
        states: ["NY"],
        msas: [AUSTIN],
      }),
    );
  });

  it("keeps only the first 6 MSAs of the URL (returned sorted, like every list)", () => {
    const codes = [NEW_YORK, ALLENTOWN, PHILADELPHIA, ALBANY, BUFFALO, ROCHESTER, AUSTIN, DALLAS];
    expect(parseExploreFilter(`msa=${codes.join(",")}`, reference).msas).toEqual(codes.slice(0, 6).sort());
  });

  it("parsing a URL and writing it back gives the same URL", () => {
    const query = `category=home_goods&subcategory=makeup&state=NY&state=TX&msa=${AUSTIN}&msa=${NEW_YORK}&q=lamps`;
    const once = exploreFilterToSearchParams(parseExploreFilter(query, reference)).toString();
    expect(exploreFilterToSearchParams(parseExploreFilter(once, reference)).toString()).toBe(once);
  });

  it("keeps MSAs that lie outside the selected states (a link from the home page's metro picker)", () => {
    expect(parseExploreFilter(`state=TX&msa=${NEW_YORK}`, reference)).toEqual(
      filterWith({ states: ["TX"], msas: [NEW_YORK] }),
    );
  });

  it("restores the category invariant: a category brings its subcategories, all subcategories bring the category", () => {
    expect(parseExploreFilter("category=fashion_apparel", reference)).toEqual(
      filterWith({ categories: ["fashion_apparel"], subcategories: [...FASHION].sort() }),
    );
    expect(parseExploreFilter(`subcategory=${FASHION.join(",")}`, reference).categories).toEqual([
      "fashion_apparel",
    ]);
  });

  it("ignores blank search text and cuts very long text", () => {
    expect(parseExploreFilter("q=%20%20", reference).q).toBeUndefined();
    expect(parseExploreFilter(`q=${"a".repeat(500)}`, reference).q).toHaveLength(200);
  });
});
