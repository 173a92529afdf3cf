/**
 * `ctx.vectorSearch` in actions, as Convex answers it: `{ _id, _score }` by cosine similarity, best
 * first; its limit (10 unless asked, at most 256), its filters (`q.eq`, `q.or`, on the index's
 * filter fields only), documents without a vector of the index's dimensions left out, the index
 * following inserts, patches and deletes, a component's indexes its own, and every refusal in
 * Convex's words. Fixture: test-fixture/vectors/.
 */
import path from "node:path";
import type { ConvexHttpClient } from "convex/browser";
import type { Value } from "convex/values";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningLocalBackend } from "../host/start.ts";
import { a, m, newHttpClient, startFixtureBackend } from "./test-helpers.ts";

const fixture = path.join(import.meta.dirname, "test-fixture", "vectors");

type Result = { _id: string; _score: number };
type Food = { name: string; cuisine: string; spicy?: boolean; embedding?: number[] };

const FOODS: Food[] = [
  { name: "tacos", cuisine: "mexican", spicy: true, embedding: [1, 0, 0] },
  { name: "mole", cuisine: "mexican", embedding: [0.9, 0.1, 0] },
  { name: "ramen", cuisine: "japanese", spicy: false, embedding: [0, 1, 0] },
  { name: "sushi", cuisine: "japanese", embedding: [0, 0.8, 0.6] },
  { name: "pizza", cuisine: "italian", embedding: [0.5, 0.5, 0.5] },
  // Never found: no vector, and one of the wrong length.
  { name: "bread", cuisine: "italian" },
  { name: "pasta", cuisine: "italian", embedding: [1, 0] },
];

function cosine(x: number[], y: number[]): number {
  const dot = x.reduce((sum, xi, i) => sum + xi * y[i], 0);
  return dot / (Math.hypot(...x) * Math.hypot(...y));
}

