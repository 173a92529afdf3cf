/**
 * Explore's read budget (issue 5, decision 012): documents read per explore page, first page and a
 * later one, for several filters, on the demo data and again with 10,000 generated streams loaded.
 * Budget: at most 3 × the page size plus one per index range the filter reads; with 10,000 streams,
 * at most 1.2 × the demo figure. Part of `npm run bench` (scripts/bench/scale.ts measures on its
 * backend: `exploreDemoCases` on the demo data, `exploreAtScale` once the streams are in).
 *
 * The demo data has 18 public streams, too few to fill a page of the app's size for most filters, and a
 * page that is not full reads less. So each filter is measured with pages small enough to be full on the
 * demo data too (half of its matches, less one), and the same page size after the 10,000 streams are
 * in; a page of 24 is also measured with them, against the absolute budget.
 *
 * Merging k index ranges reads up to k − 1 look-ahead rows besides the page's own (one per range that
 * holds rows), a cost the first budget names ("the filter's index rows") and that does not grow with
 * the data. A filter with so few demo matches that its full demo page is smaller than its range count
 * ("2 categories + 2 states": 3 matches, 4 ranges, two of them empty in the demo) would measure those
 * rows filling up, not growth: its figures are printed and held to the absolute budget, and the 1.2 ×
 * check applies to every filter whose demo page holds at least as many results as it has ranges
 * (decision 017).
 *
 * With the streams in, also: the views of decision 031 (live now, the next 7 days, replays, the newest
 * first) held to the same absolute budget, the counts (at most 100 results read), and search (decision
 * 030): documents read per search on the demo data and with the streams in, held to its bound (per
 * status group and pass at most SEARCH_CANDIDATES rows).
 */
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { emptyExploreFilter, type ExploreFilter } from "../../convex/lib/explore";
import {
  EXPLORE_REFERENCE,
  normalizeExploreFilter,
  planExploreRanges,
} from "../../convex/lib/exploreListing";
import { calendarDay, type ExploreView } from "../../convex/lib/exploreWhen";
import { EXPLORE_COUNT_LIMIT } from "../../convex/model/explorePages";
import { MAX_SEARCH_RESULTS, MAX_TYPO_SEARCHES, SEARCH_CANDIDATES } from "../../convex/model/exploreSearch";
import type { BackendProcess } from "./backend-process";
import { recordFigure } from "./stats";

const APP_PAGE_SIZE = 24;
const SCALE_BUDGET = 1.2;
const GROUP = "Earlier budgets (issues 5, 8: documents read)";

const FILTERS: { name: string; filter: Partial<ExploreFilter> }[] = [
  { name: "no filter", filter: {} },
  { name: "one category", filter: { categories: ["collectibles"] } },
  { name: "category + metro area", filter: { categories: ["collectibles"], msas: ["16980"] } },
  { name: "a state", filter: { states: ["IL"] } },
  { name: "3 categories", filter: { categories: ["home_goods", "collectibles", "food_beverage"] } },
  {
    name: "2 categories + 2 states",
    filter: { categories: ["home_goods", "diy_crafts"], states: ["GA", "WA"] },
  },
];

type Page = { page: unknown[]; isDone: boolean; continueCursor: string };
type Reads = { first: number; later: number; full: boolean };

/** One filter measured on the demo data. */
export type ExploreCase = {
  name: string;
  filter: ExploreFilter;
  ranges: number;
  matches: number;
  pageSize: number;
  demo: Reads;
};

async function query(
  backend: BackendProcess,
  filter: ExploreFilter,
  numItems: number,
  cursor: string | null,
  view?: ExploreView,
) {
  return await new ConvexHttpClient(backend.url).query(api.explore.listExploreStreams, {
    filter,
    view,
    paginationOpts: { numItems, cursor },
  });
}

/** Documents one call of `name` read, from the backend's per-function stats, and its answer. */
export async function readsOf<T>(
  backend: BackendProcess,
  name: string,
  call: () => Promise<T>,
): Promise<{ result: T; docsRead: number }> {
  const docsRead = async () => (await backend.stats())[name]?.docsRead ?? 0;
  const before = await docsRead();
  const result = await call();
  return { result, docsRead: (await docsRead()) - before };
}

