/**
 * The store the runtime uses: persistence (`storage/`) with its indexes kept (`index-catalog.ts`), text
 * search (`search.ts`), vector search (`vector-search.ts`), mutations' answers (`mutation-answers.ts`)
 * and the deployment's environment variables. One SQLite database (`<data dir>/data.sqlite3`; in
 * memory without a data folder).
 */
import type Database from "better-sqlite3";
import type { Value } from "convex/values";
import { prepareDataFolder } from "../core/files.ts";
import { tableFromId } from "../core/paths.ts";
import { localIdParts } from "../values/convex-ids.ts";
import type { Counters } from "../storage/counters.ts";
import type { Document } from "../storage/document.ts";
import { holdFolder } from "../storage/folder.ts";
import { finishLayout } from "../storage/layout.ts";
import type { StoreOptions } from "../storage/persistence.ts";
import { IndexedStore, type IndexDefinition } from "./index-catalog.ts";
import {
  ANSWER_PRUNE_BATCH,
  ANSWER_RETENTION_MS,
  MUTATION_ANSWERS_TABLE,
  prepareAnswerStatements,
  type RecordedAnswer,
} from "./mutation-answers.ts";
import { dropWordlessSearchRows } from "./search.ts";
import type { VectorResult } from "./vector-search.ts";

/**
 * The deployment's environment variables (`npx convex env`; `cli/env-vars.ts`): a table of their own
 * beside the documents (not a Convex table); functions see them as `process.env`, the CLI through
 * `_system/cli/queryEnvironmentVariables`.
 */
const ENVIRONMENT_VARIABLES_TABLE =
  "CREATE TABLE IF NOT EXISTS environment_variables (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID";
/** The (pseudo) table whose readers a change of the variables affects (the CLI's system queries). */
export const ENVIRONMENT_VARIABLES = "_environment_variables";

export class SqliteStore extends IndexedStore {
  private readonly answerStatements;
  /** Set when the data was created by this open (no earlier store or snapshot). */
  readonly fresh: boolean;

  private constructor(dir: string | null, options: StoreOptions, folderLock: Database.Database | null) {
    super(dir, options, folderLock);
    this.db.exec(ENVIRONMENT_VARIABLES_TABLE);
    this.db.exec(MUTATION_ANSWERS_TABLE);
    this.answerStatements = prepareAnswerStatements(this.db);
    this.fresh = finishLayout(this.db, dir, {
      importDocuments: (documents, counters) => this.importDocuments(documents, counters),
      dropWordlessSearchRows: () => dropWordlessSearchRows(this.db),
      flushNow: () => this.wal.flushNow(),
    });
    // Whatever opening wrote (layout, migrations, an imported snapshot) is on disk before it is used.
    this.wal.flushNow();
    this.removeUnnamedFiles();
  }

  /** Opens (or creates) the store in `dir`; in memory when `dir` is null. */
  static open(dir: string | null, options: StoreOptions = {}): SqliteStore {
    if (!dir) return new SqliteStore(null, options, null);
    prepareDataFolder(dir);
    const lock = holdFolder(dir);
    try {
      return new SqliteStore(dir, options, lock);
    } catch (e) {
      lock.close();
      throw e;
    }
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
    return this.searchEntries.search(index, query, filters, limit);
  }

  /**
   * The `limit` documents of a vector index most similar to `vector` among those with any of the
   * filter `tokens` (null: all), best first (`vector-search.ts`).
   */
  vectorSearch(
    index: IndexDefinition,
    vector: readonly number[],
    tokens: string[] | null,
    limit: number,
  ): VectorResult[] {
    return this.vectorEntries.search(index, vector, tokens, limit);
  }

  /** Writes documents of the root app as they are (ids and creation times kept), in one transaction. */
  importDocuments(documents: Iterable<Document>, counters?: Partial<Counters>): number {
    let count = 0;
    this.begin();
    try {
      for (const doc of documents) {
        const id = doc._id as string;
        const table = tableFromId(id);
        if (!table) continue;
        const existing = this.get(id);
        this.write("", table, existing?.doc ?? null, doc);
        count += 1;
        const counter = Number(localIdParts(id, table)?.counter ?? 0);
        if (counter >= this.counters.root.nextDocId) this.counters.root.nextDocId = counter + 1;
        if (
          typeof doc._creationTime === "number" &&
          doc._creationTime > this.counters.root.lastCreationTime
        ) {
          this.counters.root.lastCreationTime = doc._creationTime;
        }
      }
      if (counters?.nextDocId)
        this.counters.root.nextDocId = Math.max(this.counters.root.nextDocId, counters.nextDocId);
      if (counters?.lastCreationTime) {
        this.counters.root.lastCreationTime = Math.max(
          this.counters.root.lastCreationTime,
          counters.lastCreationTime,
        );
      }
      this.commit();
    } catch (e) {
      this.rollback();
      throw e;
    }
    return count;
  }

  // -- Mutations' answers (decision 056; `mutation-answers.ts`) -------------------------------

  /** The answer recorded for a session's request, or null. */
  recordedAnswer(sessionId: string, requestId: number): RecordedAnswer | null {
    const row = this.answerStatements.get.get(sessionId, requestId);
    return row ? { result: row[0], logLines: JSON.parse(row[1]) as string[] } : null;
  }

  /**
   * Records a mutation's answer in the open transaction (committed with its writes or not at all),
   * and deletes a bounded batch of answers older than `ANSWER_RETENTION_MS`.
   */
  recordAnswer(sessionId: string, requestId: number, answer: RecordedAnswer, now = Date.now()): void {
    if (!this.inTransaction()) throw new Error("An answer is recorded inside its mutation's transaction");
    this.answerStatements.put.run(sessionId, requestId, now, answer.result, JSON.stringify(answer.logLines));
    this.answerStatements.prune.run(now - ANSWER_RETENTION_MS, ANSWER_PRUNE_BATCH);
  }

  // -- Deployment environment variables (`ENVIRONMENT_VARIABLES_TABLE`) ------------------------

  /** The deployment's environment variables, by name. */
  environmentVariables(): { name: string; value: string }[] {
    return this.db.prepare("SELECT name, value FROM environment_variables ORDER BY name").all() as {
      name: string;
      value: string;
    }[];
  }

  /**
   * Sets (a string value) or removes (null) variables, all or none: inside the caller's transaction
   * (a savepoint), committed and published with it; else on disk when this returns (at start).
   */
  updateEnvironmentVariables(changes: { name: string; value: string | null }[]): void {
    const set = this.db.prepare<[string, string]>(
      "INSERT INTO environment_variables (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    );
    const remove = this.db.prepare<[string]>("DELETE FROM environment_variables WHERE name = ?");
    this.begin();
    try {
      for (const { name, value } of changes) {
        if (value === null) remove.run(name);
        else set.run(name, value);
      }
      this.noteTablesWritten([ENVIRONMENT_VARIABLES]);
      this.commit();
    } catch (e) {
      this.rollback();
      throw e;
    }
  }
}
