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
  searchWords,
  typoSearchText,
  withinOneEdit,
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
    ["the", ["the"]],
    ["denim denim", ["denim"]],
  ])("%s searches %j", (q, words) => {
    expect(parseSearchQuery(q)).toEqual({ words });
  });

  test.each(["", "   ", "!!! & ??"])("%j searches nothing", (q) => {
    expect(parseSearchQuery(q)).toBeNull();
  });

  test(`at most ${MAX_QUERY_WORDS} words, the last one last`, () => {
    const query = parseSearchQuery("one two three four five six seven eight nine ten");
    expect(query?.words).toHaveLength(MAX_QUERY_WORDS);
    expect(exactSearchText(parseSearchQuery("vintage pok")!)).toBe("vintage pok");
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
    ["cards", "card", "typo"],
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

  test("the index text holds the words and the typo variants of the longer ones", () => {
    const terms = document.searchText.split(" ");
    expect(terms).toEqual(expect.arrayContaining(["levis", "whatnot", "evis", "lvis", "whtnot"]));
    expect(terms).not.toContain("dro"); // "drop" is too short for typos
    expect(terms).toEqual(expect.arrayContaining(deletionVariants("measured")));
  });
});

describe("matching and scoring", () => {
  const tiers = ["vintage levis drop", "east austin denim co whatnot", "bushwick brooklyn", "every pair"];

  test("every word must match, exactly, as the last word's prefix or with one typo", () => {
    expect(matchSearch(parseSearchQuery("levis denim")!, tiers)?.matches).toEqual(["exact", "exact"]);
    expect(matchSearch(parseSearchQuery("denim brook")!, tiers)?.matches).toEqual(["exact", "prefix"]);
    expect(matchSearch(parseSearchQuery("brooklin")!, tiers)?.matches).toEqual(["typo"]);
    expect(matchSearch(parseSearchQuery("brook denim")!, tiers)).toBeNull();
    expect(matchSearch(parseSearchQuery("levis pokemon")!, tiers)).toBeNull();
  });

  test("a word in the title counts more than one in the description, an exact match more than a typo", () => {
    const score = (q: string) => matchSearch(parseSearchQuery(q)!, tiers)?.score ?? 0;
    expect(score("vintage")).toBeGreaterThan(score("denim"));
    expect(score("denim")).toBeGreaterThan(score("brooklyn"));
    expect(score("brooklyn")).toBeGreaterThan(score("every"));
    expect(score("brooklyn")).toBeGreaterThan(score("brooklin"));
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