/** Documents read by one call of listExploreStreams. */
async function readsOfPage(
  backend: BackendProcess,
  filter: ExploreFilter,
  numItems: number,
  cursor: string | null,
  view?: ExploreView,
): Promise<{ page: Page; docsRead: number }> {
  const { result, docsRead } = await readsOf(backend, "explore:listExploreStreams", () =>
    query(backend, filter, numItems, cursor, view),
  );
  return { page: result, docsRead };
}

/** Reads of the first and the second page. */
async function readsOfTwoPages(
  backend: BackendProcess,
  filter: ExploreFilter,
  numItems: number,
  view?: ExploreView,
): Promise<Reads> {
  const first = await readsOfPage(backend, filter, numItems, null, view);
  const second = first.page.isDone
    ? { docsRead: 0, page: { page: [] } }
    : await readsOfPage(backend, filter, numItems, first.page.continueCursor, view);
  return {
    first: first.docsRead,
    later: second.docsRead,
    full: first.page.page.length === numItems && second.page.page.length === numItems,
  };
}

async function countMatches(backend: BackendProcess, filter: ExploreFilter): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  for (;;) {
    const result: Page = await query(backend, filter, 100, cursor);
    count += result.page.length;
    if (result.isDone) return count;
    cursor = result.continueCursor;
  }
}

/** What is measured on the demo data: each filter's pages, and each search's reads. */
export type ExploreDemo = { cases: ExploreCase[]; searches: SearchFigure[] };

/** Every filter's reads on the demo data, with page sizes the demo data fills; every search's. */
export async function exploreDemoCases(backend: BackendProcess): Promise<ExploreDemo> {
  const cases: ExploreCase[] = [];
  for (const { name, filter: selection } of FILTERS) {
    const filter = { ...emptyExploreFilter(), ...selection };
    const normalized = normalizeExploreFilter(filter, EXPLORE_REFERENCE);
    const ranges = planExploreRanges(normalized, EXPLORE_REFERENCE).ranges.length;
    const matches = await countMatches(backend, filter);
    const pageSize = Math.max(1, Math.floor((matches - 1) / 2));
    cases.push({
      name,
      filter,
      ranges,
      matches,
      pageSize,
      demo: await readsOfTwoPages(backend, filter, pageSize),
    });
  }
  return { cases, searches: await searchReads(backend) };
}

