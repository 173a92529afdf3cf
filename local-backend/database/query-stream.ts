/**
 * A query's stream: its source read in batches, with its filters and limit applied. It may also read
 * ahead for a function in an isolate (`readAhead`): those rows are the function's, in its read set
 * and against its limits, only once it says it has consumed them (`consume`).
 */
import { IndexRow } from "../storage/document.ts";
import type { SqliteStore } from "./store.ts";
import type { KeyRange, RangeSource } from "../storage/read-set.ts";
import { evaluateExpression } from "./filters.ts";
import type { QueryJson, Source } from "./index-range.ts";

/** What a stream reads its source with: the store, or an isolate's own connection (decision 092). */
export type IndexScanner = Pick<SqliteStore, "scan">;

/** Reads a source in batches, applying the query's filters and limit. */
export class QueryStream implements RangeSource {
  private buffer: IndexRow[] = [];
  private readonly filtered: boolean;
  private lastKey: Buffer | null;
  private exhausted = false;
  /** The function has read to the end of the source. */
  private reachedEnd = false;
  private batch = 8;
  private yielded = 0;
  private searchPosition = 0;
  /**
   * Results read ahead, not yet consumed: each with the source rows read to reach it (filtered-out
   * rows, then its own; `null` for the source's end). A result of `null` is the end of the stream.
   */
  private ahead: { row: IndexRow | null; source: (IndexRow | null)[] }[] = [];
  /** How many results read ahead the function has consumed so far. */
  consumedAhead = 0;
  /** The key of the last document read from the source (for cursors). */
  readKey: Buffer | null = null;
  /** The Convex size of the documents read from the source. */
  bytesRead = 0;

  constructor(
    private readonly store: IndexScanner,
    readonly source: Source,
    private readonly operators: QueryJson["operators"],
    private readonly after: Buffer | null,
    /** Told of each document read (null at the end); answers its size. */
    private readonly onRead: (row: IndexRow | null) => number,
    /** Results already given from before `after` (a stream an isolate began: decision 092). */
    yielded = 0,
  ) {
    this.yielded = yielded;
    this.lastKey = after;
    this.filtered = operators.some((op) => "filter" in op);
    // Search results are a list: their "key" is the position in it.
    if (source.type === "search" && after && after.length === 4)
      this.searchPosition = after.readUInt32BE(0) + 1;
    const limit = operators.find((op): op is { limit: number } => "limit" in op);
    if (limit && operators.every((op) => !("filter" in op)))
      this.batch = Math.max(1, Math.min(limit.limit, 256));
  }

  /** How many results the function has been given. */
  get yieldedCount(): number {
    return this.yielded;
  }

  get indexId(): number {
    return this.source.type === "index" ? this.source.index.id : -1;
  }

  /**
   * The keys the function has read: from where the stream started to the last key read, or to the
   * end of the range once it got there (Convex's read set). Null for a search or nothing read.
   */
  readRange(): KeyRange | null {
    const source = this.source;
    if (source.type !== "index") return null;
    const indexId = source.index.id;
    if (source.order === "asc") {
      const lower = this.after && Buffer.compare(this.after, source.lower) >= 0 ? this.after : source.lower;
      if (this.reachedEnd) return { indexId, lower, upper: source.upper, upperInclusive: false };
      return this.readKey ? { indexId, lower, upper: this.readKey, upperInclusive: true } : null;
    }
    const upper = this.after && Buffer.compare(this.after, source.upper) < 0 ? this.after : source.upper;
    if (this.reachedEnd) return { indexId, lower: source.lower, upper, upperInclusive: false };
    return this.readKey ? { indexId, lower: this.readKey, upper, upperInclusive: false } : null;
  }

  /** The next document of the source (before filters), or null at the end. */
  nextRaw(): IndexRow | null {
    const next = this.pull();
    this.take(next);
    return next;
  }

  /** The source's next row (null at its end), not yet read by the function. */
  private pull(): IndexRow | null {
    if (this.buffer.length === 0 && !this.exhausted) this.fill();
    return this.buffer.shift() ?? null;
  }

  /** The function reads `row` (null: the source's end): in its read range and told to `onRead`. */
  private take(row: IndexRow | null): void {
    if (row) {
      this.readKey = row.key;
      this.bytesRead += this.onRead(row);
    } else {
      this.reachedEnd = true;
      this.onRead(null);
    }
  }

  private fill(): void {
    const source = this.source;
    if (source.type === "search") {
      const start = this.searchPosition;
      const slice = source.docs.slice(start, start + 64);
      this.searchPosition += slice.length;
      this.buffer.push(...slice.map((json, i) => new IndexRow(positionKey(start + i), json)));
      if (this.searchPosition >= source.docs.length) this.exhausted = true;
      return;
    }
    const rows = this.store.scan(
      source.index,
      source.lower,
      source.upper,
      source.order,
      this.lastKey,
      this.batch,
    );
    if (rows.length < this.batch) this.exhausted = true;
    if (rows.length > 0) this.lastKey = rows[rows.length - 1].key;
    this.buffer.push(...rows);
    this.batch = Math.min(this.batch * 2, 1024);
  }

  /** Whether the row passes the filters (its document is parsed only when there are filters). */
  passes(row: IndexRow): boolean {
    if (!this.filtered) return true;
    const doc = row.doc;
    for (const op of this.operators) {
      if ("filter" in op && evaluateExpression(op.filter, doc) !== true) return false;
    }
    return true;
  }

  private get limit(): number | undefined {
    return this.operators.find((op): op is { limit: number } => "limit" in op)?.limit;
  }

  /** The next document passing the filters, within the limit; null at the end. */
  next(): IndexRow | null {
    if (this.ahead.length > 0) return this.consume(1);
    const limit = this.limit;
    if (limit !== undefined && this.yielded >= limit) return null;
    for (;;) {
      const row = this.nextRaw();
      if (!row) return null;
      if (this.passes(row)) {
        this.yielded += 1;
        return row;
      }
    }
  }

  /**
   * Reads up to `count` results ahead of the function (null for the end) without making them its own:
   * nothing reaches the read range or `onRead` until `consume`. `admit` is asked before each source
   * row is read ahead (it keeps what is read ahead within the function's limits); the first it refuses
   * ends the look-ahead, that row left for a later read.
   */
  readAhead(count: number, admit: (row: IndexRow) => boolean): (IndexRow | null)[] {
    const results: (IndexRow | null)[] = [];
    const limit = this.limit;
    const ended = () => this.ahead.length > 0 && this.ahead[this.ahead.length - 1].row === null;
    while (results.length < count && !ended()) {
      if (limit !== undefined && this.yielded + this.ahead.length >= limit) {
        this.ahead.push({ row: null, source: [] });
        results.push(null);
        break;
      }
      const source: (IndexRow | null)[] = [];
      let row: IndexRow | null;
      for (;;) {
        row = this.pull();
        if (row && !admit(row)) {
          // Put back, in order, what this result would have read.
          this.buffer.unshift(...(source as IndexRow[]), row);
          return results;
        }
        source.push(row);
        if (!row || this.passes(row)) break;
      }
      this.ahead.push({ row, source });
      results.push(row);
    }
    return results;
  }

  /** The function has consumed the next `count` results read ahead: they become its own. */
  consume(count: number): IndexRow | null {
    let last: IndexRow | null = null;
    for (const { row, source } of this.ahead.splice(0, count)) {
      this.consumedAhead += 1;
      for (const read of source) this.take(read);
      if (row) this.yielded += 1;
      last = row;
    }
    return last;
  }
}

function positionKey(position: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(position);
  return key;
}
