/**
 * The explore filter: what can be selected, how a selection changes, how it matches a stream or shop,
 * and how it lives in the URL (docs/product.md#explore). Pure: the browser
 * edits the filter with these functions and the backend matches with the same ones. Reference data is
 * passed in, so this module works with the seeded tables as well as the bundled JSON.
 */
import { MAX_SELECTED_MSAS } from "./constants";

/** Categories and subcategories by id, states by postal code, MSAs by CBSA code. */
export type ExploreFilter = {
  categories: string[];
  subcategories: string[];
  states: string[];
  msas: string[];
  /** Free text; matched by the backend's search indexes, not by matchesExploreFilter. */
  q?: string;
};

export type CategoryTree = readonly { id: string; subcategories: readonly { id: string }[] }[];

export type MsaLookup = readonly { cbsaCode: string; states: readonly string[] }[];

/** Known states are those of the MSAs: every state, DC and PR has at least one (data/README.md). */
export type ExploreReferenceData = { categories: CategoryTree; msas: MsaLookup };

/** What a stream or shop is tagged with, in the filter's terms. */
export type ExploreFacets = {
  categories: string[];
  subcategories: string[];
  msas: string[];
  states: string[];
};

export type ExploreFilterChange = { filter: ExploreFilter; error?: string };

export function emptyExploreFilter(): ExploreFilter {
  return { categories: [], subcategories: [], states: [], msas: [] };
}

export function isExploreFilterEmpty(filter: ExploreFilter): boolean {
  return (
    filter.categories.length + filter.subcategories.length + filter.states.length + filter.msas.length ===
      0 && (filter.q ?? "").trim() === ""
  );
}

function withValue(values: readonly string[], value: string): string[] {
  return values.includes(value) ? [...values] : [...values, value];
}

function withValues(values: readonly string[], added: readonly string[]): string[] {
  return added.reduce<string[]>((result, value) => withValue(result, value), [...values]);
}

function withoutValues(values: readonly string[], removed: readonly string[]): string[] {
  return values.filter((value) => !removed.includes(value));
}

function overlaps(a: readonly string[], b: readonly string[]): boolean {
  return a.some((value) => b.includes(value));
}

// ---------------------------------------------------------------------------------------------------
// Categories

function subcategoryIdsOf(categoryId: string, tree: CategoryTree): string[] {
  return tree.find((category) => category.id === categoryId)?.subcategories.map((sub) => sub.id) ?? [];
}

function parentOf(subcategoryId: string, tree: CategoryTree): CategoryTree[number] | undefined {
  return tree.find((category) => category.subcategories.some((sub) => sub.id === subcategoryId));
}

/** "Adding a category also selects all its subcategories." */
export function addCategory(filter: ExploreFilter, categoryId: string, tree: CategoryTree): ExploreFilter {
  if (!tree.some((category) => category.id === categoryId)) return filter;
  return {
    ...filter,
    categories: withValue(filter.categories, categoryId),
    subcategories: withValues(filter.subcategories, subcategoryIdsOf(categoryId, tree)),
  };
}

/** "Removing a category removes its subcategories." */
export function removeCategory(filter: ExploreFilter, categoryId: string, tree: CategoryTree): ExploreFilter {
  return {
    ...filter,
    categories: withoutValues(filter.categories, [categoryId]),
    subcategories: withoutValues(filter.subcategories, subcategoryIdsOf(categoryId, tree)),
  };
}

/**
 * The specification only says what a category does. Subcategories keep its invariant both ways: a
 * category is selected exactly while all its subcategories are. So selecting one subcategory narrows to
 * it; deselecting one of a selected category deselects the category but keeps its siblings; selecting
 * the last missing sibling selects the category too (the UI's parent checkbox is then simply "all").
 */
export function toggleSubcategory(
  filter: ExploreFilter,
  subcategoryId: string,
  tree: CategoryTree,
): ExploreFilter {
  const parent = parentOf(subcategoryId, tree);
  if (!parent) return filter;
  if (filter.subcategories.includes(subcategoryId)) {
    return {
      ...filter,
      categories: withoutValues(filter.categories, [parent.id]),
      subcategories: withoutValues(filter.subcategories, [subcategoryId]),
    };
  }
  const subcategories = withValue(filter.subcategories, subcategoryId);
  const allSiblingsSelected = parent.subcategories.every((sub) => subcategories.includes(sub.id));
  return {
    ...filter,
    categories: allSiblingsSelected ? withValue(filter.categories, parent.id) : filter.categories,
    subcategories,
  };
}

