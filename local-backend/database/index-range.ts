/**
 * Where a query reads: the source `convex/server` describes (a full table scan, an index range, a
 * search) resolved to an index's key range, or to a search's results.
 */
import { jsonToConvex, type JSONValue, type Value } from "convex/values";
import { SEARCH_RESULT_CAP } from "./search.ts";
import type { ComponentPath } from "../storage/document.ts";
import type { IndexDefinition } from "./index-catalog.ts";
import type { SqliteStore } from "./store.ts";
import { AFTER, encodeKey, type FieldValue } from "../values/values.ts";

/** A query as `convex/server` sends it. */
export type QueryJson = {
  source:
    | { type: "FullTableScan"; tableName: string; order: "asc" | "desc" | null }
    | {
        type: "IndexRange";
        indexName: string;
        range: { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue }[];
        order: "asc" | "desc" | null;
      }
    | {
        type: "Search";
        indexName: string;
        filters: { type: "Search" | "Eq"; fieldPath: string; value: JSONValue }[];
      };
  operators: ({ filter: JSONValue } | { limit: number })[];
};

/** A resolved query source: an index range, or a search's results. */
export type Source =
  | {
      type: "index";
      index: IndexDefinition;
      lower: Buffer;
      upper: Buffer;
      order: "asc" | "desc";
    }
  | { type: "search"; docs: string[]; order: "asc" };

function fieldsOfIndex(index: IndexDefinition): string[] {
  if (index.name === "by_id") return ["_id"];
  if (index.name === "by_creation_time") return ["_creationTime", "_id"];
  return [...index.fields, "_creationTime", "_id"];
}

/** The key range of an index range expression: equalities on a prefix, then at most two bounds. */
function rangeOf(
  index: IndexDefinition,
  range: { type: string; fieldPath: string; value: JSONValue }[],
): { lower: Buffer; upper: Buffer } {
  const fields = fieldsOfIndex(index);
  const equal: FieldValue[] = [];
  let lower: Buffer | null = null;
  let upper: Buffer | null = null;
  let boundField: string | null = null;
  for (const expression of range) {
    const value = decodeOrUndefined(expression.value);
    const position = equal.length;
    const expected = fields[position];
    if (expression.type === "Eq") {
      if (boundField !== null || expression.fieldPath !== expected) {
        throw new Error(
          `Uncaught Error: Index ${index.table}.${index.name} range must be .eq on its fields in order (${fields.join(", ")}), then .gt/.gte/.lt/.lte on the next one; got .eq("${expression.fieldPath}")`,
        );
      }
      equal.push(value);
      continue;
    }
    if (expression.fieldPath !== expected || (boundField !== null && boundField !== expression.fieldPath)) {
      throw new Error(
        `Uncaught Error: Index ${index.table}.${index.name} range bounds must be on "${expected}", the field after the .eq ones; got "${expression.fieldPath}"`,
      );
    }
    boundField = expression.fieldPath;
    const isLower = expression.type === "Gt" || expression.type === "Gte";
    if ((isLower && lower) || (!isLower && upper)) {
      throw new Error(`Uncaught Error: An index range may have one lower and one upper bound`);
    }
    const key = encodeKey(
      [...equal, value],
      expression.type === "Gt" || expression.type === "Lte" ? AFTER : undefined,
    );
    if (isLower) lower = key;
    else upper = key;
  }
  const prefix = encodeKey(equal);
  return {
    lower: lower ?? prefix,
    upper: upper ?? Buffer.concat([prefix, Buffer.from([AFTER])]),
  };
}

/** Reads a source in batches, applying the query's filters and limit. */

/** The source of `query` in `component`, and the table it reads. */
export function resolveSource(
  store: Pick<SqliteStore, "index" | "search">,
  component: ComponentPath,
  query: QueryJson,
): { source: Source; table: string } {
  const source = query.source;
  if (source.type === "FullTableScan") {
    const index = store.index(component, source.tableName, "by_creation_time")!;
    return {
      table: source.tableName,
      source: {
        type: "index",
        index,
        lower: Buffer.alloc(0),
        upper: Buffer.from([AFTER]),
        order: source.order ?? "asc",
      },
    };
  }
  const [table, indexName] = splitIndexName(source.indexName);
  const index = store.index(component, table, indexName);
  if (source.type === "IndexRange") {
    if (!index || index.kind !== "db") {
      throw new Error(
        `Uncaught Error: Cannot use index "${indexName}" for table "${table}" because it is not declared in the schema.`,
      );
    }
    const { lower, upper } = rangeOf(index, source.range);
    return { table, source: { type: "index", index, lower, upper, order: source.order ?? "asc" } };
  }
  if (!index || index.kind !== "search") {
    throw new Error(
      `Uncaught Error: Cannot use search index "${indexName}" for table "${table}" because it is not declared in the schema.`,
    );
  }
  const search = source.filters.find((f) => f.type === "Search");
  const filters = source.filters
    .filter((f) => f.type === "Eq")
    .map((f): [string, Value | undefined] => [f.fieldPath, decodeOrUndefined(f.value)]);
  const docs = search
    ? store.search(index, typeof search.value === "string" ? search.value : "", filters, SEARCH_RESULT_CAP)
    : [];
  return { table, source: { type: "search", docs, order: "asc" } };
}

export function splitIndexName(name: string): [string, string] {
  const dot = name.indexOf(".");
  return dot < 0 ? [name, ""] : [name.slice(0, dot), name.slice(dot + 1)];
}

/** A value as index ranges and filters send it: `{$undefined: null}` stands for `undefined`. */
export function decodeOrUndefined(json: JSONValue | undefined): FieldValue {
  if (json === undefined) return undefined;
  if (typeof json === "object" && json !== null && !Array.isArray(json) && "$undefined" in json)
    return undefined;
  return jsonToConvex(json);
}
