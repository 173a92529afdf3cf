/**
 * The index catalog: the indexes of every table (the schema's, plus `by_creation_time` and `by_id`),
 * kept in step with each schema (new ones built from the table's documents, as a push to Convex
 * backfills) and with every write, so that persistence below holds each database index as byte keys,
 * each search index as FTS5 rows (`search.ts`) and each vector index as vectors (`vector-search.ts`).
 */
import type Database from "better-sqlite3";
import type { IndexKey } from "../storage/read-set.ts";
import { parseDocument, type ComponentPath, type Document } from "../storage/document.ts";
import { SqlitePersistence, type StoreOptions } from "../storage/persistence.ts";
import { toConvexJsonText } from "../values/convex-json.ts";
import { AFTER, compareValues, encodeKey, fieldValue } from "../values/values.ts";
import { SEARCH_TABLES, SearchEntries } from "./search.ts";
import { VECTOR_TABLES, VectorEntries, type VectorIndexSpec } from "./vector-search.ts";

export type IndexDefinition = {
  id: number;
  component: ComponentPath;
  table: string;
  name: string;
  kind: "db" | "search" | "vector";
  /** Database indexes: the declared fields (then `_creationTime`, `_id` are appended). */
  fields: string[];
  /** Search indexes. */
  searchField?: string;
  /** Search and vector indexes. */
  filterFields?: string[];
  /** Vector indexes. */
  vectorField?: string;
  dimensions?: number;
};

/** What the schema declares for one table's indexes. */
export type TableIndexes = {
  table: string;
  indexes: { indexDescriptor: string; fields: string[] }[];
  searchIndexes: { indexDescriptor: string; searchField: string; filterFields: string[] }[];
  /** Staged ones are not built. */
  vectorIndexes?: VectorIndexSpec[];
  /** Indexes declared `staged: true`: known, never built, refused to queries. */
  staged?: string[];
};

/** The key of `doc` in a database index over `fields`. */
export function indexKey(index: IndexDefinition, doc: Document): Buffer {
  if (index.name === "by_id") return encodeKey([doc._id]);
  const values = index.fields.map((field) => fieldValue(doc, field));
  values.push(doc._creationTime, doc._id);
  return encodeKey(values);
}

/** Whether two versions of a document have the same value at `field` (so the same bytes in a key). */
function sameField(a: Document, b: Document, field: string): boolean {
  const x = fieldValue(a, field);
  const y = fieldValue(b, field);
  return x === y || compareValues(x, y) === 0;
}

/** Every key that starts with `prefix`: [prefix, prefix ‖ 0xff). */
export function prefixRange(prefix: Buffer): { lower: Buffer; upper: Buffer } {
  return { lower: prefix, upper: Buffer.concat([prefix, Buffer.from([AFTER])]) };
}

/** Index definitions by table (`definition` is the JSON of an `IndexDefinition`). */
const INDEXES_TABLE = `
  CREATE TABLE IF NOT EXISTS indexes (
    id INTEGER PRIMARY KEY,
    component TEXT NOT NULL,
    table_name TEXT NOT NULL,
    name TEXT NOT NULL,
    definition TEXT NOT NULL,
    UNIQUE (component, table_name, name)
  );
`;

function prepareCatalogStatements(db: Database.Database) {
  return {
    indexRows: db.prepare<[], { id: number; definition: string }>("SELECT id, definition FROM indexes"),
    insertIndex: db.prepare<[string, string, string]>(
      "INSERT INTO indexes (component, table_name, name, definition) VALUES (?, ?, ?, '') RETURNING id",
    ),
    setIndexDefinition: db.prepare<[string, number]>("UPDATE indexes SET definition = ? WHERE id = ?"),
    deleteIndex: db.prepare<[number]>("DELETE FROM indexes WHERE id = ?"),
  };
}

/** The statements of one connection above persistence's own. */
type CatalogStatements = {
  catalog: ReturnType<typeof prepareCatalogStatements>;
  search: SearchEntries;
  vectors: VectorEntries;
};

/** Persistence with its indexes kept: every write updates each index of its table. */
export class IndexedStore extends SqlitePersistence {
  private readonly indexes = new Map<string, IndexDefinition[]>();
  /** Bumped whenever the index definitions change (what an isolate was given of them is then old). */
  catalogVersion = 0;
  /** Each connection's statements, prepared the first time they run on it. */
  private readonly connectionStatements = new WeakMap<Database.Database, CatalogStatements>();