/** For a tri-state checkbox beside a category. */
export function categorySelection(
  filter: ExploreFilter,
  categoryId: string,
  tree: CategoryTree,
): "all" | "some" | "none" {
  if (filter.categories.includes(categoryId)) return "all";
  return overlaps(filter.subcategories, subcategoryIdsOf(categoryId, tree)) ? "some" : "none";
}

// ---------------------------------------------------------------------------------------------------
// Places

function msaStates(cbsaCode: string, msas: MsaLookup): readonly string[] {
  return msas.find((msa) => msa.cbsaCode === cbsaCode)?.states ?? [];
}

/**
 * "Adding or removing a state drops any selected MSA that no longer belongs to a selected state."
 * Read literally: with no state left selected, every MSA is dropped; and adding a first state drops MSAs
 * chosen without one (say from the home page's "pick your metro area") that lie outside it.
 */
function dropMsasOutsideStates(filter: ExploreFilter, msas: MsaLookup): ExploreFilter {
  return {
    ...filter,
    msas: filter.msas.filter((cbsaCode) => overlaps(msaStates(cbsaCode, msas), filter.states)),
  };
}

export function addState(filter: ExploreFilter, state: string, msas: MsaLookup): ExploreFilter {
  const code = state.trim().toUpperCase();
  if (!msas.some((msa) => msa.states.includes(code))) return filter;
  return dropMsasOutsideStates({ ...filter, states: withValue(filter.states, code) }, msas);
}

export function removeState(filter: ExploreFilter, state: string, msas: MsaLookup): ExploreFilter {
  const code = state.trim().toUpperCase();
  return dropMsasOutsideStates({ ...filter, states: withoutValues(filter.states, [code]) }, msas);
}

export const TOO_MANY_MSAS_MESSAGE = `You can select up to ${MAX_SELECTED_MSAS} metro areas.`;

/**
 * "At most 6 MSAs can be selected." Adding an MSA does not add its state: within the place pair the
 * selections are ORed, so an MSA outside the selected states still widens the results as asked.
 */
export function addMsa(filter: ExploreFilter, cbsaCode: string, msas: MsaLookup): ExploreFilterChange {
  if (filter.msas.includes(cbsaCode) || !msas.some((msa) => msa.cbsaCode === cbsaCode)) return { filter };
  if (filter.msas.length >= MAX_SELECTED_MSAS) return { filter, error: TOO_MANY_MSAS_MESSAGE };
  return { filter: { ...filter, msas: [...filter.msas, cbsaCode] } };
}

export function removeMsa(filter: ExploreFilter, cbsaCode: string): ExploreFilter {
  return { ...filter, msas: withoutValues(filter.msas, [cbsaCode]) };
}

/** Clears every selection but keeps the search text, which has its own box and its own clear button. */
export function clearFilter(filter: ExploreFilter): ExploreFilter {
  return filter.q === undefined ? emptyExploreFilter() : { ...emptyExploreFilter(), q: filter.q };
}

// ---------------------------------------------------------------------------------------------------
// Matching

/**
 * "OR within the category/subcategory pair and within the state/MSA pair; AND between the two pairs.
 * An empty selection means no restriction. A stream with no category string matches only when no
 * category is selected." The last sentence needs no code of its own: an untagged item overlaps nothing,
 * so it passes a pair only when that pair is empty; the same holds for an item with no place.
 */
export function matchesExploreFilter(facets: ExploreFacets, filter: ExploreFilter): boolean {
  const categoryPairEmpty = filter.categories.length === 0 && filter.subcategories.length === 0;
  const matchesCategory =
    categoryPairEmpty ||
    overlaps(facets.categories, filter.categories) ||
    overlaps(facets.subcategories, filter.subcategories);
  const placePairEmpty = filter.states.length === 0 && filter.msas.length === 0;
  const matchesPlace =
    placePairEmpty || overlaps(facets.states, filter.states) || overlaps(facets.msas, filter.msas);
  return matchesCategory && matchesPlace;
}

