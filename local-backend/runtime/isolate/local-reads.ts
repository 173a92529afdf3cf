/**
 * Inside an isolate: the reads a query or mutation makes of the database itself (decision 092), so that
 * they cost no crossing to the backend's thread. `db.get` of an app table and query streams over
 * database indexes read the database file on the isolate's own read-only connection, in a read
 * transaction that sees what the call's transaction sees: transactions take turns, and the backend
 * gives a call this (`LocalGrant`) only when it has read and written nothing yet, so nothing commits
 * and nothing is written while the call reads here.
 *
 * What is read here is counted against the call's limits with the backend's own meter, and a read that
 * would pass one is left to the backend's thread, which fails it in Convex's words. The reads are told
 * to the backend's thread with the call's next message (`LocalReport`), which notes them as its own
 * reads would be noted (read set, statistics, limits). The call's first syscall that crosses ends the
 * reading here: streams still open are handed on to the backend's thread, which continues each after
 * the last key read, so what follows (a write, a nested call) reads what the backend reads.
 */
import Database from "better-sqlite3";
import { tableFromId } from "../../core/paths.ts";
import type { IndexDefinition } from "../../database/index-catalog.ts";
import { resolveSource, splitIndexName, type QueryJson, type Source } from "../../database/index-range.ts";
import { QueryStream } from "../../database/query-stream.ts";
import type { IndexRow } from "../../storage/document.ts";
import { prepareStatements, scanIndex, type ScanArgs, type Statements } from "../../storage/statements.ts";
import { convexJsonSize } from "../../values/limits.ts";
import { AFTER, encodeKey } from "../../values/values.ts";
import { TransactionMeter } from "../../values/transaction-limits.ts";
import type { LocalGrant, LocalReport, LocalStreamReport } from "./protocol.ts";

type Connection = { db: Database.Database; statements: Statements };

/** One read-only connection per database file, opened the first time a call reads it (null: it cannot be). */
const connections = new Map<string, Connection | null>();

function connect(file: string): Connection | null {
  let connection = connections.get(file);
  if (connection === undefined) {
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
      connection = { db, statements: prepareStatements(db) };
    } catch {
      connection = null;
    }
    connections.set(file, connection);
  }
  return connection;
}

/** Each component's database indexes, by `table\0name`, as of the version the backend last gave. */
const catalogs = new Map<string, { version: number; indexes: Map<string, IndexDefinition> }>();

function catalogOf(grant: LocalGrant): Map<string, IndexDefinition> | null {
  if (grant.indexes) {
    const indexes = new Map(grant.indexes.map((index) => [`${index.table}\0${index.name}`, index]));
    catalogs.set(grant.component, { version: grant.catalogVersion, indexes });
  }
  const catalog = catalogs.get(grant.component);
  return catalog?.version === grant.catalogVersion ? catalog.indexes : null;
}

/**
 * Query ids of streams read here: far above the backend's own (which count up from 1 per
 * transaction), so that one handed on keeps its id there.
 */
let nextQueryId = 2 ** 30;

type LocalStream = { report: LocalStreamReport; query: QueryJson; stream: QueryStream };

/** The reads one call makes itself, from its first until its first crossing (`end`). */
export class LocalReads {
  private readonly meter = new TransactionMeter();
  private report: LocalReport = { gets: [], streams: [] };
  private readonly streams = new Map<number, LocalStream>();
  private reading = false;
  private ended = false;

  private constructor(
    private readonly grant: LocalGrant,
    private readonly connection: Connection,
    private readonly catalog: Map<string, IndexDefinition>,
  ) {
    this.meter.limits = { ...grant.limits };
  }

  /** The call's local reads, or null when its database cannot be read here. */
  static start(grant: LocalGrant): LocalReads | null {
    const catalog = catalogOf(grant);
    const connection = connect(grant.file);
    return connection && catalog ? new LocalReads(grant, connection, catalog) : null;
  }

  /** `getUserIdentity`'s answer. */
  identity(): string {
    this.report.identity = true;
    return this.grant.identity;
  }

  /** `db.get`'s answer, or undefined when the backend's thread must answer it. */
  get(args: { id?: unknown; table?: unknown; isSystem?: unknown }): string | undefined {
    const id = args.id;
    if (typeof id !== "string" || args.isSystem === true) return undefined;
    const table = tableFromId(id);
    // Ids that do not parse, another table's, system tables: the backend's thread says why.
    if (!table || table.startsWith("_") || (args.table !== undefined && args.table !== table))
      return undefined;
    const byId = this.catalog.get(`${table}\0by_id`);
    if (!byId) return undefined;
    this.begin();
    const row = this.connection.statements.getDocument.get(id);
    const visible = row !== undefined && row[0] === this.grant.component;
    const bytes = visible ? convexJsonSize(row[2]) : null;
    if (!this.admits(bytes === null ? 0 : 1, bytes ?? 0, 1)) return undefined;
    // As the backend's thread counts a get (database-syscalls.ts): the document, then its id's range.
    if (bytes !== null) this.meter.read(bytes);
    const key = encodeKey([id]);
    this.meter.range(byId.id, key, Buffer.concat([key, Buffer.from([AFTER])]));
    this.report.gets.push([table, id, bytes]);
    return visible ? row[2] : "null";
  }

