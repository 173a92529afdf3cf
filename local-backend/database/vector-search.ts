/**
 * Vector search, as Convex's vector indexes answer it (`ctx.vectorSearch` in actions), exact: every
 * document of the index that passes the filters is scored, by cosine similarity, and the best kept
 * (decision 081). A vector index keeps, per document, its vector as float32s already normalized (so
 * a score is one dot product, as Qdrant's cosine metric computes it) and a token per filter field's
 * value; a filtered search reads only the documents under the asked tokens, through their SQLite
 * index. The index catalog (`index-catalog.ts`) keeps these rows in step with the table.
 */
import type Database from "better-sqlite3";
import type { JSONValue } from "convex/values";
import type { Document } from "../storage/document.ts";
import type { ValidatorJson } from "../values/validate.ts";
import { fieldValue, type FieldValue } from "../values/values.ts";
import type { IndexDefinition } from "./index-catalog.ts";
import { decodeOrUndefined } from "./index-range.ts";
import { filterToken } from "./search.ts";

/** Convex's bounds (`crates/vector`, `crates/common/src/bootstrap_model/index`). */
export const MIN_VECTOR_DIMENSIONS = 2;
export const MAX_VECTOR_DIMENSIONS = 4096;
export const MAX_VECTOR_RESULTS = 256;
const DEFAULT_VECTOR_LIMIT = 10;
/** At most this many `q.eq` conditions in one query (an `q.or` of N on one field counts N). */
const MAX_FILTER_LENGTH = 64;
const MAX_VECTOR_INDEX_FILTER_FIELDS = 16;
/** What Convex says when a syscall's arguments do not even parse (a system error there). */
const INTERNAL_ERROR = "Your request couldn't be completed. Try again later.";

/** A vector index as the schema declares it (`vectorIndex(name, {...})`, `schema.export()`). */
export type VectorIndexSpec = {
  indexDescriptor: string;
  vectorField: string;
  dimensions: number;
  filterFields: string[];
  /** Declared `staged: true`: known, not built, refused to searches (Convex's staged indexes). */
  staged?: boolean;
};

/** The vector tables: each document's normalized vector, and its filter tokens. */
export const VECTOR_TABLES = `
  CREATE TABLE IF NOT EXISTS vector_entries (
    index_id INTEGER NOT NULL,
    document_id TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (index_id, document_id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS vector_filters (
    index_id INTEGER NOT NULL,
    token TEXT NOT NULL,
    document_id TEXT NOT NULL,
    PRIMARY KEY (index_id, token, document_id)
  ) WITHOUT ROWID;
`;

/**
 * A schema's vector index in Convex's words when Convex would refuse the push, else null: its
 * dimensions, its number of filter fields, and a vector field the document validator cannot hold
 * as an array of float64.
 */
export function vectorIndexSchemaError(
  table: string,
  index: VectorIndexSpec,
  documentType: ValidatorJson | null,
): string | null {
  const { dimensions } = index;
  if (
    !Number.isInteger(dimensions) ||
    dimensions < MIN_VECTOR_DIMENSIONS ||
    dimensions > MAX_VECTOR_DIMENSIONS
  ) {
    return `Dimensions ${dimensions} must be between ${MIN_VECTOR_DIMENSIONS} and ${MAX_VECTOR_DIMENSIONS}.`;
  }
  if (new Set(index.filterFields).size > MAX_VECTOR_INDEX_FILTER_FIELDS) {
    return `Search indexes may have up to ${MAX_VECTOR_INDEX_FILTER_FIELDS} filter fields.`;
  }
  if (documentType && !mayHoldVector(documentType, index.vectorField.split("."))) {
    return `In table "${table}" the vector index "${index.indexDescriptor}" is invalid because it references the field "${index.vectorField}" that is neither an array of float64 or optional array of float64.`;
  }
  return null;
}

/** Whether a value `validator` accepts may have an array of float64 at `path` (Convex's test). */
function mayHoldVector(validator: ValidatorJson, path: string[]): boolean {
  if (validator.type === "any") return true;
  if (validator.type === "union") return validator.value.some((option) => mayHoldVector(option, path));
  if (path.length === 0) {
    return (
      validator.type === "array" && (validator.value.type === "number" || validator.value.type === "any")
    );
  }
  if (validator.type !== "object") return false;
  const field = validator.value[path[0]];
  return field ? mayHoldVector(field.fieldType, path.slice(1)) : true;
}

/** A document's row in a vector index, or null when it has no vector of the index's dimensions. */
type VectorEntry = { vector: Buffer; tokens: string[] };

function vectorEntry(index: IndexDefinition, doc: Document): VectorEntry | null {
  const value = fieldValue(doc, index.vectorField!);
  if (!Array.isArray(value) || value.length !== index.dimensions) return null;
  if (!value.every((x) => typeof x === "number")) return null;
  return {
    vector: normalized(value),
    tokens: (index.filterFields ?? []).map((field) => filterToken(field, fieldValue(doc, field))),
  };
}

