import type { GenericId } from "convex/values";
import { describe, expect, it } from "vitest";
import type { Document } from "../storage/document.ts";
import type { TableIndexes } from "./index-catalog.ts";
import { SqliteStore } from "./store.ts";
import { vectorIndexSchemaError, type VectorIndexSpec } from "./vector-search.ts";

const BY_EMBEDDING: VectorIndexSpec = {
  indexDescriptor: "by_embedding",
  vectorField: "embedding",
  dimensions: 2,
  filterFields: ["kind"],
};

function table(vectorIndexes: VectorIndexSpec[]): TableIndexes {
  return { table: "items", indexes: [], searchIndexes: [], vectorIndexes };
}

function item(n: number, embedding: number[], kind = "a"): Document {
  return { _id: `${n}items` as GenericId<"items">, _creationTime: n, embedding, kind };
}

function write(store: SqliteStore, previous: Document | null, next: Document | null): void {
  store.begin();
  store.write("", "items", previous, next);
  store.commit();
}

function search(store: SqliteStore, vector: number[], tokens: string[] | null = null): string[] {
  const index = store.index("", "items", "by_embedding");
  return index ? store.vectorSearch(index, vector, tokens, 10).map((r) => r._id) : [];
}

describe("vector indexes in the store", () => {
  it("are built from the table's documents when the schema adds them, and dropped when it removes them", () => {
    const store = SqliteStore.open(null);
    store.syncIndexes("", [table([])]);
    write(store, null, item(1, [1, 0]));
    write(store, null, item(2, [0, 1]));
    expect(search(store, [1, 0])).toEqual([]);
    expect(store.syncIndexes("", [table([BY_EMBEDDING])])).toEqual(["items.by_embedding"]);
    expect(search(store, [1, 0])).toEqual(["1items", "2items"]);
    // A staged index is not built.
    store.syncIndexes("", [table([{ ...BY_EMBEDDING, staged: true }])]);
    expect(store.index("", "items", "by_embedding")).toBeUndefined();
    store.syncIndexes("", [table([BY_EMBEDDING])]);
    expect(search(store, [0, 1])).toEqual(["2items", "1items"]);
    store.close();
  });

  it("undo a rolled-back write with the document", () => {
    const store = SqliteStore.open(null);
    store.syncIndexes("", [table([BY_EMBEDDING])]);
    write(store, null, item(1, [1, 0]));
    store.begin();
    store.write("", "items", item(1, [1, 0]), null);
    store.write("", "items", null, item(2, [0, 1]));
    store.rollback();
    expect(search(store, [0, 1])).toEqual(["1items"]);
    store.close();
  });
});

describe("a schema's vector index", () => {
  const documentType = {
    type: "object" as const,
    value: {
      embedding: {
        fieldType: { type: "array" as const, value: { type: "number" as const } },
        optional: true,
      },
      name: { fieldType: { type: "string" as const }, optional: false },
    },
  };

  it("is refused as Convex refuses the push: dimensions, filter fields, a field that holds no vector", () => {
    expect(vectorIndexSchemaError("items", BY_EMBEDDING, documentType)).toBeNull();
    expect(vectorIndexSchemaError("items", { ...BY_EMBEDDING, dimensions: 4096 }, null)).toBeNull();
    expect(vectorIndexSchemaError("items", { ...BY_EMBEDDING, dimensions: 1 }, null)).toBe(
      "Dimensions 1 must be between 2 and 4096.",
    );
    expect(vectorIndexSchemaError("items", { ...BY_EMBEDDING, dimensions: 4097 }, null)).toBe(
      "Dimensions 4097 must be between 2 and 4096.",
    );
    const filterFields = Array.from({ length: 17 }, (_, i) => `f${i}`);
    expect(vectorIndexSchemaError("items", { ...BY_EMBEDDING, filterFields }, null)).toBe(
      "Search indexes may have up to 16 filter fields.",
    );
    expect(vectorIndexSchemaError("items", { ...BY_EMBEDDING, vectorField: "name" }, documentType)).toBe(
      'In table "items" the vector index "by_embedding" is invalid because it references the field "name" that is neither an array of float64 or optional array of float64.',
    );
  });
});