  protected constructor(dir: string | null, options: StoreOptions, folderLock: Database.Database | null) {
    super(dir, options, folderLock);
    this.db.exec(INDEXES_TABLE + SEARCH_TABLES + VECTOR_TABLES);
    this.reloadCatalog();
  }

  private get ownStatements(): CatalogStatements {
    let statements = this.connectionStatements.get(this.db);
    if (!statements) {
      statements = {
        catalog: prepareCatalogStatements(this.db),
        search: new SearchEntries(this.db),
        vectors: new VectorEntries(this.db),
      };
      this.connectionStatements.set(this.db, statements);
    }
    return statements;
  }

  private get catalog() {
    return this.ownStatements.catalog;
  }

  protected get searchEntries(): SearchEntries {
    return this.ownStatements.search;
  }

  protected get vectorEntries(): VectorEntries {
    return this.ownStatements.vectors;
  }

  // -- Indexes ---------------------------------------------------------------------------------

  /** Reads the index definitions (again: after a rollback undid a change to them). */
  protected override reloadCatalog(): void {
    this.catalogVersion += 1;
    this.indexes.clear();
    for (const row of this.catalog.indexRows.all()) {
      if (!row.definition) continue;
      const definition = { ...(JSON.parse(row.definition) as IndexDefinition), id: row.id };
      const key = `${definition.component}\0${definition.table}`;
      const list = this.indexes.get(key) ?? [];
      list.push(definition);
      this.indexes.set(key, list);
    }
  }

  /** The indexes of a table (creating its system indexes the first time it is used). */
  tableIndexes(component: ComponentPath, table: string): IndexDefinition[] {
    const key = `${component}\0${table}`;
    let list = this.indexes.get(key);
    if (!list) {
      for (const name of ["by_id", "by_creation_time"]) {
        this.createIndex({ component, table, name, kind: "db", fields: name === "by_id" ? [] : [] });
      }
      list = this.indexes.get(key)!;
    }
    return list;
  }

  /** Whether the table has been used (written, read, or given indexes), without creating it. */
  hasTable(component: ComponentPath, table: string): boolean {
    return this.indexes.has(`${component}\0${table}`);
  }

  /** The database indexes (`kind: "db"`) of every table of `component` used so far. */
  databaseIndexes(component: ComponentPath): IndexDefinition[] {
    const prefix = `${component}\0`;
    return [...this.indexes]
      .filter(([key]) => key.startsWith(prefix))
      .flatMap(([, list]) => list.filter((index) => index.kind === "db"));
  }

  index(component: ComponentPath, table: string, name: string): IndexDefinition | undefined {
    return this.tableIndexes(component, table).find((index) => index.name === name);
  }

  private createIndex(definition: Omit<IndexDefinition, "id">): IndexDefinition {
    this.catalogChanged = true;
    this.catalogVersion += 1;
    const { id } = this.catalog.insertIndex.get(definition.component, definition.table, definition.name) as {
      id: number;
    };
    const full = { ...definition, id };
    this.catalog.setIndexDefinition.run(JSON.stringify(full), id);
    const key = `${definition.component}\0${definition.table}`;
    const list = this.indexes.get(key) ?? [];
    list.push(full);
    this.indexes.set(key, list);
    return full;
  }

  private dropIndex(index: IndexDefinition): void {
    this.catalogChanged = true;
    this.catalogVersion += 1;
    if (index.kind === "search") this.searchEntries.drop(index);
    else if (index.kind === "vector") this.vectorEntries.drop(index);
    else this.statements.deleteIndexEntries.run(index.id);
    this.catalog.deleteIndex.run(index.id);
  }