/** Facets from a stream's or shop's link rows; its states are those of its MSAs. */
export function facetsFromLinks(
  categoryLinks: readonly { categoryId: string; subcategoryId?: string }[],
  msaRows: readonly { cbsaCode: string; states: readonly string[] }[],
): ExploreFacets {
  return {
    categories: withValues(
      [],
      categoryLinks.map((link) => link.categoryId),
    ),
    subcategories: withValues(
      [],
      categoryLinks.flatMap((link) => (link.subcategoryId === undefined ? [] : [link.subcategoryId])),
    ),
    msas: withValues(
      [],
      msaRows.map((msa) => msa.cbsaCode),
    ),
    states: withValues(
      [],
      msaRows.flatMap((msa) => msa.states),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------
// URL

/**
 * One query parameter per selected value, repeated (`?category=home_goods&category=toys_kids&msa=35620`):
 * URLSearchParams writes it without escaping and reads it with getAll. Reading also accepts comma lists,
 * for hand-written links; no id contains a comma. Values are written sorted so that one selection always
 * gives one URL.
 */
export const EXPLORE_PARAMS = {
  categories: "category",
  subcategories: "subcategory",
  states: "state",
  msas: "msa",
  q: "q",
} as const;

/** Longer search text is cut: it goes into a search index; no title is longer (docs/product.md#limits). */
export const MAX_EXPLORE_QUERY_LENGTH = 200;

const sorted = (values: readonly string[]) => [...values].sort();

export function exploreFilterToSearchParams(filter: ExploreFilter): URLSearchParams {
  const params = new URLSearchParams();
  const lists: [string, readonly string[]][] = [
    [EXPLORE_PARAMS.categories, filter.categories],
    [EXPLORE_PARAMS.subcategories, filter.subcategories],
    [EXPLORE_PARAMS.states, filter.states],
    [EXPLORE_PARAMS.msas, filter.msas],
  ];
  for (const [name, values] of lists) {
    for (const value of sorted(withValues([], values))) params.append(name, value);
  }
  const q = filter.q?.trim();
  if (q) params.set(EXPLORE_PARAMS.q, q);
  return params;
}

function readList(params: URLSearchParams, name: string): string[] {
  const values = params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return withValues([], values);
}

/**
 * The filter a URL describes, made valid: unknown ids dropped, duplicates removed, the category
 * invariant restored (a category brings all its subcategories; all of a category's subcategories bring
 * the category), and only the first MAX_SELECTED_MSAS MSAs kept. MSAs outside the selected states are
 * kept: a link may carry MSAs alone, and only adding or removing a state drops them. Lists come back
 * sorted.
 */
export function parseExploreFilter(
  params: URLSearchParams | string,
  reference: ExploreReferenceData,
): ExploreFilter {
  const search = typeof params === "string" ? new URLSearchParams(params) : params;
  const knownStates = new Set(reference.msas.flatMap((msa) => msa.states));
  // Re-selecting through the selection functions keeps one definition of the category invariant.
  let selection = emptyExploreFilter();
  for (const categoryId of readList(search, EXPLORE_PARAMS.categories)) {
    selection = addCategory(selection, categoryId, reference.categories);
  }
  for (const subcategoryId of readList(search, EXPLORE_PARAMS.subcategories)) {
    if (!selection.subcategories.includes(subcategoryId)) {
      selection = toggleSubcategory(selection, subcategoryId, reference.categories);
    }
  }
  const states = withValues(
    [],
    readList(search, EXPLORE_PARAMS.states).map((state) => state.toUpperCase()),
  ).filter((state) => knownStates.has(state));
  const msas = readList(search, EXPLORE_PARAMS.msas)
    .filter((cbsaCode) => reference.msas.some((msa) => msa.cbsaCode === cbsaCode))
    .slice(0, MAX_SELECTED_MSAS);
  const q = (search.get(EXPLORE_PARAMS.q) ?? "").trim().slice(0, MAX_EXPLORE_QUERY_LENGTH);
  // Sorted like the written URL, so parsing a URL and writing it back gives the same URL.
  return {
    categories: sorted(selection.categories),
    subcategories: sorted(selection.subcategories),
    states: sorted(states),
    msas: sorted(msas),
    ...(q === "" ? {} : { q }),
  };
}
