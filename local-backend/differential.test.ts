/**
 * Fidelity: the same calls on convex-test (Convex's official mock, the engine of the `convex` test
 * project) and on the embedded backend's engine must give the same results and leave the same data.
 *
 * 1. The authorization matrix (convex/testing/authorization.matrix.ts): every public function as each
 *    kind of caller, from the same fixture. Results, errors (their ConvexError data) and every app
 *    table afterwards are compared.
 * 2. The demo data: the seed, then the read paths a visitor and a signed-in viewer take (home, explore
 *    pages followed to the end, shop and stream pages, search), compared; search results as sets,
 *    since convex-test does not rank by relevance.
 *
 * Time is frozen (`Date` only) so both engines stamp the same creation times.
 */
import { getFunctionName, type FunctionReference } from "convex/server";
import type { Value } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { api, internal } from "../convex/_generated/api";
import schema from "../convex/schema";
import {
  CALLERS,
  IDENTITIES,
  MATRIX,
  setUp,
  type Backend,
  type Caller,
} from "../convex/testing/authorization.matrix";
import { modules, newTest } from "../convex/test.setup";
import { createLocalBackend, type Identity, type LocalBackendEngine } from "./engine.ts";

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
    expect(sides[1].outcome, `${name} as ${caller}: result`).toEqual(sides[0].outcome);
    expect(sides[1].tables, `${name} as ${caller}: data afterwards`).toEqual(sides[0].tables);
  });
});

describe("differential on the demo data", () => {
  const VIEWER = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };

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
      pages.push(result.page);
      if (result.isDone) break;
      cursor = result.continueCursor;
    }
    return pages;
  }

  test("seed, then a visitor's and a viewer's reads give the same answers", async () => {
    const engine = await newEngine();
    const NO_FILTER = { categories: [], subcategories: [], states: [], msas: [] };
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
        results[`${who} streams`] = await outcomeOf(() =>
          allPages(as, api.explore.listExploreStreams, { filter: NO_FILTER }),
        );
        results[`${who} shops`] = await outcomeOf(() =>
          allPages(as, api.explore.listExploreShops, { filter: NO_FILTER }),
        );
        for (const q of ["denim", "vintage", "cards", "pokemon", "sneakers"]) {
          for (const [kind, reference] of [
            ["streams", api.explore.listExploreStreams],
            ["shops", api.explore.listExploreShops],
          ] as const) {
            results[`${who} search ${kind} "${q}"`] = await outcomeOf(async () => {
              const pages = await allPages(as, reference, { filter: { ...NO_FILTER, q } });
              return (pages.flat() as { _id: string }[]).map((card) => JSON.stringify(card)).sort();
            });
          }
        }
      }
      return results;
    };
    const [expected, actual] = [await reads(newTest()), await reads(engineBackend(engine, null))];
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const key of Object.keys(expected)) expect(actual[key], key).toEqual(expected[key]);
  });
});
