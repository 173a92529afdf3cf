/**
 * Pages of a query (`.paginate()`) and of a table (the CLI's `convex data`): cursors are index keys
 * (base64url), so a page's end stays put while documents come and go around it.
 */
import type { Value } from "convex/values";
import type { ComponentPath, IndexRow } from "../storage/document.ts";
import type { SqliteStore } from "./store.ts";
import { AFTER } from "../values/values.ts";
import { LimitError, TRANSACTION_LIMITS } from "../values/limits.ts";
import type { QueryStream } from "./query-stream.ts";

export const END_CURSOR = "_end_cursor";

export function encodeCursor(key: Buffer): string {
  return key.toString("base64url");
}

export function decodeCursor(cursor: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(cursor))
    throw new Error(`InvalidCursor: ${cursor.slice(0, 40)} is not a cursor of this query`);
  return Buffer.from(cursor, "base64url");
}

export type PageRequest = {
  cursor: string | null;
  /** Where the page must end (a re-run of a page keeps its end: the query journal). */
  endCursor: string | null;
  pageSize: number;
  maximumRowsRead: number | null;
  maximumBytesRead: number | null;
};

/**
 * Reads one page from the stream `open` gives (starting after `after`): the `queryPage` answer as
 * JSON text (documents as stored), and the cursor it continues at (null: nothing was read).
 */
export function readPage(
  open: (after: Buffer | null) => QueryStream,
  { cursor, endCursor, pageSize, maximumRowsRead, maximumBytesRead }: PageRequest,
): { json: string; continueCursor: string | null } {
  if (maximumRowsRead === 0 || maximumBytesRead === 0)
    throw new LimitError(
      "InvalidPaginationLimit",
      "maximumRowsRead and maximumBytesRead must be greater than 0",
    );
  const page: IndexRow[] = [];
  const answer = (rest: {
    isDone: boolean;
    continueCursor: string;
    splitCursor: string | null;
    pageStatus: string | null;
  }) => `{"page":[${page.map((row) => row.json).join(",")}],${JSON.stringify(rest).slice(1)}`;
  if (cursor === END_CURSOR) {
    return {
      json: answer({ isDone: true, continueCursor: END_CURSOR, splitCursor: null, pageStatus: null }),
      continueCursor: null,
    };
  }
  const stream = open(cursor ? decodeCursor(cursor) : null);
  const order = stream.source.order;
  const endKey = endCursor && endCursor !== END_CURSOR ? decodeCursor(endCursor) : null;
  let rowsRead = 0;
  let continueCursor = END_CURSOR;
  let pageStatus: string | null = null;
  const readCursors: string[] = [];
  for (;;) {
    let row: IndexRow | null;
    try {
      row = stream.nextRaw();
    } catch (e) {
      // A read limit of the transaction ends the page where it got to (Convex's SplitRequired).
      if (!(e instanceof LimitError && e.paginationLimit && readCursors.length > 0)) throw e;
      pageStatus = "SplitRequired";
      continueCursor = readCursors[readCursors.length - 1];
      break;
    }
    if (!row) break;
    const key = row.key;
    if (endKey) {
      const cmp = Buffer.compare(key, endKey) * (order === "asc" ? 1 : -1);
      if (cmp > 0) {
        continueCursor = endCursor!;
        break;
      }
    }
    rowsRead += 1;
    readCursors.push(encodeCursor(key));
    if (stream.passes(row)) page.push(row);
    if (endKey && Buffer.compare(key, endKey) === 0) {
      continueCursor = endCursor!;
      break;
    }
    if (maximumRowsRead !== null && rowsRead >= maximumRowsRead) {
      pageStatus = "SplitRequired";
      continueCursor = encodeCursor(key);
      break;
    }
    // Convex checks the bytes before reading on: a page that is full does not read on.
    if (
      !endCursor &&
      maximumBytesRead !== null &&
      page.length < pageSize &&
      stream.bytesRead >= maximumBytesRead
    ) {
      pageStatus = "SplitRequired";
      continueCursor = encodeCursor(key);
      break;
    }
    if (!endCursor && page.length >= pageSize) {
      // Convex stops at a full page without looking further: a page that happens to end the range
      // is not done, the next (empty) one is.
      continueCursor = encodeCursor(key);
      break;
    }
  }
  if (endCursor && continueCursor === END_CURSOR && endCursor !== END_CURSOR) continueCursor = endCursor;
  let splitCursor: string | null = null;
  if (pageStatus === "SplitRequired" && readCursors.length >= 2) {
    splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
  } else if (
    pageStatus === null &&
    (rowsRead > pageSize + 1 || stream.bytesRead > softBytesLimit(maximumBytesRead)) &&
    readCursors.length >= 2
  ) {
    pageStatus = "SplitRecommended";
    splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
  }
  return {
    json: answer({ isDone: continueCursor === END_CURSOR, continueCursor, splitCursor, pageStatus }),
    continueCursor,
  };
}

/** Past three quarters of the bytes a page may read, Convex recommends splitting it. */
function softBytesLimit(maximumBytesRead: number | null): number {
  return Math.floor((Math.min(maximumBytesRead ?? Infinity, TRANSACTION_LIMITS.bytesRead) * 3) / 4);
}

/** A page of a table's documents by creation time (the CLI's `convex data`). */
export function pageOfTable(
  store: SqliteStore,
  component: ComponentPath,
  table: string,
  order: "asc" | "desc",
  cursor: string | null,
  numItems: number,
): Value {
  if (cursor === END_CURSOR) return { page: [], isDone: true, continueCursor: END_CURSOR };
  const index = store.index(component, table, "by_creation_time")!;
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = store.scan(index, Buffer.alloc(0), Buffer.from([AFTER]), order, after, numItems + 1);
  const page = rows.slice(0, numItems);
  const isDone = rows.length <= numItems;
  return {
    page: page.map((row) => row.doc),
    isDone,
    continueCursor: isDone || page.length === 0 ? END_CURSOR : encodeCursor(page[page.length - 1].key),
  };
}