  /**
   * Makes the stored indexes of `component` those `tables` declare: new or changed indexes are
   * built from the table's documents (a schema change, as a push to Convex backfills), removed ones
   * dropped. Returns the names of the indexes built.
   */
  syncIndexes(component: ComponentPath, tables: TableIndexes[]): string[] {
    const built: string[] = [];
    const declared = new Map<string, Omit<IndexDefinition, "id">>();
    for (const table of tables) {
      for (const index of table.indexes) {
        declared.set(`${table.table}.${index.indexDescriptor}`, {
          component,
          table: table.table,
          name: index.indexDescriptor,
          kind: "db",
          fields: index.fields,
        });
      }
      for (const index of table.searchIndexes) {
        declared.set(`${table.table}.${index.indexDescriptor}`, {
          component,
          table: table.table,
          name: index.indexDescriptor,
          kind: "search",
          fields: [],
          searchField: index.searchField,
          filterFields: index.filterFields,
        });
      }
      for (const index of table.vectorIndexes ?? []) {
        if (index.staged) continue;
        declared.set(`${table.table}.${index.indexDescriptor}`, {
          component,
          table: table.table,
          name: index.indexDescriptor,
          kind: "vector",
          fields: [],
          vectorField: index.vectorField,
          dimensions: index.dimensions,
          filterFields: index.filterFields,
        });
      }
    }
    this.db.transaction(() => {
      for (const [key, list] of this.indexes) {
        if (!key.startsWith(`${component}\0`)) continue;
        for (const index of [...list]) {
          if (index.name === "by_id" || index.name === "by_creation_time") continue;
          const wanted = declared.get(`${index.table}.${index.name}`);
          const same =
            wanted &&
            wanted.kind === index.kind &&
            JSON.stringify(wanted.fields) === JSON.stringify(index.fields) &&
            wanted.searchField === index.searchField &&
            JSON.stringify(wanted.filterFields) === JSON.stringify(index.filterFields) &&
            wanted.vectorField === index.vectorField &&
            wanted.dimensions === index.dimensions;
          if (same) {
            declared.delete(`${index.table}.${index.name}`);
          } else {
            this.dropIndex(index);
            list.splice(list.indexOf(index), 1);
          }
        }
      }
      for (const [name, definition] of declared) {
        this.tableIndexes(component, definition.table);
        const index = this.createIndex(definition);
        for (const { value } of this.statements.tableDocuments.all(component, definition.table)) {
          this.addToIndex(index, parseDocument(value));
        }
        built.push(name);
      }
    })();
    this.wal.flushNow();
    return built;
  }

  /** Adds `doc` to `index` (a schema change's backfill). */
  private addToIndex(index: IndexDefinition, doc: Document): void {
    if (index.kind === "db") this.statements.putEntry.run(index.id, indexKey(index, doc), doc._id as string);
    else if (index.kind === "vector") this.vectorEntries.add(index, doc);
    else this.searchEntries.add(index, doc);
  }

  /**
   * Moves a document's entry in `index` from `previous` to `next` (either null: none), leaving it
   * alone when its key (or search text and filters) did not change; returns the database index keys
   * involved, changed or not (the write set: readers of either key may see a different document). A
   * key left in place is returned unencoded, as the function that encodes it (`WriteSet.keysOf`).
   */
  private updateIndex(
    index: IndexDefinition,
    id: string,
    previous: Document | null,
    next: Document | null,
  ): IndexKey[] {
    if (index.kind === "search") {
      this.searchEntries.update(index, id, previous, next);
      return [];
    }
    if (index.kind === "vector") {
      this.vectorEntries.update(index, id, previous, next);
      return [];
    }
    // A change that leaves the index's fields (and the id and creation time) alone keeps the entry.
    if (
      previous &&
      next &&
      previous._id === next._id &&
      previous._creationTime === next._creationTime &&
      index.fields.every((field) => sameField(previous, next, field))
    ) {
      return [() => indexKey(index, next)];
    }
    const before = previous && indexKey(index, previous);
    const after = next && indexKey(index, next);
    if (before && after && before.equals(after)) return [after];
    if (before) this.statements.deleteEntry.run(index.id, before);
    if (after) this.statements.putEntry.run(index.id, after, id);
    return [before, after].filter((key) => key !== null);
  }

  /**
   * Writes a document (`next` null: deletes it), keeping every index of its table in step. `previous`
   * is the document as stored (null for an insert). Must run inside a transaction.
   */
  write(component: ComponentPath, table: string, previous: Document | null, next: Document | null): void {
    if (!this.inTransaction()) throw new Error("Write outside a transaction");
    const written = next ?? previous;
    if (!written) return;
    const id = written._id as string;
    if (next) {
      this.statements.putDocument.run(id, component, table, toConvexJsonText(next));
    } else {
      this.statements.deleteDocument.run(id);
    }
    const keys: [number, IndexKey][] = [];
    for (const index of this.tableIndexes(component, table)) {
      for (const key of this.updateIndex(index, id, previous, next)) keys.push([index.id, key]);
    }
    const delta = (next ? 1 : 0) - (previous ? 1 : 0);
    if (delta !== 0) this.statements.addCount.run(component, table, delta);
    this.writeSets.at(-1)!.addDocument(table, id, keys);
  }
}
