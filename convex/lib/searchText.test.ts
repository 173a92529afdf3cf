import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  buildSearchDocument,
  deletionVariants,
  exactSearchText,
  foldText,
  matchSearch,
  matchWord,
  MAX_QUERY_WORDS,
  MAX_SEARCH_TERMS,
  parseSearchQuery,
  sameStem,
  searchWords,
  singularForms,
  typoSearchText,
  withinOneEdit,
  withoutNeedlessTypos,
  wordsNeedingTypoSearch,
} from "./searchText";

describe("normalizing text", () => {
  test.each([
    ["Pokémon", "pokemon"],
    ["CAFÉ Crème", "cafe creme"],
    ["Straße", "strasse"],
    ["Ærøskøbing", "aeroskobing"],
    ["ﬁne", "fine"],
  ])("%s folds to %s", (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });

  test.each([
    ["Vintage Levi's drop: 80s and 90s 501s", ["vintage", "levis", "drop", "80s", "and", "90s", "501s"]],
    ["Pokémon Scarlet & Violet", ["pokemon", "scarlet", "violet"]],
    ["K-beauty haul", ["k", "beauty", "kbeauty", "haul"]],
    ["East Austin Denim Co.", ["east", "austin", "denim", "co"]],
    ["'50s to '80s singles", ["50s", "to", "80s", "singles"]],
    ["Bushwick, Brooklyn", ["bushwick", "brooklyn"]],
    ["—  ", []],
  ])("%s is found by %j", (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  test("a word longer than a search term is cut as Convex cuts it", () => {
    expect(searchWords("a".repeat(40))).toEqual(["a".repeat(32)]);
  });
});

describe("a buyer's query", () => {
  test.each([
    ["pokemon", ["pokemon"]],
    ["Levi's", ["levis"]],
    ["LEVIS 501", ["levis", "501"]],
    ["k-beauty", ["kbeauty"]],
    ["the pokemon of chicago", ["pokemon", "chicago"]],
    ["denim denim", ["denim"]],
  ])("%s searches %j", (q, words) => {
    expect(parseSearchQuery(q)).toEqual({ words });
  });

  // Stop words alone narrow nothing: "a" is in nearly every description (issue 41: `a%_\*(` found all).
  test.each(["", "   ", "!!! & ??", "%_*(", "a%_\\*(", "the", "and or"])("%j searches nothing", (q) => {
    expect(parseSearchQuery(q)).toBeNull();
  });

  test(`at most ${MAX_QUERY_WORDS} words, the last one last`, () => {
    const query = parseSearchQuery("one two three four five six seven eight nine ten");
    expect(query?.words).toHaveLength(MAX_QUERY_WORDS);
    expect(exactSearchText(parseSearchQuery("vintage pok")!)).toBe("vintage pok");
  });

  test("the first search sends the singular forms too, within Convex's 16 terms, the last word last", () => {
    expect(exactSearchText(parseSearchQuery("sunscreens")!)).toBe("sunscreen sunscreens");
    expect(exactSearchText(parseSearchQuery("boxes of mugs")!)).toBe("box boxe mug boxes mugs");
    const many = exactSearchText(parseSearchQuery("boxes taxes foxes mixes fixes waxes sixes axes")!).split(
      " ",
    );
    expect(many).toHaveLength(MAX_SEARCH_TERMS);
    expect(many.slice(-8)).toEqual(["boxes", "taxes", "foxes", "mixes", "fixes", "waxes", "sixes", "axes"]);
  });

  test("a typo search stays within Convex's 16 terms, and only for words of five letters or more", () => {
    expect(typoSearchText("card")).toBeNull();
    expect(typoSearchText("pokeman")?.split(" ")).toEqual([
      "pokeman",
      "okeman",
      "pkeman",
      "poeman",
      "pokman",
      "pokean",
      "pokemn",
      "pokema",
    ]);
    const long = typoSearchText("supercalifragilisticexpialidocious")!.split(" ");
    expect(long.length).toBeLessThanOrEqual(MAX_SEARCH_TERMS);
    expect(new Set(long).size).toBe(long.length);
  });
});

describe("one edit", () => {
  test.each([
    ["pokemon", "pokeman", true],
    ["pokemon", "pokmeon", true],
    ["pokemon", "pokemo", true],
    ["pokemon", "pokemons", true],
    ["pokemon", "xpokemon", true],
    ["brooklyn", "brooklin", true],
    ["abcd", "bcda", false],
    ["denim", "dinner", false],
    ["denim", "denim", true],
  ])("%s and %s: %s", (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
    expect(withinOneEdit(b, a)).toBe(expected);
  });

  test.each([
    ["card", "cart", null],
    ["cards", "card", "stem"],
    ["card", "cards", "stem"],
    ["vase", "vases", "stem"],
    ["puppy", "puppies", "stem"],
    ["boxes", "box", "stem"],
    ["levs", "levis", "typo"],
    ["denim", "denim", "exact"],
    ["den", "denim", null],
  ])("%s against %s: %s", (query, stored, expected) => {
    expect(matchWord(query, stored, false)).toBe(expected);
  });

  test("only the last word of a query counts as a prefix", () => {
    expect(matchWord("den", "denim", true)).toBe("prefix");
  });

  // The retrieval rests on this: a stored word and a one-edit typo of it share a term between the
  // stored text and the typo search (or the typo itself is stored as a variant).
  test("every one-letter typo of a stored word meets it in the index and passes the check", () => {
    const letters = "abcdefghijklmnopqrstuvwxyz".split("");
    const word = fc
      .array(fc.constantFrom(...letters), { minLength: 5, maxLength: 14 })
      .map((l) => l.join(""));
    const edit = fc.record({
      kind: fc.constantFrom("add", "drop", "change", "swap"),
      at: fc.nat(),
      letter: fc.constantFrom(...letters),
    });
    fc.assert(
      fc.property(word, edit, (stored, { kind, at, letter }) => {
        const i = at % stored.length;
        const typo =
          kind === "add"
            ? stored.slice(0, i) + letter + stored.slice(i)
            : kind === "drop"
              ? stored.slice(0, i) + stored.slice(i + 1)
              : kind === "change"
                ? stored.slice(0, i) + letter + stored.slice(i + 1)
                : i + 1 < stored.length
                  ? stored.slice(0, i) + stored[i + 1] + stored[i] + stored.slice(i + 2)
                  : stored;
        const indexed = new Set(buildSearchDocument([[stored]]).searchText.split(" "));
        const terms = typo.length >= 5 ? typoSearchText(typo)!.split(" ") : [typo];
        expect(terms.some((term) => indexed.has(term))).toBe(true);
        expect(matchWord(typo, stored, false)).not.toBeNull();
      }),
      { seed: 17, numRuns: 2000 },
    );
  });
});

describe("singular and plural", () => {
  test.each([
    ["mugs", ["mug"]],
    ["sunscreens", ["sunscreen"]],
    ["puppies", ["puppy", "puppie"]],
    ["boxes", ["box", "boxe"]],
    ["vases", ["vas", "vase"]],
    ["glass", []],
    ["cactus", []],
    ["bus", []],
    ["501s", []],
    ["denim", []],
  ])("%s may be the plural of %j", (word, forms) => {
    expect(singularForms(word)).toEqual(forms);
  });

  test.each([
    ["mug", "mugs", true],
    ["vases", "vase", true],
    ["boxes", "box", true],
    ["cookies", "cookie", true],
    ["bread", "breads", true],
    ["bread", "breaks", false],
    ["glass", "glas", false],
  ])("%s and %s: %s", (a, b, expected) => {
    expect(sameStem(a, b)).toBe(expected);
    expect(sameStem(b, a)).toBe(expected);
  });
});

describe("what an item stores", () => {
  const document = buildSearchDocument([
    ["Vintage Levi's drop"],
    ["East Austin Denim Co.", "Whatnot"],
    [undefined, "Austin"],
    ["Every pair of Levi's measured"],
  ]);

  test("each word once, in its heaviest tier", () => {
    expect(document.searchWords).toEqual([
      "vintage levis drop",
      "east austin denim co whatnot",
      "",
      "every pair of measured",
    ]);
  });

  test("the index text holds the words, their singular forms and the typo variants of the longer ones", () => {
    const terms = document.searchText.split(" ");
    expect(buildSearchDocument([["Fresh mugs and bud vases"]]).searchText.split(" ")).toEqual(
      expect.arrayContaining(["mugs", "mug", "vases", "vase"]),
    );
    expect(terms).toEqual(expect.arrayContaining(["levis", "whatnot", "evis", "lvis", "whtnot"]));
    expect(terms).not.toContain("dro"); // "drop" is too short for typos
    expect(terms).toEqual(expect.arrayContaining(deletionVariants("measured")));
  });
});

describe("matching and scoring", () => {
  const tiers = ["vintage levis drop", "east austin denim co whatnot", "bushwick brooklyn", "every pair"];

  test("every word must match, exactly, but for a plural, as the last word's prefix or with one typo", () => {
    expect(matchSearch(parseSearchQuery("levis denim")!, tiers)?.typoOnly).toEqual([false, false]);
    expect(matchSearch(parseSearchQuery("denim brook")!, tiers)?.typoOnly).toEqual([false, false]);
    expect(matchSearch(parseSearchQuery("pairs")!, tiers)?.typoOnly).toEqual([false]);
    expect(matchSearch(parseSearchQuery("brooklin")!, tiers)?.typoOnly).toEqual([true]);
    expect(matchSearch(parseSearchQuery("brook denim")!, tiers)).toBeNull();
    expect(matchSearch(parseSearchQuery("levis pokemon")!, tiers)).toBeNull();
  });

  test("a word in the title counts more than one in the description, an exact match more than a typo", () => {
    const score = (q: string) => matchSearch(parseSearchQuery(q)!, tiers)?.score ?? 0;
    expect(score("vintage")).toBeGreaterThan(score("denim"));
    expect(score("denim")).toBeGreaterThan(score("brooklyn"));
    expect(score("brooklyn")).toBeGreaterThan(score("every"));
    expect(score("brooklyn")).toBeGreaterThan(score("brooklin"));
    expect(score("levis")).toBeGreaterThan(score("pair"));
  });

  test("the category tree's words and synonyms rank after an item's own words, a typo after both", () => {
    const kiln = ["kiln opening fresh mugs", "peachtree clay studio", "atlanta", "", "pottery ceramics"];
    const seconds = ["studio seconds sale", "", "", "pottery seconds", ""];
    const score = (q: string, item: string[]) => matchSearch(parseSearchQuery(q)!, item)?.score ?? 0;
    expect(score("pottery", seconds)).toBeGreaterThan(score("pottery", kiln));
    expect(score("pottery", kiln)).toBeGreaterThan(0);
    expect(score("pottery", kiln)).toBeGreaterThan(score("potery", kiln));
  });

  test("a word's typo is kept only where no item matched it otherwise", () => {
    const found = (q: string, ...items: string[][]) =>
      withoutNeedlessTypos(
        items.map((item, index) => ({ index, match: matchSearch(parseSearchQuery(q)!, item)! })),
      ).map(({ index }) => index);
    const bakery = ["sourdough bake sale", "", "", "", "bread cookies"];
    const flies = ["fly tying night", "bead head nymphs", "", "", ""];
    const plants = ["rare aroid cuttings", "", "", "roots first", ""];
    expect(found("bread", flies, bakery)).toEqual([1]);
    expect(found("bread", flies)).toEqual([0]);
    expect(found("boots", plants)).toEqual([0]);
    // Word by word: "sourdough" matched exactly, "bred" by typo only, in both.
    expect(found("sourdough bred", bakery, bakery)).toEqual([0, 1]);
    expect(withoutNeedlessTypos([])).toEqual([]);
  });

  test("a typo search runs only for long words nobody found as typed", () => {
    const query = parseSearchQuery("vintage pokeman denim")!;
    expect(wordsNeedingTypoSearch(query, [tiers], 2)).toEqual(["pokeman"]);
    expect(wordsNeedingTypoSearch(parseSearchQuery("vinta")!, [tiers], 2)).toEqual([]);
    expect(wordsNeedingTypoSearch(parseSearchQuery("brooklin pokeman whatnto")!, [], 2)).toEqual([
      "brooklin",
      "pokeman",
    ]);
  });
});
