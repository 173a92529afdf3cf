/**
 * Fidelity: the same calls on convex-test (Convex's official mock, the engine of the `convex` test
 * project) and on the embedded backend's engine must give the same results and leave the same data.
 *
 * 1. The authorization matrix (convex/testing/authorization.matrix.ts): every public function as each
 *    kind of caller, from the same fixture. Results, errors (their ConvexError data) and every app
 *    table afterwards are compared.
 * 2. The demo data: the seed, then the read paths a visitor and a signed-in viewer take (home, explore
 *    pages followed to the end in every "when" view and sort with their counts, every listed shop's
 *    and show's page, explore's search for streams in each view and for shops), compared in order:
 *    search ranks what the index finds itself (live first, then lib/searchText.ts's score), so both
 *    engines give the same order.
 *
 * Time is frozen (`Date` only) so both engines stamp the same creation times.
 */
import { getFunctionName, type FunctionReference } from "convex/server";
import type { Value } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../../convex/_generated/api";
import { emptyExploreFilter } from "../../convex/lib/explore";
import { calendarDay, type ExploreView } from "../../convex/lib/exploreWhen";
import schema from "../../convex/schema";
import {
  CALLERS,
  IDENTITIES,
  MATRIX,
  setUp,
  type Backend,
  type Caller,
} from "../../convex/testing/authorization.matrix";
import { modules, newTest } from "../../convex/test.setup";
import { localId } from "../values/convex-ids.ts";
import { createLocalBackend, type LocalBackendEngine } from "./engine.ts";
import type { Identity } from "./execution.ts";

const FROZEN_NOW = Date.UTC(2026, 10, 24, 15, 0, 0);
const APP_TABLES = Object.keys(schema.tables).sort();

type AnyReference = FunctionReference<"query" | "mutation" | "action", "public" | "internal">;

/** The engine behind convex-test's accessor interface, as `identity`. */
function engineBackend(engine: LocalBackendEngine, identity: Identity | null): Backend {
  const call = async (kind: "query" | "mutation" | "action", reference: AnyReference, args?: unknown) => {
    const outcome = await engine.call(getFunctionName(reference), (args ?? {}) as Value, { identity, kind });
    if (!outcome.success) {
      throw Object.assign(
        new Error(outcome.errorMessage),
        outcome.errorData === undefined ? {} : { data: outcome.errorData },
      );
    }
    return outcome.value;
  };
  const backend = {
    query: (reference: AnyReference, args?: unknown) => call("query", reference, args),
    mutation: (reference: AnyReference, args?: unknown) => call("mutation", reference, args),
    action: (reference: AnyReference, args?: unknown) => call("action", reference, args),
    run: (handler: (ctx: never) => Promise<unknown>) => engine.runner.runInline(identity, handler as never),
    finishAllScheduledFunctions: () => engine.runner.runDueJobs(),
    withIdentity: (who: { subject: string; email: string; name: string }) => engineBackend(engine, who),
  };
  return backend as unknown as Backend;
}

/** An id of the embedded engine (a counter and a random part: decision 054), in the text of a value. */
const ENGINE_ID = /([0-9]{16})([0-9]{20})([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * `value` with each of the engine's ids spelled as convex-test spells the same counter, so that both
 * sides compare: the random part is what no two engines (or runs) share.
 */
function withoutRandomIdParts(value: unknown): unknown {
  if (typeof value === "string") {
    return value.replace(ENGINE_ID, (_id, counter: string, _random, table: string) =>
      localId({ counter: BigInt(counter), random: null }, table),
    );
  }
  if (Array.isArray(value)) return value.map(withoutRandomIdParts);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutRandomIdParts(v)]));
  }
  return value;
}

/** Tables to compare: a data export's size counts its ids' characters, longer on the engine. */
function comparableTables(tables: Record<string, unknown[]>): unknown {
  const dataExports = (tables.dataExports ?? []).map((row) => ({ ...(row as object), byteLength: "ids" }));
  // Insights' hourly secret is random, and visitor keys are hashed with it (decision 089).
  const insightSecrets = (tables.insightSecrets ?? []).map((row) => ({
    ...(row as object),
    secret: "random",
  }));
  const insightVisitors = (tables.insightVisitors ?? []).map((row) => ({
    ...(row as object),
    key: "hashed",
  }));
  return withoutRandomIdParts({ ...tables, dataExports, insightSecrets, insightVisitors });
}

type Outcome = { value: unknown } | { failed: true; data: unknown };

async function outcomeOf(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { value: await run() };
  } catch (e) {
    return { failed: true, data: (e as { data?: unknown }).data ?? null };
  }
}