/**
 * The vector as float32s of length 1 (Qdrant's cosine preprocessing, as Convex indexes them): one
 * too short to have a direction stays as it is, and scores 0 against anything.
 */
function normalized(values: readonly number[]): Buffer {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.fround(Math.sqrt(norm));
  if (norm >= 2 ** -23) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** Where a stored vector is copied when SQLite's buffer is not 4-byte aligned (grown as needed). */
let scratch = new Float32Array(0);

/** A stored vector as float32s: a view of the blob, or of `scratch` (valid until the next call). */
function float32s(blob: Buffer): Float32Array {
  const length = blob.byteLength / 4;
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, length);
  if (scratch.length < length) scratch = new Float32Array(length);
  new Uint8Array(scratch.buffer, 0, blob.byteLength).set(blob);
  return scratch.subarray(0, length);
}

/** A search as `convex/server` sends it (`VectorQueryImpl`). */
export type VectorQueryJson = {
  indexName: string;
  limit?: number | null;
  vector: number[];
  expressions?: JSONValue | null;
};

/** A search read from its JSON: the filter values asked, by field. */
export type VectorQuery = {
  table: string;
  index: string;
  limit: number | null;
  vector: number[];
  filters: Map<string, Map<string, FieldValue>>;
};

/** Reads a search's JSON, refusing what Convex refuses before it looks at the index. */
export function parseVectorQuery(json: VectorQueryJson): VectorQuery {
  const { indexName, limit, vector } = json;
  if (
    typeof indexName !== "string" ||
    !Array.isArray(vector) ||
    !vector.every((x) => typeof x === "number") ||
    (limit !== undefined && limit !== null && !(Number.isInteger(limit) && limit >= 0 && limit < 2 ** 32))
  ) {
    throw new Error(INTERNAL_ERROR);
  }
  const dot = indexName.indexOf(".");
  const filters = new Map<string, Map<string, FieldValue>>();
  if (json.expressions !== undefined && json.expressions !== null) addFilters(json.expressions, filters);
  return {
    table: dot < 0 ? indexName : indexName.slice(0, dot),
    index: dot < 0 ? "" : indexName.slice(dot + 1),
    limit: limit ?? null,
    vector,
    filters,
  };
}

function addFilters(expression: JSONValue, filters: Map<string, Map<string, FieldValue>>): void {
  const object = asObject(expression);
  if (object && Array.isArray(object.$or)) {
    for (const inner of object.$or) addFilters(inner, filters);
    return;
  }
  if (!object || !Array.isArray(object.$eq)) {
    throw new Error("Filters should be a combination of `q.eq` and `q.or`.");
  }
  const [left, right] = object.$eq.map(asObject);
  if (object.$eq.length !== 2 || typeof left?.$field !== "string" || !right || !("$literal" in right)) {
    throw new Error("`q.eq` must take a field path as its first argument and a value as its second");
  }
  const value = decodeOrUndefined(right.$literal);
  const field = left.$field;
  const values = filters.get(field) ?? new Map<string, FieldValue>();
  values.set(filterToken(field, value), value);
  filters.set(field, values);
}

function asObject(json: JSONValue): Record<string, JSONValue> | null {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? json : null;
}

/**
 * The query's filter tokens (null: none, every document) and limit, checked against the index in
 * Convex's order and words (`QdrantSchema::compile`).
 */
export function compileVectorQuery(
  index: IndexDefinition,
  query: VectorQuery,
): { tokens: string[] | null; limit: number } {
  const name = `${index.table}.${index.name}`;
  if (query.vector.length > MAX_VECTOR_DIMENSIONS) {
    throw new Error(dimensionsError(MAX_VECTOR_DIMENSIONS, query.vector.length));
  }
  const limit = query.limit ?? DEFAULT_VECTOR_LIMIT;
  if (limit > MAX_VECTOR_RESULTS) {
    throw new Error(`Vector queries can fetch at most ${MAX_VECTOR_RESULTS} results, requested ${limit}.`);
  }
  // Convex checks single values before `q.or`s of one field, each in field order.
  const fields = [...query.filters.entries()].sort(
    ([a, x], [b, y]) => Number(x.size > 1) - Number(y.size > 1) || compareFieldPaths(a, b),
  );
  let length = 0;
  for (const [field, values] of fields) {
    if (!(index.filterFields ?? []).includes(field)) {
      throw new Error(
        `Vector query against ${name} contains a filter on "${field}" but that field isn't indexed for filtering in \`filterFields\`.`,
      );
    }
    length += values.size;
  }
  if (length > MAX_FILTER_LENGTH) {
    throw new Error(
      `Vector query against ${name} has too many conditions. Max: ${MAX_FILTER_LENGTH} Actual: ${length}`,
    );
  }
  if (query.vector.length !== index.dimensions) {
    throw new Error(dimensionsError(index.dimensions!, query.vector.length));
  }
  const tokens = fields.flatMap(([, values]) => [...values.keys()]);
  return { tokens: fields.length > 0 ? tokens : null, limit };
}