  /** `queryStream`'s query id for a stream read here, or undefined when the backend's thread must open it. */
  open(args: { query?: QueryJson }): number | undefined {
    const query = args.query;
    if (!query || query.source.type === "Search") return undefined;
    const [table, indexName] =
      query.source.type === "FullTableScan"
        ? [query.source.tableName, "by_creation_time"]
        : splitIndexName(query.source.indexName);
    // An index the backend has not given (a table not used yet, a staged index): it says what to.
    if (table.startsWith("_") || !this.catalog.has(`${table}\0${indexName}`)) return undefined;
    let source: Source;
    try {
      ({ source } = resolveSource(this.catalogStore, this.grant.component, query));
    } catch {
      return undefined;
    }
    this.begin();
    const report: LocalStreamReport = { table, range: null, documents: 0, bytes: 0 };
    const stream: QueryStream = new QueryStream(this.scanner, source, query.operators, null, (row) => {
      // As the backend's thread counts a stream's reads (database-syscalls.ts, `openStream`).
      const bytes = row ? convexJsonSize(row.json) : 0;
      if (row) {
        this.meter.read(bytes);
        report.documents += 1;
        report.bytes += bytes;
      }
      const range = stream.readRange();
      if (range) this.meter.range(range.indexId, range.lower, range.upper);
      return bytes;
    });
    const queryId = nextQueryId++;
    this.streams.set(queryId, { report, query, stream });
    this.report.streams.push(report);
    return queryId;
  }

  /** Whether `queryId` is a stream read here. */
  has(queryId: number): boolean {
    return this.streams.has(queryId);
  }

  /**
   * `queryStreamNext`'s answer for a stream read here, or undefined when the next result would pass
   * a limit: then the backend's thread reads it (`end` hands the stream on), failing as it fails.
   */
  next(queryId: number): string | undefined {
    const { stream } = this.streams.get(queryId)!;
    // The stream's first read adds its range (counted against the limit on ranges).
    if (!stream.readRange() && !this.admits(0, 0, 1)) return undefined;
    let documents = 0;
    let bytes = 0;
    const admit = (row: IndexRow) => {
      documents += 1;
      bytes += convexJsonSize(row.json);
      return this.admits(documents, bytes, 0);
    };
    if (stream.readAhead(1, admit).length === 0) return undefined;
    const row = stream.consume(1);
    return row === null ? '{"value":null,"done":true}' : `{"value":${row.json},"done":false}`;
  }

  /** `queryCleanup` of a stream read here. */
  close(queryId: number): void {
    const local = this.streams.get(queryId);
    if (!local) return;
    local.report.range = hexRange(local.stream);
    this.streams.delete(queryId);
  }

  /**
   * Ends the reading here (at the call's first crossing, or its end): what was read, the streams still
   * open handed on to the backend's thread. Undefined when there is nothing to tell.
   */
  end(): LocalReport | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    for (const [queryId, { report, query, stream }] of this.streams) {
      report.range = hexRange(stream);
      report.open = {
        queryId,
        query,
        after: stream.readKey ? stream.readKey.toString("hex") : null,
        yielded: stream.yieldedCount,
      };
    }
    this.streams.clear();
    if (this.reading) {
      this.reading = false;
      try {
        this.connection.db.exec("COMMIT");
      } catch {
        // A read failed here (a damaged page): the backend's thread reads it again, and says so.
        try {
          if (this.connection.db.inTransaction) this.connection.db.exec("ROLLBACK");
        } catch {
          // Ended with the isolate.
        }
      }
    }
    const report = this.report;
    const empty = report.gets.length === 0 && report.streams.length === 0 && !report.identity;
    return empty ? undefined : report;
  }

  /** Whether reading `documents` more documents of `bytes` and `ranges` new ranges stays within the limits. */
  private admits(documents: number, bytes: number, ranges: number): boolean {
    const { limits } = this.meter;
    return (
      this.meter.documentsRead + documents <= limits.documentsRead &&
      this.meter.bytesRead + bytes <= limits.bytesRead &&
      this.meter.databaseQueries + ranges <= limits.databaseQueries
    );
  }

  /** The read transaction, begun at the call's first read here. */
  private begin(): void {
    if (this.reading) return;
    this.connection.db.exec("BEGIN");
    this.reading = true;
  }

  private readonly scanner = {
    scan: (...args: ScanArgs) => scanIndex(this.connection.statements, ...args),
  };

  private readonly catalogStore = {
    index: (_component: string, table: string, name: string) => this.catalog.get(`${table}\0${name}`),
    search: (): never => {
      throw new Error("A search is read by the backend's thread");
    },
  };
}

/** A stream's read range as a report tells it (keys in hex). */
function hexRange(stream: QueryStream): LocalStreamReport["range"] {
  const range = stream.readRange();
  return range
    ? [range.indexId, range.lower.toString("hex"), range.upper.toString("hex"), range.upperInclusive]
    : null;
}
