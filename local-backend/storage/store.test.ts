import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { GenericId } from "convex/values";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SqliteStore } from "../database/store.ts";
import type { TableIndexes } from "../database/index-catalog.ts";
import type { Document } from "./document.ts";
import { FolderInUseError } from "./folder.ts";
import type { FlushFile } from "./wal.ts";
import { readDatabaseCopy } from "../conformance/test-helpers.ts";

const NOTES: TableIndexes = {
  table: "notes",
  indexes: [],
  searchIndexes: [{ indexDescriptor: "search_body", searchField: "body", filterFields: ["rank"] }],
};

function note(n: number, body: string, rank = 0): Document {
  return { _id: `${n}notes` as GenericId<"notes">, _creationTime: n, body, rank };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new data folder, removed after the test. */
function newDir(prefix = "store-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function open(dir: string | null = null, flushFile?: FlushFile): SqliteStore {
  const store = SqliteStore.open(dir, { flushFile });
  store.syncIndexes("", [NOTES]);
  return store;
}

function write(store: SqliteStore, previous: Document | null, next: Document | null): void {
  store.begin();
  store.write("", "notes", previous, next);
  store.commit();
}

function committedNotes(dir: string): number {
  return readDatabaseCopy(
    dir,
    (db) =>
      (db.prepare("SELECT count(*) AS n FROM documents WHERE table_name = 'notes'").get() as { n: number }).n,
  );
}

/** Flushes that wait for the test: `finish()` ends the oldest one, with an error if given. */
function heldFlushes() {
  const held: ((error: Error | null) => void)[] = [];
  return {
    flushFile: ((_fd, done) => void held.push(done)) as FlushFile,
    held,
    finish(error: Error | null = null) {
      held.shift()!(error);
    },
  };
}

function searchRows(dir: string): number {
  return readDatabaseCopy(
    dir,
    (db) => (db.prepare("SELECT count(*) AS n FROM search_rows").get() as { n: number }).n,
  );
}

/** The id of a document as the store returns it (its JSON text). */
function idOf(json: string): string {
  return (JSON.parse(json) as { _id: string })._id;
}

function found(store: SqliteStore, query: string, rank = 0): string[] {
  const index = store.index("", "notes", "search_body")!;
  return store.search(index, query, [["rank", rank]], 10).map(idOf);
}

describe("search rows", () => {
  it("keeps none for a text without words, and one once the text has words", () => {
    const dir = newDir();
    const store = open(dir);
    try {
      write(store, null, note(1, ""));
      write(store, null, note(2, " — … "));
      write(store, null, note(3, "denim jackets"));
      expect(searchRows(dir)).toBe(1);
      // A filter field change of a wordless document touches no search row.
      write(store, note(1, ""), note(1, "", 1));
      expect(searchRows(dir)).toBe(1);
      write(store, note(1, "", 1), note(1, "vintage denim", 1));
      expect(found(store, "denim", 1)).toEqual(["1notes"]);
      expect(found(store, "denim", 0)).toEqual(["3notes"]);
      write(store, note(1, "vintage denim", 1), note(1, "", 1));
      expect(found(store, "denim", 1)).toEqual([]);
      expect(searchRows(dir)).toBe(1);
    } finally {
      store.close();
    }
  });

  it("drops the rows without words an earlier layout kept, once, and indexes those documents again when they get words", () => {
    const dir = newDir();
    const store = open(dir);
    write(store, null, note(1, "denim"));
    write(store, null, note(2, "hats"));
    write(store, null, note(3, "caps"));
    store.close();
    // Layout 2: every text had a row, empty and punctuation-only ones too.
    const db = new Database(path.join(dir, "data.sqlite3"));
    for (const [id, body] of [
      ["2notes", ""],
      ["3notes", " — … "],
    ]) {
      const row = db.prepare("SELECT row FROM search_rows WHERE document_id = ?").get(id) as { row: number };
      db.prepare("UPDATE search_entries SET body = ? WHERE rowid = ?").run(body, row.row);
      db.prepare("UPDATE documents SET value = ? WHERE id = ?").run(
        JSON.stringify({ ...note(Number.parseInt(id), body), _creationTime: Number.parseInt(id) }),
        id,
      );
    }
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'schemaVersion'").run();
    db.close();
    expect(searchRows(dir)).toBe(3);

    const reopened = open(dir);
    try {
      expect(searchRows(dir)).toBe(1);
      write(reopened, note(2, ""), note(2, "straw hats"));
      expect(found(reopened, "hats")).toEqual(["2notes"]);
      expect(found(reopened, "denim")).toEqual(["1notes"]);
    } finally {
      reopened.close();
    }
  });
});

describe("the documents table", () => {
  function documentsTable(dir: string): { sql: string; version: string } {
    return readDatabaseCopy(dir, (db) => ({
      sql: (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'documents'").get() as { sql: string })
        .sql,
      version: (db.prepare("SELECT value FROM meta WHERE key = 'schemaVersion'").get() as { value: string })
        .value,
    }));
  }

  function expectRowidTable(dir: string): void {
    const { sql, version } = documentsTable(dir);
    expect(sql).not.toMatch(/WITHOUT ROWID/i);
    expect(version).toBe("4");
  }

  it("moves the documents of layout 3 (a WITHOUT ROWID table) to a rowid table, every index still finding them", () => {
    const dir = newDir();
    const long = "denim ".repeat(700); // over a page: the records that made the old table slow
    const store = open(dir);
    write(store, null, note(1, long));
    write(store, null, note(2, "hats"));
    store.close();
    expectRowidTable(dir);
    // Layout 3, as the previous release left it.
    const db = new Database(path.join(dir, "data.sqlite3"));
    db.exec(`
      ALTER TABLE documents RENAME TO documents_new;
      DROP INDEX documents_by_table;
      CREATE TABLE documents (id TEXT PRIMARY KEY, component TEXT NOT NULL, table_name TEXT NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE INDEX documents_by_table ON documents (component, table_name, id);
      INSERT INTO documents SELECT id, component, table_name, value FROM documents_new;
      DROP TABLE documents_new;
      UPDATE meta SET value = '3' WHERE key = 'schemaVersion';
    `);
    db.close();
    expect(documentsTable(dir).sql).toMatch(/WITHOUT ROWID/);

    const reopened = open(dir);
    try {
      expectRowidTable(dir);
      expect(reopened.get("1notes")?.doc).toEqual(note(1, long));
      expect(found(reopened, "denim")).toEqual(["1notes"]);
      const byCreation = reopened.index("", "notes", "by_creation_time")!;
      const rows = reopened.scan(byCreation, Buffer.alloc(0), Buffer.from([0xff]), "asc", null, 10);
      expect(rows.map((row) => idOf(row.json))).toEqual(["1notes", "2notes"]);
      write(reopened, note(2, "hats"), note(2, "straw hats"));
      write(reopened, null, note(3, "caps"));
      expect(found(reopened, "hats")).toEqual(["2notes"]);
      expect(committedNotes(dir)).toBe(3);
    } finally {
      reopened.close();
    }
  });
});

describe("flushing commits to disk", () => {
  function commitLater(store: SqliteStore, doc: Document): void {
    store.begin();
    store.write("", "notes", null, doc);
    store.commitLater();
  }

  /** A store on disk whose flushes wait for the test. */
  async function withHeldFlushes(
    test: (store: SqliteStore, flushes: ReturnType<typeof heldFlushes>, dir: string) => Promise<void>,
  ): Promise<void> {
    const dir = newDir();
    const flushes = heldFlushes();
    const store = open(dir, flushes.flushFile);
    try {
      await test(store, flushes, dir);
    } finally {
      store.close();
    }
  }

  it("commits to the WAL at once, is durable once flushed, and shares one flush among the commits made during another", async () => {
    await withHeldFlushes(async (store, flushes, dir) => {
      commitLater(store, note(1, "one"));
      // Committed: a copy of the files as they are now has it (a crash of this process would keep it).
      expect(committedNotes(dir)).toBe(1);
      expect(flushes.held).toHaveLength(1);
      let firstDurable = false;
      void store.durable().then(() => (firstDurable = true));
      commitLater(store, note(2, "two"));
      commitLater(store, note(3, "three"));
      expect(flushes.held).toHaveLength(1);
      let allDurable = false;
      const all = store.durable().then(() => (allDurable = true));
      await Promise.resolve();
      expect(firstDurable).toBe(false);

      flushes.finish();
      await vi.waitFor(() => expect(firstDurable).toBe(true));
      // The next flush starts after the first: it covers the two commits made during it.
      await vi.waitFor(() => expect(flushes.held).toHaveLength(1));
      expect(allDurable).toBe(false);
      flushes.finish();
      await all;
      expect(flushes.held).toHaveLength(0);
    });
  });

  it("lays the WAL out once at its working size: commits, checkpoints included, write over it without growing it", () => {
    const dir = newDir();
    const walSize = () => statSync(path.join(dir, "data.sqlite3-wal")).size;
    const store = open(dir);
    try {
      write(store, null, note(1, "first"));
      const laidOut = walSize();
      // A checkpoint's worth of 4 KB pages, each with its frame header, and some to spare.
      expect(laidOut).toBeGreaterThan(1000 * (4096 + 24));
      // Enough commits for SQLite to checkpoint and start the WAL over more than once.
      for (let n = 2; n <= 600; n++) write(store, null, note(n, `note ${n}`));
      expect(walSize()).toBe(laidOut);
      // What a crash would leave has every commit: the zeros past the last one are not read as one.
      expect(committedNotes(dir)).toBe(600);
    } finally {
      store.close();
    }
  });

  it("opens a WAL of zeros only (laid out before SQLite wrote to it) as an empty one", () => {
    const dir = newDir();
    const first = open(dir);
    write(first, null, note(1, "kept"));
    first.close();
    // SQLite removed the WAL on closing; a new one, laid out before any frame, as after a crash.
    writeFileSync(path.join(dir, "data.sqlite3-wal"), Buffer.alloc(1100 * (4096 + 24)));
    const store = open(dir);
    try {
      expect(committedNotes(dir)).toBe(1);
      write(store, null, note(2, "added"));
      expect(committedNotes(dir)).toBe(2);
    } finally {
      store.close();
    }
    expect(committedNotes(dir)).toBe(2);
  });

  it("refuses every later write once a flush has failed, and says so to whoever waits", async () => {
    await withHeldFlushes(async (store, flushes) => {
      commitLater(store, note(1, "one"));
      const waiting = store.durable();
      flushes.finish(new Error("EIO: i/o error"));
      await expect(waiting).rejects.toThrow(
        "The database could not be written to disk (EIO: i/o error); restart the backend.",
      );
      await expect(store.durable()).rejects.toThrow("could not be written to disk");
      expect(() => store.begin()).toThrow("could not be written to disk");
    });
  });
});

describe("a query's read transaction", () => {
  it("refuses writes, keeps a nested transaction to a savepoint, and commits nothing when it ends", () => {
    const dir = newDir("store-read-");
    const store = open(dir);
    write(store, null, note(1, "first"));
    store.beginRead();
    expect(() => store.write("", "notes", null, note(2, "second"))).toThrow("Write outside a transaction");
    expect(() => store.beginRead()).toThrow("outside any transaction");
    // A component's query inside the read: a savepoint, undone, not the read's end.
    store.begin();
    store.write("", "notes", null, note(3, "third"));
    store.rollback();
    expect(store.inTransaction()).toBe(false);
    expect(store.get("3notes")).toBeNull();
    expect(store.get("1notes")?.doc.body).toBe("first");
    store.endRead();
    store.endRead();
    // Writes work again once the read has ended, and were not held by it.
    write(store, null, note(4, "fourth"));
    store.close();
    expect(committedNotes(dir)).toBe(2);
  });
});

describe("reset", () => {
  it("wipes a folder whose database cannot be read, but not one another store holds", () => {
    const broken = newDir();
    writeFileSync(path.join(broken, "data.sqlite3"), "not a database ".repeat(300));
    SqliteStore.reset(broken);
    expect(existsSync(broken)).toBe(false);

    const held = newDir();
    const store = open(held);
    try {
      write(store, null, note(1, "kept"));
      expect(() => SqliteStore.reset(held)).toThrow(FolderInUseError);
      expect(store.get("1notes")?.doc.body).toBe("kept");
    } finally {
      store.close();
    }
  });
});

describe("limits", () => {
  it("take each run's own limit, the same statements reused with another one every time", () => {
    const store = open();
    for (let n = 1; n <= 6; n++) write(store, null, note(n, `hats ${"x".repeat(n)}`));
    const byCreation = store.index("", "notes", "by_creation_time")!;
    const all = [Buffer.alloc(0), Buffer.from([0xff])] as const;
    const ids = (rows: { json: string }[]) => rows.map((row) => idOf(row.json));
    const afterFirst = store.scan(byCreation, ...all, "asc", null, 1)[0].key;
    const lastTwo = store.scan(byCreation, ...all, "desc", null, 2);
    for (const limit of [1, 4, 2, 6, 3, 1]) {
      expect(ids(store.scan(byCreation, ...all, "asc", null, limit))).toEqual(
        ["1notes", "2notes", "3notes", "4notes", "5notes", "6notes"].slice(0, limit),
      );
      expect(ids(store.scan(byCreation, ...all, "asc", afterFirst, limit))).toEqual(
        ["2notes", "3notes", "4notes", "5notes", "6notes"].slice(0, limit),
      );
      expect(ids(store.scan(byCreation, ...all, "desc", lastTwo[1].key, limit))).toEqual(
        ["4notes", "3notes", "2notes", "1notes"].slice(0, limit),
      );
      expect(
        store.search(store.index("", "notes", "search_body")!, "hats", [["rank", 0]], limit),
      ).toHaveLength(limit);
    }
    store.close();
  });
});