function dimensionsError(expected: number, received: number): string {
  return `Expected a vector with dimensions ${expected}, received ${received}.`;
}

function compareFieldPaths(a: string, b: string): number {
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/** One result: a document's id and its cosine similarity to the query, as a float32. */
export type VectorResult = { _id: string; _score: number };

/** The vector statements of one connection (those that write fail on the read-only one). */
export class VectorEntries {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      putEntry: db.prepare<[number, string, Buffer]>(
        "INSERT INTO vector_entries (index_id, document_id, vector) VALUES (?, ?, ?)",
      ),
      deleteEntry: db.prepare<[number, string]>(
        "DELETE FROM vector_entries WHERE index_id = ? AND document_id = ?",
      ),
      putFilter: db.prepare<[number, string, string]>(
        "INSERT OR IGNORE INTO vector_filters (index_id, token, document_id) VALUES (?, ?, ?)",
      ),
      deleteFilter: db.prepare<[number, string, string]>(
        "DELETE FROM vector_filters WHERE index_id = ? AND token = ? AND document_id = ?",
      ),
      all: db
        .prepare<[number], [string, Buffer]>(
          "SELECT document_id, vector FROM vector_entries WHERE index_id = ?",
        )
        .raw(),
      filtered: db
        .prepare<[number, string], [string, Buffer]>(
          `SELECT e.document_id, e.vector FROM vector_filters f
           JOIN vector_entries e ON e.index_id = f.index_id AND e.document_id = f.document_id
           WHERE f.index_id = ? AND f.token = ?`,
        )
        .raw(),
    };
  }

  /** Adds `doc` to `index` (a schema change's backfill). */
  add(index: IndexDefinition, doc: Document): void {
    this.put(index, doc._id as string, vectorEntry(index, doc));
  }

  private put(index: IndexDefinition, id: string, entry: VectorEntry | null): void {
    if (!entry) return;
    this.statements.putEntry.run(index.id, id, entry.vector);
    for (const token of entry.tokens) this.statements.putFilter.run(index.id, token, id);
  }

  private remove(index: IndexDefinition, id: string, entry: VectorEntry): void {
    this.statements.deleteEntry.run(index.id, id);
    for (const token of entry.tokens) this.statements.deleteFilter.run(index.id, token, id);
  }

  /** Moves a document's row in `index` from `previous` to `next`, unless its vector and filters stay. */
  update(index: IndexDefinition, id: string, previous: Document | null, next: Document | null): void {
    const before = previous && vectorEntry(index, previous);
    const after = next && vectorEntry(index, next);
    if (
      before &&
      after &&
      before.vector.equals(after.vector) &&
      before.tokens.every((token, i) => token === after.tokens[i])
    ) {
      return;
    }
    if (before) this.remove(index, id, before);
    this.put(index, id, after);
  }

  /** Removes every row of a vector index. */
  drop(index: IndexDefinition): void {
    this.db.prepare("DELETE FROM vector_entries WHERE index_id = ?").run(index.id);
    this.db.prepare("DELETE FROM vector_filters WHERE index_id = ?").run(index.id);
  }

  /**
   * The `limit` documents of `index` most similar to `vector` among those with any of `tokens` (null:
   * all), best first; ties by id, highest first, as Convex orders them. Rows are read one at a time
   * and only the best `limit` kept.
   */
  search(
    index: IndexDefinition,
    vector: readonly number[],
    tokens: string[] | null,
    limit: number,
  ): VectorResult[] {
    if (limit === 0) return [];
    const query = Float32Array.from(float32s(normalized(vector)));
    const best: VectorResult[] = [];
    const seen = new Set<string>();
    const consider = ([id, blob]: [string, Buffer]) => {
      if (tokens && tokens.length > 1) {
        if (seen.has(id)) return;
        seen.add(id);
      }
      const stored = float32s(blob);
      let dot = 0;
      for (let i = 0; i < stored.length; i++) dot += stored[i] * query[i];
      const result = { _id: id, _score: Math.fround(dot) };
      if (best.length === limit && !before(result, best[limit - 1])) return;
      let at = best.length;
      while (at > 0 && before(result, best[at - 1])) at--;
      best.splice(at, 0, result);
      if (best.length > limit) best.pop();
    };
    if (tokens === null) {
      for (const row of this.statements.all.iterate(index.id)) consider(row);
    } else {
      for (const token of tokens)
        for (const row of this.statements.filtered.iterate(index.id, token)) consider(row);
    }
    return best;
  }
}

/** Whether `a` ranks above `b`: a higher score, or the same and a higher id. */
function before(a: VectorResult, b: VectorResult): boolean {
  return a._score !== b._score ? a._score > b._score : a._id > b._id;
}