describe("vector search", { timeout: 60_000 }, () => {
  let backend: RunningLocalBackend;
  let http: ConvexHttpClient;
  let ids: Record<string, string>;
  const nameOf = (id: string) => Object.keys(ids).find((name) => ids[name] === id);

  const search = async (args: Record<string, Value>) =>
    (await http.action(a("foods:search"), args)) as Result[];
  const names = async (args: Record<string, Value>) => (await search(args)).map((r) => nameOf(r._id));
  const refusal = (args: Record<string, Value>, fn = "foods:search") =>
    http.action(a(fn), args).then(
      () => "no error",
      (e: unknown) => (e as Error).message,
    );

  beforeAll(async () => {
    backend = await startFixtureBackend({ functionsDir: path.join(fixture, "convex") });
    http = newHttpClient(backend.url);
  });
  afterAll(async () => {
    await backend?.stop();
  });
  beforeEach(async () => {
    ids = (await http.mutation(m("foods:reset"), { rows: FOODS })) as Record<string, string>;
  });

  it("answers the nearest documents by cosine similarity, best first, with their scores", async () => {
    const query = [1, 0, 0];
    const results = await search({ vector: query });
    expect(results.map((r) => nameOf(r._id)).slice(0, 3)).toEqual(["tacos", "mole", "pizza"]);
    // Every document with a vector of 3 dimensions, and none other.
    expect(results.map((r) => nameOf(r._id)).sort()).toEqual(["mole", "pizza", "ramen", "sushi", "tacos"]);
    for (const result of results) {
      const food = FOODS.find((f) => f.name === nameOf(result._id))!;
      expect(result._score).toBeCloseTo(cosine(query, food.embedding!), 6);
      // A float32, as Convex's scores are.
      expect(Math.fround(result._score)).toBe(result._score);
      expect(Object.keys(result).sort()).toEqual(["_id", "_score"]);
    }
    // Scores only depend on direction: a longer query finds the same, with the same scores.
    expect(await search({ vector: [5, 0, 0] })).toEqual(results);
  });

  it("returns at most `limit` results: 10 unless asked, up to 256", async () => {
    expect(await names({ vector: [1, 0, 0], limit: 2 })).toEqual(["tacos", "mole"]);
    expect(await search({ vector: [1, 0, 0], limit: 256 })).toHaveLength(5);
    expect(await search({ vector: [1, 0, 0], limit: 0 })).toEqual([]);
    for (let i = 0; i < 8; i++) {
      await http.mutation(m("foods:insert"), { name: `filler${i}`, cuisine: "filler", embedding: [0, 0, 1] });
    }
    expect(await search({ vector: [1, 0, 0] })).toHaveLength(10);
    expect(await search({ vector: [1, 0, 0], limit: 11 })).toHaveLength(11);
    expect(await refusal({ vector: [1, 0, 0], limit: 257 })).toContain(
      "Vector queries can fetch at most 256 results, requested 257.",
    );
  });

  it("filters with q.eq and q.or on the index's filter fields", async () => {
    const filtered = (filter: Value[]) => names({ vector: [1, 0, 0], filter }).then((found) => found.sort());
    expect(await filtered([{ field: "cuisine", value: "mexican" }])).toEqual(["mole", "tacos"]);
    expect(
      await filtered([
        { field: "cuisine", value: "mexican" },
        { field: "cuisine", value: "japanese" },
      ]),
    ).toEqual(["mole", "ramen", "sushi", "tacos"]);
    // A q.or over two fields: either matches.
    expect(
      await filtered([
        { field: "cuisine", value: "italian" },
        { field: "spicy", value: true },
      ]),
    ).toEqual(["pizza", "tacos"]);
    // `undefined` matches the documents without the field.
    expect(await filtered([{ field: "spicy" }])).toEqual(["mole", "pizza", "sushi"]);
    expect(await filtered([{ field: "cuisine", value: "greek" }])).toEqual([]);
    // The limit applies to what the filter lets through.
    expect(
      await names({
        vector: [0, 1, 0],
        limit: 1,
        filter: [{ field: "cuisine", value: "mexican" }],
      }),
    ).toEqual(["mole"]);
  });

  it("refuses a filter on a field the index does not filter on, or of more than 64 conditions", async () => {
    expect(await refusal({ vector: [1, 0, 0], filter: [{ field: "name", value: "tacos" }] })).toContain(
      'Vector query against foods.by_embedding contains a filter on "name" but that field isn\'t indexed for filtering in `filterFields`.',
    );
    const many = Array.from({ length: 65 }, (_, i) => ({ field: "cuisine", value: `c${i}` }));
    expect(await refusal({ vector: [1, 0, 0], filter: many })).toContain(
      "Vector query against foods.by_embedding has too many conditions. Max: 64 Actual: 65",
    );
    expect(await refusal({ vector: [1, 0, 0] }, "foods:searchWithBadFilter")).toContain(
      "Filters should be a combination of `q.eq` and `q.or`.",
    );
  });

  it("refuses a query vector of other dimensions than the index's", async () => {
    expect(await refusal({ vector: [1, 0] })).toContain("Expected a vector with dimensions 3, received 2.");
    expect(await refusal({ vector: new Array<number>(4097).fill(1) })).toContain(
      "Expected a vector with dimensions 4096, received 4097.",
    );
    expect(await refusal({ vector: [] })).toContain("`vector` must be a non-empty Array in vectorSearch");
  });

  it("refuses an index that is missing, not a vector index, or staged; a table that does not exist has nothing", async () => {
    expect(await refusal({ vector: [1, 0, 0], index: "by_nothing" })).toContain(
      "Index foods.by_nothing not found.",
    );
    expect(await refusal({ vector: [1, 0, 0], index: "by_name" })).toContain(
      "Index foods.by_name is not a vector index",
    );
    expect(await refusal({ vector: [1, 0, 0], table: "drafts" })).toContain(
      "Index drafts.by_embedding is currently staged and not available to query until it is enabled.",
    );
    expect(await search({ vector: [1, 0, 0], table: "nothing_here" })).toEqual([]);
  });

  it("follows inserts, patches and deletes", async () => {
    const greek = { vector: [0, 0, 1], filter: [{ field: "cuisine", value: "greek" }] };
    const id = (await http.mutation(m("foods:insert"), {
      name: "souvlaki",
      cuisine: "greek",
      embedding: [0, 0, 2],
    })) as string;
    expect(await search(greek)).toEqual([{ _id: id, _score: 1 }]);
    await http.mutation(m("foods:patch"), { id, fields: { embedding: [1, 0, 0] } });
    expect(await search(greek)).toEqual([{ _id: id, _score: 0 }]);
    expect((await search({ vector: [1, 0, 0], limit: 2 })).map((r) => r._id)).toContain(id);
    await http.mutation(m("foods:patch"), { id, fields: { cuisine: "turkish" } });
    expect(await search(greek)).toEqual([]);
    const turkish = { vector: [1, 0, 0], filter: [{ field: "cuisine", value: "turkish" }] };
    expect((await search(turkish)).map((r) => r._id)).toEqual([id]);
    // A vector of the wrong length, or none, takes the document out of the index.
    await http.mutation(m("foods:patch"), { id, fields: { embedding: [1, 0, 0, 0] } });
    expect(await search(turkish)).toEqual([]);
    await http.mutation(m("foods:patch"), { id, fields: { embedding: [0, 1, 0] } });
    expect((await search(turkish)).map((r) => r._id)).toEqual([id]);
    await http.mutation(m("foods:patch"), { id, fields: {}, unset: "embedding" });
    expect(await search(turkish)).toEqual([]);
    await http.mutation(m("foods:patch"), { id, fields: { embedding: [0, 1, 0] } });
    await http.mutation(m("foods:remove"), { id });
    expect(await search(turkish)).toEqual([]);
    expect((await search({ vector: [0, 1, 0], limit: 256 })).map((r) => r._id)).not.toContain(id);
  });

  it("searches a component's own vector index from the component, and only there", async () => {
    const id = (await http.action(a("foods:pantryAdd"), { name: "salt", embedding: [1, 1] })) as string;
    const found = (await http.action(a("foods:pantrySearch"), {
      table: "items",
      vector: [1, 0],
    })) as Result[];
    expect(found.map((r) => r._id)).toEqual([id]);
    expect(found[0]._score).toBeCloseTo(Math.SQRT1_2, 6);
    // The app has no `items` table, and the component no `foods` one.
    expect(await search({ vector: [1, 0], table: "items" })).toEqual([]);
    expect(await http.action(a("foods:pantrySearch"), { table: "foods", vector: [1, 0, 0] })).toEqual([]);
  });
});
