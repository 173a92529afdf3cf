/**
 * Explore's search text (decision 030): how a stream's or shop's words are normalized and stored in
 * one search index field, how a buyer's query becomes search expressions, and when a found item
 * really matches and how well. Pure, so the backend and the tests share one definition.
 *
 * Convex search matches whole terms (the last term of a query also as a prefix), splits on
 * punctuation and has no fuzzy matching. So both sides are normalized here to plain words (lower case,
 * accents folded, apostrophes dropped), and a typo of one letter is found through deletion variants:
 * two words one edit apart share a word with one letter deleted (or one is the other with a letter
 * deleted). The stored text carries its longer words' variants; a query word sends its own in a second,
 * bounded search. Whatever the index returns is checked again by `matchSearch`, which is the rule.
 *
 * Decision 062 orders what counts: a word as written or its singular (both sides store and send the
 * singular forms of plurals) before the words of the item's categories in the category tree and their
 * synonyms (the last, lightest tier), and a typo only where no item found the word any other way.
 */

/** Words at least this long (the word typed or the word meant) tolerate a typo of one letter. */
export const TYPO_MIN_LENGTH = 5;
/** Convex keeps terms of at most 32 characters; both sides cut words there, so they still meet. */
const MAX_TERM_LENGTH = 32;
/** Convex accepts at most 16 terms in one search expression. */
export const MAX_SEARCH_TERMS = 16;
/** Query words beyond these are ignored (a query is a few words, not a paragraph). */
export const MAX_QUERY_WORDS = 8;
/** Distinct words kept per item, tiers in order; then words whose typos are indexed. */
const MAX_ITEM_WORDS = 600;
const MAX_TYPO_TOLERANT_WORDS = 160;

/** Letters NFKD leaves alone that a buyer types as plain Latin letters. */
const LETTER_FOLDS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/** Lower case, accents and ligatures folded: "Pokémon" → "pokemon", "Straße" → "strasse". */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ßæœøłđðþı]/g, (letter) => LETTER_FOLDS[letter] ?? letter);
}

/** Punctuation that joins the parts of one word ("K-beauty", "S&P", "1.5"); anything else separates. */
const JOINERS = /[-./&+_]/;
const NOT_WORD = /[^a-z0-9\-./&+_]+/;
const JOINER_RUN = /[-./&+_]{2,}/;
const APOSTROPHES = /['’ʼ`´]/g;

/**
 * Runs of letters and digits joined by single joiners, apostrophes dropped first ("Levi's" is one run,
 * "levis"). Each run is [its parts..., the parts written together] when it has more than one part.
 */
function wordRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const chunk of foldText(text).replace(APOSTROPHES, "").split(NOT_WORD)) {
    for (const run of chunk.split(JOINER_RUN)) {
      const parts = run.split(JOINERS).filter((part) => part !== "");
      if (parts.length > 0) runs.push(parts.map((part) => part.slice(0, MAX_TERM_LENGTH)));
    }
  }
  return runs;
}

/**
 * The words a text is found by: folded, split on punctuation and spaces; a word written with inner
 * punctuation also as one ("K-beauty" → "k", "beauty", "kbeauty"), so both ways of typing it match.
 */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const parts of wordRuns(text)) {
    words.push(...parts);
    if (parts.length > 1) words.push(parts.join("").slice(0, MAX_TERM_LENGTH));
  }
  return words;
}

/** Words this long or longer have their plural endings read as plurals ("mugs" → "mug"). */
const PLURAL_MIN_LENGTH = 4;

/**
 * The singular forms a plural may have, a light stemmer in the manner of Harman's S stemmer (1991):
 * "-ies" → "-y", "-es" after s, x, z, ch or sh → dropped, "-s" (not "-ss", "-us", "-is") → dropped.
 * Both spellings an "-es" word may stand for are given ("vases" → "vas", "vase"; "boxes" → "box",
 * "boxe"), so a singular typed either way meets it. Empty for a word that reads as no plural.
 */
export function singularForms(word: string): string[] {
  if (word.length < PLURAL_MIN_LENGTH || !word.endsWith("s") || /\d/.test(word)) return [];
  const forms: string[] = [];
  if (/[^aei]ies$/.test(word)) forms.push(`${word.slice(0, -3)}y`);
  if (/(?:s|x|z|ch|sh)es$/.test(word)) forms.push(word.slice(0, -2));
  if (!/(?:ss|us|is)$/.test(word)) forms.push(word.slice(0, -1));
  return forms;
}

/** Whether two words are the same word but for a plural ending ("mug"/"mugs", "puppy"/"puppies"). */
export function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  return (
    singularForms(a).includes(b) ||
    singularForms(b).includes(a) ||
    singularForms(a).some((form) => singularForms(b).includes(form))
  );
}