/** The same filters once `generated` streams are in, against the demo figures and the absolute budget. */
export async function exploreAtScale(
  backend: BackendProcess,
  demo: ExploreDemo,
  generated: number,
): Promise<void> {
  const { cases } = demo;
  console.log(
    `Explore, documents read per page (listExploreStreams), demo data → with ${generated} more streams ("first/later" page reads):`,
  );
  let absoluteOk = true;
  const overScale: string[] = [];
  const compared: string[] = [];
  for (const item of cases) {
    const big = await readsOfTwoPages(backend, item.filter, item.pageSize);
    const app = await readsOfTwoPages(backend, item.filter, APP_PAGE_SIZE);
    const absolute = (size: number) => 3 * size + item.ranges;
    if (item.demo.first === 0)
      throw new Error(`No reads were counted for "${item.name}": the stats hook is not attached.`);
    const ratio = Math.max(big.first / item.demo.first, big.later / Math.max(1, item.demo.later));
    absoluteOk &&=
      Math.max(item.demo.first, item.demo.later, big.first, big.later) <= absolute(item.pageSize) &&
      Math.max(app.first, app.later) <= absolute(APP_PAGE_SIZE);
    const comparable = item.pageSize >= item.ranges;
    if (comparable) compared.push(item.name);
    if (comparable && ratio > SCALE_BUDGET) overScale.push(item.name);
    console.log(
      `  ${item.name.padEnd(26)} ${String(item.ranges).padStart(2)} range(s), page of ${item.pageSize}` +
        ` (${item.matches} demo matches${item.demo.full ? "" : ", demo page not full"}):` +
        ` demo ${item.demo.first}/${item.demo.later} → ${big.first}/${big.later} (×${ratio.toFixed(2)}` +
        `${comparable ? "" : `, not compared: a page of ${item.pageSize} < ${item.ranges} ranges`});` +
        ` page of ${APP_PAGE_SIZE}: ${app.first}/${app.later}, budget ${absolute(APP_PAGE_SIZE)}`,
    );
  }
  const absoluteVerdict = recordFigure({
    group: GROUP,
    figure: `explore pages, documents read, ${cases.length} filters, demo and +${generated} streams`,
    measured: absoluteOk ? "every page within" : "some page over",
    budget: "≤ 3 × page size + ranges",
    ok: absoluteOk,
  });
  const scaleVerdict = recordFigure({
    group: GROUP,
    figure: `explore pages, documents read +${generated} streams vs demo (${compared.length} filters)`,
    measured: overScale.length === 0 ? "every filter within" : `over: ${overScale.join(", ")}`,
    budget: `≤ ${SCALE_BUDGET} × demo`,
    ok: overScale.length === 0,
  });
  console.log(`  budget ≤ 3 × page size + ranges, every page: ${absoluteVerdict}`);
  console.log(
    `  budget ≤ ${SCALE_BUDGET} × demo, same page size (${compared.length} of ${cases.length} filters` +
      ` whose demo page holds at least one result per range): ${scaleVerdict}` +
      (overScale.length === 0 ? "" : ` (${overScale.join(", ")})`),
  );
  console.log();
  await viewsAtScale(backend, generated);
  await searchAtScale(backend, demo.searches, generated);
}

// ---------------------------------------------------------------------------------------------------
// Views and counts (decision 031)

const VIEW_FILTERS: { name: string; filter: Partial<ExploreFilter> }[] = [
  { name: "no filter", filter: {} },
  { name: "one category", filter: { categories: ["collectibles"] } },
  { name: "category + metro area", filter: { categories: ["collectibles"], msas: ["16980"] } },
];

function benchViews(): { name: string; view: ExploreView; parts: number }[] {
  const timeZone = "America/Chicago";
  const day = calendarDay(Date.now(), timeZone);
  return [
    { name: "live now", view: { when: "live" }, parts: 1 },
    { name: "next 7 days", view: { when: "week", day, timeZone }, parts: 2 },
    { name: "replays", view: { when: "replays" }, parts: 1 },
    { name: "newest first", view: { when: "upcoming", sort: "newest" }, parts: 1 },
  ];
}

/** Each view's pages at the app's page size, and each count, with the generated streams in. */
async function viewsAtScale(backend: BackendProcess, generated: number): Promise<void> {
  console.log(
    `Explore views and counts with ${generated} more streams, documents read (page of ${APP_PAGE_SIZE}):`,
  );
  let pagesOk = true;
  let countsOk = true;
  for (const { name: filterName, filter: selection } of VIEW_FILTERS) {
    const filter = { ...emptyExploreFilter(), ...selection };
    const ranges = planExploreRanges(normalizeExploreFilter(filter, EXPLORE_REFERENCE), EXPLORE_REFERENCE)
      .ranges.length;
    const row: string[] = [];
    for (const { name, view, parts } of benchViews()) {
      const pages = await readsOfTwoPages(backend, filter, APP_PAGE_SIZE, view);
      const budget = 3 * APP_PAGE_SIZE + ranges * parts;
      pagesOk &&= Math.max(pages.first, pages.later) <= budget;
      row.push(`${name} ${pages.first}/${pages.later} (≤ ${budget})`);
    }
    const { result, docsRead } = await readsOf(backend, "explore:countExploreStreams", () =>
      new ConvexHttpClient(backend.url).query(api.explore.countExploreStreams, { filter }),
    );
    const countBudget = EXPLORE_COUNT_LIMIT + 1 + ranges;
    countsOk &&= docsRead <= countBudget;
    row.push(`count ${result.count}${result.more ? "+" : ""}: ${docsRead} (≤ ${countBudget})`);
    console.log(`  ${filterName.padEnd(22)} ${row.join("; ")}`);
  }
  const pagesVerdict = recordFigure({
    group: GROUP,
    figure: `explore views (live, 7 days, replays, newest), documents read, +${generated} streams`,
    measured: pagesOk ? "every page within" : "some page over",
    budget: "≤ 3 × page size + ranges × parts",
    ok: pagesOk,
  });
  const countsVerdict = recordFigure({
    group: GROUP,
    figure: `explore counts, documents read, +${generated} streams`,
    measured: countsOk ? "every count within" : "some count over",
    budget: `≤ ${EXPLORE_COUNT_LIMIT} + 1 + ranges`,
    ok: countsOk,
  });
  console.log(`  budget ≤ 3 × page size + ranges × parts, every page: ${pagesVerdict}`);
  console.log(`  counts read at most ${EXPLORE_COUNT_LIMIT} results plus look-aheads: ${countsVerdict}`);
  console.log();
}