/** Every app table's documents, by creation time. */
async function tablesOf(t: Backend): Promise<Record<string, unknown[]>> {
  return await t.run<Record<string, unknown[]>>(async (ctx) => {
    const db = (ctx as { db: { query(table: string): { collect(): Promise<unknown[]> } } }).db;
    const tables: Record<string, unknown[]> = {};
    for (const table of APP_TABLES) tables[table] = await db.query(table).collect();
    return tables;
  });
}

async function newEngine(): Promise<LocalBackendEngine> {
  return await createLocalBackend({ schema, modules: modules as never });
}

const draws = { uuid: 0, bytes: 0, float: 0 };
/** Random ids and numbers repeat from the start on each side (Convex seeds them per function). */
function resetRandomness(): void {
  Object.assign(draws, { uuid: 0, bytes: 0, float: 0 });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: FROZEN_NOW });
  vi.spyOn(crypto, "randomUUID").mockImplementation(() => {
    draws.uuid += 1;
    return `00000000-0000-4000-8000-${String(draws.uuid).padStart(12, "0")}`;
  });
  vi.spyOn(crypto, "getRandomValues").mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const bytes = new Uint8Array(array!.buffer, array!.byteOffset, array!.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (draws.bytes * 31 + i * 7) & 0xff;
    draws.bytes += 1;
    return array;
  });
  vi.spyOn(Math, "random").mockImplementation(() => {
    draws.float += 1;
    return (draws.float * 0.618033988749895) % 1;
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("differential: convex-test and the embedded engine agree", () => {
  const cases = Object.entries(MATRIX).flatMap(([name, row]) =>
    CALLERS.map((caller) => [name, caller, row] as const),
  );

  test.each(cases)("%s as %s", async (name, caller: Caller, row) => {
    const engine = await newEngine();
    const sides = [];
    for (const backend of [newTest() as unknown as Backend, engineBackend(engine, null)]) {
      resetRandomness();
      const { t, fixture } = await setUp(backend);
      const as = caller === "signedOut" ? t : t.withIdentity(IDENTITIES[caller]);
      const outcome = await outcomeOf(() => row.call(as, fixture));
      await t.finishAllScheduledFunctions(() => undefined);
      sides.push({ outcome, tables: await tablesOf(t) });
    }
    expect(withoutRandomIdParts(sides[1].outcome), `${name} as ${caller}: result`).toEqual(sides[0].outcome);
    expect(comparableTables(sides[1].tables), `${name} as ${caller}: data afterwards`).toEqual(
      comparableTables(sides[0].tables),
    );
  });
});

describe("differential on the demo data", () => {
  const VIEWER = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };

  /** Explore's "when" views (decision 031): the day windows as a viewer in New York and in Berlin asks. */
  const NEW_YORK = { day: calendarDay(FROZEN_NOW, "America/New_York"), timeZone: "America/New_York" };
  const BERLIN = { day: calendarDay(FROZEN_NOW, "Europe/Berlin"), timeZone: "Europe/Berlin" };
  const VIEWS: [string, ExploreView | undefined][] = [
    ["by default", undefined],
    ["live and upcoming, newest", { when: "upcoming", sort: "newest" }],
    ["live now", { when: "live" }],
    ["today in New York", { when: "today", ...NEW_YORK }],
    ["today in Berlin", { when: "today", ...BERLIN }],
    ["this weekend", { when: "weekend", ...NEW_YORK }],
    ["next 7 days", { when: "week", ...BERLIN }],
    ["replays", { when: "replays" }],
  ];
  /** Issue 17's examples, accents and punctuation, a one-letter typo, two words, and a miss. */
  const SEARCHES = [
    "pokemon",
    "levis",
    "Brooklyn",
    "whatnot",
    "denim",
    "vintage",
    "cards",
    "vintaje",
    "k-beauty",
    "fresh mugs",
    "sneakers",
  ];

  /** Calls by reference without the generated types (the references are checked by `api`). */
  type Loose = {
    query(reference: AnyReference, args: Record<string, unknown>): Promise<unknown>;
    mutation(reference: AnyReference, args: Record<string, unknown>): Promise<unknown>;
  };
  const loose = (t: Backend) => t as unknown as Loose;

  /** Follows a paginated query to its end, 7 at a time. */
  async function allPages(t: Backend, reference: AnyReference, args: Record<string, unknown>) {
    const pages: unknown[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 50; i++) {
      const result = (await loose(t).query(reference, {
        ...args,
        paginationOpts: { numItems: 7, cursor },
      })) as { page: unknown[]; isDone: boolean; continueCursor: string };
      // A page that ends the range is done on convex-test; Convex (and this engine) answer one more,
      // empty, page instead.
      if (!(result.isDone && pages.length > 0 && result.page.length === 0)) pages.push(result.page);
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
    return pages;
  }

  test("seed, then a visitor's and a viewer's reads give the same answers", async () => {
    const engine = await newEngine();
    const NO_FILTER = emptyExploreFilter();
    const reads = async (t: Backend) => {
      await loose(t).mutation(internal.seed.seedAll, {});
      await t.finishAllScheduledFunctions(() => undefined);
      const results: Record<string, unknown> = {};
      for (const [who, as] of [
        ["visitor", t],
        ["viewer", t.withIdentity(VIEWER)],
      ] as const) {
        results[`${who} live now`] = await outcomeOf(() => loose(as).query(api.streams.listLiveNow, {}));
        results[`${who} starting soon`] = await outcomeOf(() =>
          loose(as).query(api.streams.listStartingSoon, { since: FROZEN_NOW - 3_600_000 }),
        );
        results[`${who} featured shops`] = await outcomeOf(() =>
          loose(as).query(api.liveShops.listFeaturedShops, {}),
        );
        for (const [name, view] of VIEWS) {
          results[`${who} streams ${name}`] = await outcomeOf(() =>
            allPages(as, api.explore.listExploreStreams, { filter: NO_FILTER, view }),
          );
          results[`${who} count streams ${name}`] = await outcomeOf(() =>
            loose(as).query(api.explore.countExploreStreams, { filter: NO_FILTER, view }),
          );
        }
        results[`${who} shops`] = await outcomeOf(() =>
          allPages(as, api.explore.listExploreShops, { filter: NO_FILTER }),
        );
        results[`${who} count shops`] = await outcomeOf(() =>
          loose(as).query(api.explore.countExploreShops, { filter: NO_FILTER }),
        );
        // Every listed shop's and show's page (issue 17 lists a shop's live and upcoming shows on it).
        const listed = (key: string) => {
          const outcome = results[key] as { value?: { _id: string }[][] };
          return (outcome.value ?? []).flat().map((card) => card._id);
        };
        for (const idOrSlug of listed(`${who} shops`)) {
          results[`${who} shop page ${idOrSlug}`] = await outcomeOf(() =>
            loose(as).query(api.liveShops.getPublicShop, { idOrSlug }),
          );
        }
        for (const streamId of [
          ...listed(`${who} streams by default`),
          ...listed(`${who} streams replays`),
        ]) {
          results[`${who} stream page ${streamId}`] = await outcomeOf(() =>
            loose(as).query(api.streams.getPublicStream, { streamId }),
          );
        }
        for (const q of SEARCHES) {
          const filter = { ...NO_FILTER, q };
          for (const [name, view] of VIEWS) {
            results[`${who} search streams ${name} "${q}"`] = await outcomeOf(() =>
              loose(as).query(api.explore.searchExploreStreams, { filter, view }),
            );
          }
          results[`${who} search shops "${q}"`] = await outcomeOf(() =>
            loose(as).query(api.explore.searchExploreShops, { filter }),
          );
        }
        // A list refuses search text rather than ignore it, the same way on both.
        results[`${who} list streams with search text`] = await outcomeOf(() =>
          allPages(as, api.explore.listExploreStreams, { filter: { ...NO_FILTER, q: "denim" } }),
        );
      }
      return results;
    };
    const expected = await reads(newTest());
    const actual = Object.fromEntries(
      Object.entries(await reads(engineBackend(engine, null))).map(([key, outcome]) => [
        withoutRandomIdParts(key) as string,
        withoutRandomIdParts(outcome),
      ]),
    );
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const key of Object.keys(expected)) expect(actual[key], key).toEqual(expected[key]);
    // Agreeing on nothing proves nothing: the views and searches find what the demo data holds.
    const found = (key: string) => {
      const outcome = expected[key] as { value: { results?: unknown[] } | unknown[][] };
      const { value } = outcome;
      return Array.isArray(value) ? value.flat().length : (value.results ?? []).length;
    };
    for (const key of [
      "visitor streams live now",
      "visitor streams replays",
      "visitor streams next 7 days",
      'visitor search streams by default "pokemon"',
      'visitor search streams live now "whatnot"',
      'visitor search streams by default "vintaje"',
      'visitor search shops "denim"',
    ]) {
      expect(found(key), key).toBeGreaterThan(0);
    }
    const pages = Object.entries(expected).filter(([key]) => / (shop|stream) page /.test(key));
    expect(pages.length).toBeGreaterThan(30);
    for (const [key, outcome] of pages) expect(outcome, key).toHaveProperty("value._id");
    expect(expected["visitor list streams with search text"]).toMatchObject({ failed: true });
  });
});
