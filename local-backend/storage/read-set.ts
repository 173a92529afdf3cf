/**
 * Read and write sets, as Convex keeps them: a query's read set is the index key ranges it scanned,
 * the documents it fetched by id, and the tables it read as a whole (search results, counts); a
 * committed transaction's write set is the index keys of every document version it removed or added.
 * A subscription re-runs only when a write lands inside what it read: a change to a scheduled show
 * does not re-run the live board, whose range is the live shows'.
 */

/** Keys in [lower, upper), or [lower, upper] when `upperInclusive`. */
export type KeyRange = { indexId: number; lower: Buffer; upper: Buffer; upperInclusive: boolean };

/** Something that can say, once the function is done, which key range it read (null: none). */
export interface RangeSource {
  readonly indexId: number;
  readRange(): KeyRange | null;
}

export class WriteSet {
  /** Every table written. */
  readonly tables = new Set<string>();
  /** Tables written without keys (imports, environment variables): every read of them is affected. */
  readonly wholeTables = new Set<string>();
  readonly ids = new Set<string>();
  /**
   * Index id -> keys of the document versions removed from or added to it. A key the write left in
   * place (the index's fields did not change) is kept as the function that encodes it, called only if
   * a reader of that index asks (`keysOf`): most writes leave most of their table's indexes alone.
   */
  private readonly keys = new Map<number, IndexKey[]>();

  static ofTables(tables: Iterable<string>): WriteSet {
    const writes = new WriteSet();
    for (const table of tables) {
      writes.tables.add(table);
      writes.wholeTables.add(table);
    }
    return writes;
  }

  get isEmpty(): boolean {
    return this.tables.size === 0;
  }

  addDocument(table: string, id: string, keys: Iterable<[number, IndexKey]>): void {
    this.tables.add(table);
    this.ids.add(id);
    for (const [indexId, key] of keys) {
      let list = this.keys.get(indexId);
      if (!list) this.keys.set(indexId, (list = []));
      list.push(key);
    }
  }

  merge(other: WriteSet): void {
    for (const table of other.tables) this.tables.add(table);
    for (const table of other.wholeTables) this.wholeTables.add(table);
    for (const id of other.ids) this.ids.add(id);
    for (const [indexId, keys] of other.keys) {
      const list = this.keys.get(indexId);
      if (list) list.push(...keys);
      else this.keys.set(indexId, [...keys]);
    }
  }

  /** The keys written in the index `indexId`. */
  keysOf(indexId: number): readonly Buffer[] {
    const list = this.keys.get(indexId);
    if (!list) return [];
    for (let i = 0; i < list.length; i++) {
      const key = list[i];
      if (typeof key === "function") list[i] = key();
    }
    return list as Buffer[];
  }
}

/** An index key, or the function that encodes it. */
export type IndexKey = Buffer | (() => Buffer);

function inRange(key: Buffer, range: KeyRange): boolean {
  if (Buffer.compare(key, range.lower) < 0) return false;
  const upper = Buffer.compare(key, range.upper);
  return upper < 0 || (upper === 0 && range.upperInclusive);
}

export class ReadSet {
  /** Every table read at all. */
  readonly tables = new Set<string>();
  /** Tables read as a whole (search results, counts). */
  readonly wholeTables = new Set<string>();
  readonly ids = new Set<string>();
  readonly ranges: KeyRange[] = [];
  /** Whether the function asked who is calling: if not, its result is the same for everyone. */
  identity = false;
  private sources: RangeSource[] = [];

  static ofTables(tables: Iterable<string>): ReadSet {
    const reads = new ReadSet();
    for (const table of tables) reads.addTable(table);
    return reads;
  }

  addTable(table: string): void {
    this.tables.add(table);
    this.wholeTables.add(table);
  }

  addId(table: string, id: string): void {
    this.tables.add(table);
    this.ids.add(id);
  }

  /** A query stream over an index; its range is taken when the function is done (`seal`). */
  addSource(table: string, source: RangeSource): void {
    this.tables.add(table);
    this.sources.push(source);
  }

  /** Turns the streams read into key ranges (call once the function is done). */
  seal(): this {
    for (const source of this.sources) {
      const range = source.readRange();
      if (range) this.ranges.push(range);
    }
    this.sources = [];
    return this;
  }

  /** Whether `writes` can change what was read. */
  overlaps(writes: WriteSet): boolean {
    for (const table of writes.wholeTables) if (this.tables.has(table)) return true;
    for (const table of this.wholeTables) if (writes.tables.has(table)) return true;
    if (this.ids.size > 0) {
      for (const id of writes.ids) if (this.ids.has(id)) return true;
    }
    for (const range of this.ranges) {
      for (const key of writes.keysOf(range.indexId)) if (inRange(key, range)) return true;
    }
    return false;
  }
}
