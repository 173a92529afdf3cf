/**
 * The app's public boards never ask who is calling (convex/functions.ts `publicQuery`), so the
 * embedded backend, like Convex, runs each once for all its viewers; queries that depend on the caller
 * do ask. Checked on the demo data through the engine's own read sets.
 */
import { getFunctionName, type FunctionReference } from "convex/server";
import { beforeAll, describe, expect, test } from "vitest";
import { api, internal } from "../../convex/_generated/api";
import schema from "../../convex/schema";
import { modules } from "../../convex/test.setup";
import { createLocalBackend, type LocalBackendEngine } from "./engine.ts";

const VIEWER = { subject: "user_vera", email: "vera@livelocal.test", name: "Vera Viewer" };

describe("which app queries ask who is calling", () => {
  let engine: LocalBackendEngine;
  const asksWho = async (reference: FunctionReference<"query">, args: Record<string, unknown> = {}) => {
    const outcome = await engine.call(getFunctionName(reference), args as never, {
      identity: VIEWER,
      kind: "query",
    });
    expect(outcome.success, JSON.stringify(outcome)).toBe(true);
    return outcome.reads.identity;
  };

  beforeAll(async () => {
    engine = await createLocalBackend({ schema, modules: modules as never });
    const seeded = await engine.call(getFunctionName(internal.seed.seedAll), {}, { kind: "mutation" });
    expect(seeded.success).toBe(true);
  });

  test("the public boards do not: one run serves every viewer", async () => {
    expect(await asksWho(api.streams.listLiveNow)).toBe(false);
    expect(await asksWho(api.streams.listStartingSoon, { since: Date.now() })).toBe(false);
    expect(await asksWho(api.liveShops.listFeaturedShops)).toBe(false);
    const filter = { categories: [], subcategories: [], states: [], msas: [] };
    const page = { numItems: 24, cursor: null };
    expect(await asksWho(api.explore.listExploreStreams, { filter, paginationOpts: page })).toBe(false);
    expect(await asksWho(api.explore.countExploreStreams, { filter, view: { when: "live" } })).toBe(false);
    expect(await asksWho(api.explore.searchExploreStreams, { filter: { ...filter, q: "denim" } })).toBe(
      false,
    );
    expect(await asksWho(api.explore.listExploreShops, { filter, paginationOpts: page })).toBe(false);
    expect(await asksWho(api.explore.countExploreShops, { filter })).toBe(false);
    expect(await asksWho(api.explore.searchExploreShops, { filter: { ...filter, q: "denim" } })).toBe(false);
  });

  test("a person's own lists do", async () => {
    expect(await asksWho(api.watchList.mySaved)).toBe(true);
    expect(await asksWho(api.users.viewer)).toBe(true);
  });
});
