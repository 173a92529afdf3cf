/**
 * Text search, as Convex's search indexes answer it, over SQLite FTS5: a document's row holds the
 * searched text and its scope (the index, and a token per filter field's value), ranked by BM25.
 * The index catalog (`index-catalog.ts`) keeps a search index's rows in step with its table.
 */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { Value } from "convex/values";
import type { Document } from "../storage/document.ts";
import { BOUND_LIMIT } from "../storage/statements.ts";
import { encodeKey, fieldValue } from "../values/values.ts";
import type { IndexDefinition } from "./index-catalog.ts";

/** Convex returns at most this many search results. */
export const SEARCH_RESULT_CAP = 1024;
/** Convex uses at most this many terms of a search query. */
const MAX_SEARCH_TERMS = 16;

/** The search tables: FTS5's rows, and which row is a document's in an index. */
export const SEARCH_TABLES = `
  CREATE VIRTUAL TABLE IF NOT EXISTS search_entries USING fts5(
    body, scope, tokenize = "unicode61 remove_diacritics 0"
  );
  CREATE TABLE IF NOT EXISTS search_rows (
    index_id INTEGER NOT NULL,
    document_id TEXT NOT NULL,
    row INTEGER NOT NULL,
    PRIMARY KEY (index_id, document_id)
  ) WITHOUT ROWID;
`;

/**
 * A document's row in a search index: its text and scope tokens. Null when the field is not text or
 * has no word in it (no letter, digit or private-use character, which is what FTS5's unicode61
 * tokenizer keeps): no query can match such a document, so it needs no row, and a change to its
 * filter fields (the explore listings' `rank`, on every row but the one carrying the text) costs
 * nothing.
 */
type SearchEntry = { text: string; scope: string };

const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;

function searchEntry(index: IndexDefinition, doc: Document): SearchEntry | null {
  const text = fieldValue(doc, index.searchField!);
  if (typeof text !== "string" || !WORD_CHARACTER.test(text)) return null;
  const scope = [
    `i${index.id}`,
    ...(index.filterFields ?? []).map((f) => filterToken(f, fieldValue(doc, f))),
  ];
  return { text, scope: scope.join(" ") };
}

export function filterToken(field: string, value: Value | undefined): string {
  const hash = createHash("sha1")
    .update(field)
    .update("\0")
    .update(encodeKey([value]))
    .digest("hex");
  return `f${hash.slice(0, 24)}`;
}

/**
 * Search query terms as Convex reads them: words of letters and digits, lower-cased (accents are
 * kept: Convex's tokenizer does not fold them, so `pokemon` does not find "Pokémon").
 */
export function searchTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term.length > 0)
    .slice(0, MAX_SEARCH_TERMS);
}

/** The search statements of one connection (those that write fail on the read-only one). */
export class SearchEntries {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      searchRow: db.prepare<[number, string], { row: number }>(
        "SELECT row FROM search_rows WHERE index_id = ? AND document_id = ?",
      ),
      putSearchRow: db.prepare<[number, string, number | bigint]>(
        "INSERT INTO search_rows (index_id, document_id, row) VALUES (?, ?, ?)",
      ),
      deleteSearchRow: db.prepare<[number, string]>(
        "DELETE FROM search_rows WHERE index_id = ? AND document_id = ?",
      ),
      insertSearch: db.prepare<[string, string]>("INSERT INTO search_entries (body, scope) VALUES (?, ?)"),
      deleteSearch: db.prepare<[number]>("DELETE FROM search_entries WHERE rowid = ?"),
      searchIndexRows: db.prepare<[number], { row: number }>(
        "SELECT row FROM search_rows WHERE index_id = ?",
      ),
      search: db
        .prepare<[string, number], string>(
          `SELECT d.value FROM search_entries s
           JOIN search_rows r ON r.row = s.rowid JOIN documents d ON d.id = r.document_id
           WHERE search_entries MATCH ? ORDER BY bm25(search_entries, 1.0, 0.0), s.rowid ${BOUND_LIMIT}`,
        )
        .pluck(),
    };
  }

  /** Adds `doc` to `index` (a schema change's backfill). */
  add(index: IndexDefinition, doc: Document): void {
    this.put(index, doc._id as string, searchEntry(index, doc));
  }

  private put(index: IndexDefinition, id: string, entry: SearchEntry | null): void {
    if (!entry) return;
    const { lastInsertRowid } = this.statements.insertSearch.run(entry.text, entry.scope);
    this.statements.putSearchRow.run(index.id, id, lastInsertRowid);
  }

  private remove(index: IndexDefinition, id: string): void {
    const row = this.statements.searchRow.get(index.id, id);
    if (!row) return;
    this.statements.deleteSearch.run(row.row);
    this.statements.deleteSearchRow.run(index.id, id);
  }

  /** Moves a document's row in `index` from `previous` to `next`, unless its text and scope stay. */
  update(index: IndexDefinition, id: string, previous: Document | null, next: Document | null): void {
    const before = previous && searchEntry(index, previous);
    const after = next && searchEntry(index, next);
    if (before?.text !== after?.text || before?.scope !== after?.scope) {
      if (before) this.remove(index, id);
      this.put(index, id, after);
    }
  }

  /** Removes every row of a search index. */
  drop(index: IndexDefinition): void {
    for (const { row } of this.statements.searchIndexRows.all(index.id))
      this.statements.deleteSearch.run(row);
    this.db.prepare("DELETE FROM search_rows WHERE index_id = ?").run(index.id);
  }

  /**
   * Documents of a search index matching any of `query`'s terms (the last one as a prefix) whose
   * filter fields equal `filters`, best first (BM25), at most `limit`.
   */
  search(
    index: IndexDefinition,
    query: string,
    filters: [string, Value | undefined][],
    limit: number,
  ): string[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const quoted = terms.map(
      (term, i) => `"${term.replaceAll('"', '""')}"${i === terms.length - 1 ? "*" : ""}`,
    );
    const scope = [`i${index.id}`, ...filters.map(([field, value]) => filterToken(field, value))];
    const match = `body : (${quoted.join(" OR ")}) AND scope : (${scope.map((s) => `"${s}"`).join(" AND ")})`;
    return this.statements.search.all(match, limit);
  }
}

/**
 * Layout 2 kept a search row for every text, those without words too (the explore listings' rows but
 * one): drops them, by `searchEntry`'s own test, so that every row left is one it would keep. Runs in
 * the upgrade's transaction (`finishLayout`).
 */
export function dropWordlessSearchRows(db: Database.Database): void {
  db.function("has_word", { deterministic: true }, (body) =>
    typeof body === "string" && WORD_CHARACTER.test(body) ? 1 : 0,
  );
  db.exec(`
    DELETE FROM search_rows WHERE row IN (SELECT rowid FROM search_entries WHERE NOT has_word(body));
    DELETE FROM search_entries WHERE NOT has_word(body);
  `);
}