// ---------------------------------------------------------------------------------------------------
// Search (decision 030)

const SEARCHES: { name: string; q: string }[] = [
  { name: "a word", q: "denim" },
  { name: "a typo", q: "pokeman" },
  { name: "two words, one a typo", q: "vintage brooklin" },
  { name: "a broad word", q: "night" },
  { name: "one letter, typing", q: "s" },
];

/**
 * Per status group (live, paused, upcoming) and pass (as typed, two typo words) at most this many rows,
 * then the stream of each result, for its card (decision 046).
 */
const SEARCH_BOUND = 3 * (1 + MAX_TYPO_SEARCHES) * SEARCH_CANDIDATES + MAX_SEARCH_RESULTS;

export type SearchFigure = { streams: number; shops: number; found: number; more: boolean };

async function searchReads(backend: BackendProcess): Promise<SearchFigure[]> {
  const figures: SearchFigure[] = [];
  for (const { q } of SEARCHES) {
    const filter = { ...emptyExploreFilter(), q };
    const client = () => new ConvexHttpClient(backend.url);
    const streams = await readsOf(backend, "explore:searchExploreStreams", () =>
      client().query(api.explore.searchExploreStreams, { filter }),
    );
    const shops = await readsOf(backend, "explore:searchExploreShops", () =>
      client().query(api.explore.searchExploreShops, { filter }),
    );
    figures.push({
      streams: streams.docsRead,
      shops: shops.docsRead,
      found: streams.result.count,
      more: streams.result.more,
    });
  }
  return figures;
}

async function searchAtScale(
  backend: BackendProcess,
  demo: SearchFigure[],
  generated: number,
): Promise<void> {
  const big = await searchReads(backend);
  console.log(
    `Explore search, documents read per search (streams, shops), demo data → with ${generated} more streams:`,
  );
  let ok = true;
  let most = 0;
  for (const [index, { name, q }] of SEARCHES.entries()) {
    const before = demo[index];
    const after = big[index];
    if (!before || !after) continue;
    most = Math.max(most, before.streams, after.streams, before.shops, after.shops);
    ok &&= most <= SEARCH_BOUND;
    const found = (figure: SearchFigure) => `${figure.found}${figure.more ? "+" : ""} found`;
    console.log(
      `  ${`${name} "${q}"`.padEnd(36)} streams ${before.streams} → ${after.streams}, shops ${before.shops} → ${after.shops}` +
        ` (${found(before)} → ${found(after)})`,
    );
  }
  const searchVerdict = recordFigure({
    group: GROUP,
    figure: `explore search, documents read per search, demo and +${generated} streams`,
    measured: `at most ${most}`,
    budget: `≤ ${SEARCH_BOUND}`,
    ok,
  });
  console.log(`  bound ≤ ${SEARCH_BOUND} documents per search, whatever the data: ${searchVerdict}`);
  console.log();
}