/**
 * Every spelling of `word` with one letter left out, once each ("levis" → "evis", "lvis", …); with
 * `positions`, only letters among the first that many are left out.
 */
export function deletionVariants(word: string, positions = word.length): string[] {
  const variants = new Set<string>();
  for (let index = 0; index < Math.min(positions, word.length); index++) {
    variants.add(word.slice(0, index) + word.slice(index + 1));
  }
  variants.delete(word);
  return [...variants];
}

/**
 * Whether two words are at most one edit apart: a letter added, left out, changed, or two neighbours
 * swapped (optimal string alignment distance ≤ 1).
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length - short.length > 1) return false;
  let start = 0;
  while (start < short.length && short[start] === long[start]) start++;
  if (short.length === long.length) {
    // One letter changed, or two neighbours swapped; everything after must agree.
    if (short.slice(start + 1) === long.slice(start + 1)) return true;
    return (
      short[start] === long[start + 1] &&
      short[start + 1] === long[start] &&
      short.slice(start + 2) === long.slice(start + 2)
    );
  }
  return short.slice(start) === long.slice(start + 1);
}

// ---------------------------------------------------------------------------------------------------
// What an item stores

/**
 * An item's texts by weight, heaviest first (a stream: its title; its shop, products, categories and
 * platforms; its place and shop headline; its description; the words its categories are known by).
 * At most five tiers.
 */
export type SearchTiers = readonly (readonly (string | undefined)[])[];

/**
 * How much a match in each tier counts, heaviest first. The fifth holds what the category tree says of
 * an item's subcategories and their synonyms, not the item's own words: it finds an item nothing else
 * finds, and ranks after every item that says the word itself.
 */
export const TIER_WEIGHTS = [4, 3, 2, 1, 0.5] as const;

/**
 * `searchText`: the index's field, every word once and the typo variants of the longer ones.
 * `searchWords`: the words of each tier (space-separated), for `matchSearch`; a word is kept in its
 * heaviest tier only.
 */
export type SearchDocument = { searchText: string; searchWords: string[] };

export function buildSearchDocument(tiers: SearchTiers): SearchDocument {
  const seen = new Set<string>();
  const searchWordTiers: string[] = [];
  for (const texts of tiers.slice(0, TIER_WEIGHTS.length)) {
    const tierWords: string[] = [];
    for (const text of texts) {
      if (!text) continue;
      for (const word of searchWords(text)) {
        if (seen.has(word) || seen.size >= MAX_ITEM_WORDS) continue;
        seen.add(word);
        tierWords.push(word);
      }
    }
    searchWordTiers.push(tierWords.join(" "));
  }
  const words = [...seen];
  const variants = new Set<string>();
  for (const word of words) {
    for (const form of singularForms(word)) if (!seen.has(form)) variants.add(form);
  }
  for (const word of words
    .filter((candidate) => candidate.length >= TYPO_MIN_LENGTH)
    .slice(0, MAX_TYPO_TOLERANT_WORDS)) {
    for (const variant of deletionVariants(word)) if (!seen.has(variant)) variants.add(variant);
  }
  return { searchText: [...words, ...variants].join(" "), searchWords: searchWordTiers };
}

// ---------------------------------------------------------------------------------------------------
// What a buyer asks

/** Words that narrow nothing, dropped from a query that has other words. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "at",
  "by",
  "for",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
]);

/**
 * A query as searched: its words in the order typed (the last one may be unfinished), each once. A
 * word typed with inner punctuation counts as one word written together ("k-beauty" → "kbeauty"),
 * which items store beside its parts. Null when nothing is left to search for: no letters or digits,
 * or stop words only (`a%_\*(` is "a", which every description holds; it narrows nothing).
 */
export type SearchQuery = { words: string[] };

export function parseSearchQuery(q: string): SearchQuery | null {
  const typed = wordRuns(q).map((parts) => parts.join("").slice(0, MAX_TERM_LENGTH));
  const words = [...new Set(typed.filter((word) => !STOP_WORDS.has(word)))].slice(0, MAX_QUERY_WORDS);
  return words.length > 0 ? { words } : null;
}

/**
 * The first search expression: the words themselves and their singular forms, within Convex's 16
 * terms, the last word last (Convex matches it as a prefix).
 */
export function exactSearchText(query: SearchQuery): string {
  const words = new Set(query.words);
  const room = MAX_SEARCH_TERMS - query.words.length;
  const singulars = [...new Set(query.words.flatMap(singularForms))].filter((form) => !words.has(form));
  return [...singulars.slice(0, room), ...query.words].join(" ");
}

