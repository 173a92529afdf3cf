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
 */
import { ConvexHttpClient } from "convex/browser";
import { api } from "../../convex/_generated/api";
import { emptyExploreFilter, type ExploreFilter } from "../../convex/lib/explore";
import {
  EXPLORE_REFERENCE,
  normalizeExploreFilter,
  planExploreRanges,
} from "../../convex/lib/exploreListing";
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
  { name: 'text search "night"', filter: { q: "night" } },
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
) {
  return await new ConvexHttpClient(backend.url).query(api.explore.listExploreStreams, {
    filter,
    paginationOpts: { numItems, cursor },
  });
}

/** Documents read by one call of listExploreStreams, from the backend's per-function stats. */
async function readsOfPage(
  backend: BackendProcess,
  filter: ExploreFilter,
  numItems: number,
  cursor: string | null,
): Promise<{ page: Page; docsRead: number }> {
  const docsRead = async () => (await backend.stats())["explore:listExploreStreams"]?.docsRead ?? 0;
  const before = await docsRead();
  const page = await query(backend, filter, numItems, cursor);
  return { page, docsRead: (await docsRead()) - before };
}

/** Reads of the first and the second page. */
async function readsOfTwoPages(
  backend: BackendProcess,
  filter: ExploreFilter,
  numItems: number,
): Promise<Reads> {
  const first = await readsOfPage(backend, filter, numItems, null);
  const second = first.page.isDone
    ? { docsRead: 0, page: { page: [] } }
    : await readsOfPage(backend, filter, numItems, first.page.continueCursor);
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

/** Every filter's reads on the demo data, with page sizes the demo data fills. */
export async function exploreDemoCases(backend: BackendProcess): Promise<ExploreCase[]> {
  const cases: ExploreCase[] = [];
  for (const { name, filter: selection } of FILTERS) {
    const filter = { ...emptyExploreFilter(), ...selection };
    const normalized = normalizeExploreFilter(filter, EXPLORE_REFERENCE);
    const ranges = normalized.q ? 0 : planExploreRanges(normalized, EXPLORE_REFERENCE).ranges.length;
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
  return cases;
}

/** The same filters once `generated` streams are in, against the demo figures and the absolute budget. */
export async function exploreAtScale(
  backend: BackendProcess,
  cases: ExploreCase[],
  generated: number,
): Promise<void> {
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
}