/**
 * The second search for one query word: the word and its deletion variants, within the 16 terms of a
 * search expression (a word longer than 15 letters gets the variants of its first 15 positions).
 * Null for a word too short to tolerate typos.
 */
export function typoSearchText(word: string): string | null {
  if (word.length < TYPO_MIN_LENGTH) return null;
  return [word, ...deletionVariants(word, MAX_SEARCH_TERMS - 1)].join(" ");
}

// ---------------------------------------------------------------------------------------------------
// Whether an item matches, and how well

export type WordMatch = "exact" | "stem" | "prefix" | "typo";

/** How much each kind of match counts. */
const MATCH_WEIGHTS: Record<WordMatch, number> = { exact: 3, stem: 2.5, prefix: 2, typo: 1 };

/**
 * How a query word matches one stored word: the same word; the same but for a plural ending; a prefix
 * of it when it is the query's last word (still being typed); one edit away when either word has at
 * least TYPO_MIN_LENGTH letters.
 */
export function matchWord(queryWord: string, storedWord: string, isLast: boolean): WordMatch | null {
  if (queryWord === storedWord) return "exact";
  if (sameStem(queryWord, storedWord)) return "stem";
  if (isLast && storedWord.startsWith(queryWord)) return "prefix";
  const long = Math.max(queryWord.length, storedWord.length) >= TYPO_MIN_LENGTH;
  return long && withinOneEdit(queryWord, storedWord) ? "typo" : null;
}

export type SearchMatch = {
  /** Higher is more relevant: each query word's best match, weighted by kind and tier. */
  score: number;
  /** Per query word, whether it matched only with a typo. */
  typoOnly: boolean[];
};

/**
 * Whether an item matches the query, and how well: every query word must match one of its words
 * (exactly, but for a plural ending, as the unfinished last word's prefix, or with one typo). Null
 * when one does not. A word that matches without a typo anywhere in the item scores by those matches
 * only: its typo of another word says nothing more.
 */
export function matchSearch(query: SearchQuery, searchWordTiers: readonly string[]): SearchMatch | null {
  const tiers = searchWordTiers.map((tier) => (tier === "" ? [] : tier.split(" ")));
  let score = 0;
  const typoOnly: boolean[] = [];
  for (const [index, queryWord] of query.words.entries()) {
    const isLast = index === query.words.length - 1;
    let best = 0;
    let bestTypo = 0;
    for (const [tier, words] of tiers.entries()) {
      const weight = TIER_WEIGHTS[tier] ?? TIER_WEIGHTS[TIER_WEIGHTS.length - 1];
      for (const word of words) {
        const kind = matchWord(queryWord, word, isLast);
        if (kind === "typo") bestTypo = Math.max(bestTypo, weight * MATCH_WEIGHTS.typo);
        else if (kind) best = Math.max(best, weight * MATCH_WEIGHTS[kind]);
      }
    }
    if (best === 0 && bestTypo === 0) return null;
    score += best > 0 ? best : bestTypo;
    typoOnly.push(best === 0);
  }
  return { score, typoOnly };
}

/**
 * Typo tolerance only where nothing matched exactly: for each query word some found item matches
 * without a typo, the items that match it only with one are dropped ("bread" finds the bakery, not
 * the fly shop's "bead"). `found` is what the buyer would be shown, the filter applied.
 */
export function withoutNeedlessTypos<Found extends { match: SearchMatch }>(found: readonly Found[]): Found[] {
  const words = found[0]?.match.typoOnly.length ?? 0;
  const exactSomewhere = Array.from({ length: words }, (_, index) =>
    found.some(({ match }) => !match.typoOnly[index]),
  );
  return found.filter(({ match }) => match.typoOnly.every((typo, index) => !typo || !exactSomewhere[index]));
}

/**
 * The query words worth a typo search: long enough, and not found without a typo (exactly, but for a
 * plural ending, or as the last word's prefix) in any item the first search returned. At most
 * `limit`, in the order typed.
 */
export function wordsNeedingTypoSearch(
  query: SearchQuery,
  found: readonly (readonly string[])[],
  limit: number,
): string[] {
  const storedWords = [...new Set(found.flatMap((tiers) => tiers.flatMap((tier) => tier.split(" "))))];
  return query.words
    .filter((word, index) => {
      if (word.length < TYPO_MIN_LENGTH) return false;
      const isLast = index === query.words.length - 1;
      return !storedWords.some((stored) => {
        const kind = matchWord(word, stored, isLast);
        return kind !== null && kind !== "typo";
      });
    })
    .slice(0, limit);
}
