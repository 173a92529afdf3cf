/**
 * The database syscalls (`ctx.db`): reads through query streams and pages, writes checked against
 * the schema, each counted against the transaction's limits and noted in the call's read set.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { tableFromId } from "../core/paths.ts";
import type { ComponentPath, Document, IndexRow } from "../storage/document.ts";
import { AFTER, compareValues, encodeKey } from "../values/values.ts";
import {
  LimitError,
  convexJsonSize,
  identifierError,
  measureArgument,
  measureValue,
} from "../values/limits.ts";
import { checkDocument } from "../database/document-check.ts";
import { decodeOrUndefined, resolveSource, type QueryJson } from "../database/index-range.ts";
import { readPage } from "../database/pagination.ts";
import { QueryStream } from "../database/query-stream.ts";
import type { Transaction } from "../database/transaction.ts";
import { SYSCALL } from "./convex-abi.ts";
import {
  CONSUMED,
  OPEN_STREAM,
  READ_AHEAD,
  type Consumed,
  type LocalGrant,
  type LocalReport,
} from "./isolate/protocol.ts";
import { stagedIndexError } from "./schema.ts";
import { readsOf, transactionOf, type Execution, type Syscall } from "./execution.ts";
import type { Runner } from "./runner.ts";
import type { IndexDefinition } from "../database/index-catalog.ts";

/**
 * `docs` documents of `table` read, of `bytes` (their Convex size): one, checked against the limits,
 * or those an isolate read and checked itself (`checked` false: decision 092).
 */
function noteRead(
  execution: Execution,
  tx: Transaction,
  table: string,
  docs: number,
  bytes = 0,
  checked = true,
): void {
  if (docs > 0 && !table.startsWith("_")) {
    if (checked) tx.meter.read(bytes);
    else tx.meter.readChecked(docs, bytes);
  }
  const record = execution.record;
  if (record.active) {
    record.readTables.add(table);
    record.docsRead += docs;
  }
}

function writable(execution: Execution, what: string): Transaction {
  const tx = transactionOf(execution, what);
  if (execution.readOnly) throw new Error(`${what} is not allowed in a query`);
  return tx;
}

/** `db.get`'s index range: the id's own, in the table's `by_id` index. */
function noteIdRange(
  runner: Runner,
  execution: Execution,
  tx: Transaction,
  table: string,
  id: string,
  checked = true,
): void {
  const key = encodeKey([id]);
  const index = runner.store.index(execution.component, table, "by_id");
  tx.meter.range(
    index?.id ?? `${execution.component}\0${table}`,
    key,
    Buffer.concat([key, Buffer.from([AFTER])]),
    checked,
  );
}

function tableOf(id: string, table: string | undefined): string {
  const actual = tableFromId(id);
  if (!actual) throw new Error(`Invalid argument \`id\`, expected ID value but got '${id}'`);
  if (table !== undefined && table !== actual) {
    throw new Error(
      `Invalid argument \`id\`, expected ID in table '${table}' but got ID in table '${actual}'`,
    );
  }
  return actual;
}

/**
 * Convex's guard: a system table (`_storage`, `_scheduled_functions`) is read through `db.system`
 * only, and `db.system` reads only system tables.
 */
function systemTableGuard(table: string, isSystem: boolean): void {
  if (isSystem && !table.startsWith("_")) throw new Error("User tables cannot be accessed with db.system.");
  if (!isSystem && table.startsWith("_"))
    throw new Error("System tables can only be accessed with db.system.");
}

/** The version a write replaces: a read, as on Convex. */
function getDocument(runner: Runner, execution: Execution, id: string): Document | null {
  const stored = runner.store.get(id);
  const tx = execution.tx;
  if (tx) noteIdRange(runner, execution, tx, stored?.table ?? tableFromId(id) ?? "", id);
  if (!stored || stored.component !== execution.component) return null;
  if (tx) noteRead(execution, tx, stored.table, 1, measureValue(stored.doc).size);
  return stored.doc;
}

/** The document checked as every write is (`checkDocument`); returns its size. */
function checkWrite(runner: Runner, component: ComponentPath, table: string, doc: Document): number {
  return checkDocument(runner.component(component).validators.get(table), table, doc);
}

function openStream(
  runner: Runner,
  execution: Execution,
  tx: Transaction,
  query: QueryJson,
  after: Buffer | null,
  yielded = 0,
): QueryStream {
  if (query.source.type !== "FullTableScan") {
    const staged = stagedIndexError(runner.component(execution.component), query.source.indexName);
    if (staged) throw staged;
  }
  const { source, table } = resolveSource(runner.store, execution.component, query);
  noteRead(execution, tx, table, 0);
  const stream: QueryStream = new QueryStream(
    runner.store,
    source,
    query.operators,
    after,
    (row) => {
      const bytes = row ? convexJsonSize(row.json) : 0;
      if (row) noteRead(execution, tx, table, 1, bytes);
      const range = stream.readRange();
      if (range) tx.meter.range(range.indexId, range.lower, range.upper);
      return bytes;
    },
    yielded,
  );
  const reads = readsOf(execution);
  if (reads) {
    if (source.type === "index") reads.addSource(table, stream);
    else reads.addTable(table);
  }
  return stream;
}

/** The stream `queryId` of the call's transaction. */
function streamOf(execution: Execution, queryId: unknown): QueryStream {
  const stream = transactionOf(execution, "A database query").streams.get(queryId as number);
  if (!stream) throw new Error("Bad queryId");
  return stream;
}

/** `queryStreamNext`'s answer for `row` (null: the end). */
const nextAnswer = (row: IndexRow | null) =>
  row === null ? '{"value":null,"done":true}' : `{"value":${row.json},"done":false}`;

/** At most this many source rows are read ahead of a function per request, past filters. */
const READ_AHEAD_ROWS = 1024;

/**
 * What a query or mutation about to run in an isolate may read there itself (decision 092), or null:
 * only a call that has read and written nothing yet (so the database file as last committed is what
 * its transaction sees), on a store in a file, and not while reads run on the snapshot of a long write.
 * `known`: the version of the component's indexes the isolate was given last.
 */
export function localGrant(
  runner: Runner,
  execution: Execution,
  known: number | undefined,
): LocalGrant | null {
  const tx = execution.tx;
  const store = runner.store;
  const file = store.databaseFile;
  if (!tx || execution.kind === "http" || execution.kind === "action" || !file || store.readingSnapshot)
    return null;
  const { meter } = tx;
  if (meter.documentsRead > 0 || meter.databaseQueries > 0 || meter.documentsWritten > 0) return null;
  if (tx.streams.size > 0 || tx.paginated > 0 || store.writing) return null;
  const component = execution.component;
  const version = store.catalogVersion;
  let indexes: IndexDefinition[] | undefined;
  if (known !== version) {
    // Staged indexes are the backend's to refuse (`stagedIndexError`).
    const staged = new Set(
      runner
        .component(component)
        .tables.flatMap((table) => (table.staged ?? []).map((name) => `${table.table}.${name}`)),
    );
    indexes = store.databaseIndexes(component).filter((index) => !staged.has(`${index.table}.${index.name}`));
  }
  return {
    file,
    component,
    identity: JSON.stringify(convexToJson(execution.identity ?? null)),
    limits: { ...meter.limits },
    catalogVersion: version,
    ...(indexes && { indexes }),
  };
}

/** What an isolate read itself, noted as the reads here note theirs (read set, statistics, limits). */
function noteLocalReads(runner: Runner, execution: Execution, report: LocalReport): void {
  const tx = transactionOf(execution, "A database read");
  const reads = readsOf(execution);
  for (const [table, id, bytes] of report.gets) {
    noteRead(execution, tx, table, bytes === null ? 0 : 1, bytes ?? 0, false);
    noteIdRange(runner, execution, tx, table, id, false);
    reads?.addId(table, id);
  }
  for (const stream of report.streams) {
    noteRead(execution, tx, stream.table, stream.documents, stream.bytes, false);
    const range = stream.range && {
      indexId: stream.range[0],
      lower: Buffer.from(stream.range[1], "hex"),
      upper: Buffer.from(stream.range[2], "hex"),
      upperInclusive: stream.range[3],
    };
    if (range) tx.meter.range(range.indexId, range.lower, range.upper, false);
    reads?.addSource(stream.table, { indexId: range ? range.indexId : -1, readRange: () => range });
    if (stream.open) {
      // Handed on: continued here after the last key read there.
      const { queryId, query, after, yielded } = stream.open;
      const continued = openStream(
        runner,
        execution,
        tx,
        query,
        after === null ? null : Buffer.from(after, "hex"),
        yielded,
      );
      tx.streams.set(queryId, continued);
    }
  }
  if (report.identity && reads) reads.identity = true;
}

/** `queryStream`: a new stream of the transaction, by its query id. */
function newStream(runner: Runner, execution: Execution, args: Record<string, JSONValue>): number {
  const tx = transactionOf(execution, "A database query");
  const query = args.query as unknown as QueryJson;
  const stream = openStream(runner, execution, tx, query, null);
  tx.nextQueryId += 1;
  tx.streams.set(tx.nextQueryId, stream);
  return tx.nextQueryId;
}

/**
 * Up to `count` of the stream's results (`queryStreamNext`'s answers) read ahead of the function.
 * What is read ahead stays within the function's limits on documents and bytes read, so that
 * consuming it never passes one: the read that would is the next request's first, failing there as
 * it does without read-ahead.
 */
function readAhead(execution: Execution, stream: QueryStream, count: number): string[] {
  const { meter } = transactionOf(execution, "A database query");
  let documents = meter.documentsRead;
  let bytes = meter.bytesRead;
  let rows = 0;
  const admit = (row: IndexRow) => {
    documents += 1;
    bytes += convexJsonSize(row.json);
    rows += 1;
    return (
      rows <= READ_AHEAD_ROWS && documents <= meter.limits.documentsRead && bytes <= meter.limits.bytesRead
    );
  };
  return stream.readAhead(Math.min(count, READ_AHEAD_ROWS), admit).map(nextAnswer);
}

/** The synchronous database syscalls (`syscall`). */
export const databaseSyscalls: Record<string, Syscall<string>> = {
  [SYSCALL.queryStream]: (runner, execution, args) =>
    JSON.stringify({ queryId: newStream(runner, execution, args) }),
  // An isolate's `queryStream` (`args.args`) with its first `args.count` results read ahead.
  [OPEN_STREAM]: (runner, execution, args) => {
    const queryId = newStream(runner, execution, args.args as Record<string, JSONValue>);
    const ahead = readAhead(execution, streamOf(execution, queryId), args.count as number);
    return JSON.stringify({ queryId, ahead });
  },
  [SYSCALL.queryCleanup]: (_runner, execution, args) => {
    execution.tx?.streams.delete(args.queryId as number);
    return JSON.stringify({});
  },
  [SYSCALL.normalizeId]: (_runner, _execution, args) => {
    const id = args.idString as string;
    return JSON.stringify({ id: tableFromId(id) === args.table ? id : null });
  },
  [SYSCALL.getSnapshotTs]: () => JSON.stringify(convexToJson(BigInt(Date.now()) * 1_000_000n)),
  // An isolate's streams, consumed so far: what was read ahead becomes the function's up to there;
  // then those it closed are forgotten, as by `queryCleanup`. And what it read itself (decision 092).
  [CONSUMED]: (runner, execution, args) => {
    if (args.local) noteLocalReads(runner, execution, args.local as unknown as LocalReport);
    for (const [queryId, total, closed] of args.streams as Consumed) {
      const stream = execution.tx?.streams.get(queryId);
      if (stream && total > stream.consumedAhead) stream.consume(total - stream.consumedAhead);
      if (closed) execution.tx?.streams.delete(queryId);
    }
    return "null";
  },
};

/**
 * The database's syscalls for isolates (`jsSyscall`): a stream's next result, the function's now as
 * on `queryStreamNext`, then up to `count - 1` more read ahead (`readAhead`), each answered as
 * `queryStreamNext` answers.
 */
export const databaseJsSyscalls: Record<string, Syscall<string[]>> = {
  [READ_AHEAD]: (_runner, execution, args) => {
    const stream = streamOf(execution, args.queryId);
    const first = stream.next();
    const count = args.count as number;
    if (first === null || count <= 1) return [nextAnswer(first)];
    return [nextAnswer(first), ...readAhead(execution, stream, count - 1)];
  },
};

/**
 * The reads that return documents answer with the documents' stored JSON as it is (Convex's JSON
 * already), without parsing and re-serializing them.
 */
export const documentSyscalls: Record<string, Syscall<string>> = {
  [SYSCALL.get]: (runner, execution, args) => {
    const tx = transactionOf(execution, "ctx.db.get");
    const id = args.id as string;
    const table = tableOf(id, args.table as string | undefined);
    systemTableGuard(table, args.isSystem === true);
    const stored = runner.store.getJson(id);
    const visible = stored !== null && stored.component === execution.component;
    noteRead(execution, tx, table, visible ? 1 : 0, visible ? convexJsonSize(stored.json) : 0);
    noteIdRange(runner, execution, tx, table, id);
    readsOf(execution)?.addId(table, id);
    return visible ? stored.json : "null";
  },
  [SYSCALL.queryStreamNext]: (_runner, execution, args) =>
    nextAnswer(streamOf(execution, args.queryId).next()),
  [SYSCALL.queryPage]: (runner, execution, args) => {
    const tx = transactionOf(execution, "paginate()");
    tx.paginated += 1;
    if (tx.paginated > 1) {
      throw new Error(
        "Only a single paginated query (`.paginate()`) is allowed per function execution. Calling `.paginate()` more than once in a single Convex function fails at runtime in a deployed backend. This is a Convex limit: https://docs.convex.dev/database/pagination",
      );
    }
    const record = execution.record;
    let endCursor = (args.endCursor as string | null | undefined) ?? null;
    if (endCursor === null && record.active && record.journalEndCursor !== null)
      endCursor = record.journalEndCursor;
    const query = args.query as unknown as QueryJson;
    const { json, continueCursor } = readPage((after) => openStream(runner, execution, tx, query, after), {
      cursor: (args.cursor as string | null) ?? null,
      endCursor,
      pageSize: args.pageSize as number,
      maximumRowsRead: (args.maximumRowsRead as number | null | undefined) ?? null,
      maximumBytesRead: (args.maximumBytesRead as number | null | undefined) ?? null,
    });
    if (continueCursor !== null && record.active) record.observedEndCursor = continueCursor;
    return json;
  },
};

/** The other database syscalls (`asyncSyscall`). */
export const databaseAsyncSyscalls: Record<string, Syscall<Value | undefined>> = {
  [SYSCALL.count]: (runner, execution, args) => {
    const tx = transactionOf(execution, "count()");
    const table = args.table as string;
    noteRead(execution, tx, table, 0);
    readsOf(execution)?.addTable(table);
    return runner.store.count(execution.component, table);
  },
  [SYSCALL.insert]: (runner, execution, args) => {
    const tx = writable(execution, "ctx.db.insert");
    const table = args.table as string;
    if (typeof table !== "string" || table.startsWith("_")) {
      throw new Error(`Invalid table name "${String(table)}": system tables are written by the backend`);
    }
    const badName = identifierError(table);
    if (badName)
      throw new LimitError("InvalidArgument", `Invalid argument \`table\` for \`db.insert\`: ${badName}`);
    const value = jsonToConvex(args.value) as Document;
    measureArgument(value, "db.insert");
    const fields = stripUndefined(value);
    const doc: Document = {
      ...fields,
      _id: runner.store.newId(execution.component, table),
      _creationTime: runner.store.newCreationTime(execution.component),
    };
    tx.meter.write(checkWrite(runner, execution.component, table, doc));
    runner.store.write(execution.component, table, null, doc);
    return { _id: doc._id };
  },
  [SYSCALL.shallowMerge]: (runner, execution, args) => replaceOrPatch(runner, execution, args, "patch"),
  [SYSCALL.replace]: (runner, execution, args) => replaceOrPatch(runner, execution, args, "replace"),
  [SYSCALL.remove]: (runner, execution, args) => {
    const tx = writable(execution, "ctx.db.delete");
    const id = args.id as string;
    const table = tableOf(id, args.table as string | undefined);
    systemTableGuard(table, false);
    const existing = getDocument(runner, execution, id);
    if (!existing) throw new Error(`Delete on non-existent document with ID "${id}"`);
    tx.meter.write(0);
    runner.store.write(execution.component, table, existing, null);
    return null;
  },
  [SYSCALL.getTransactionMetrics]: (_runner, execution) =>
    transactionOf(execution, "getTransactionMetrics()").meter.metrics(),
};

function replaceOrPatch(
  runner: Runner,
  execution: Execution,
  args: Record<string, JSONValue>,
  how: "replace" | "patch",
): null {
  const syscall = how === "replace" ? "db.replace" : "db.patch";
  const tx = writable(execution, `ctx.${syscall}`);
  const id = args.id as string;
  const table = tableOf(id, args.table as string | undefined);
  systemTableGuard(table, false);
  const existing = getDocument(runner, execution, id);
  if (!existing) {
    throw new Error(`${how === "replace" ? "Replace" : "Patch"} on non-existent document with ID "${id}"`);
  }
  const value = decodePatch(args.value);
  for (const system of ["_id", "_creationTime"] as const) {
    if (value[system] !== undefined && compareValues(value[system], existing[system]) !== 0) {
      throw new Error(`Provided \`${system}\` field value does not match the document's`);
    }
    delete value[system];
  }
  measureArgument(value, syscall);
  const { _id, _creationTime, ...current } = existing;
  const merged = how === "replace" ? stripUndefined(value) : stripUndefined({ ...current, ...value });
  const next = { ...merged, _id, _creationTime };
  tx.meter.write(checkWrite(runner, execution.component, table, next));
  runner.store.write(execution.component, table, existing, next);
  return null;
}

/** A patch's fields; `{$undefined: null}` (a field set to `undefined`) removes the field. */
function decodePatch(json: JSONValue): Document {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Error("Invalid argument `value`, expected object");
  }
  const value: Document = {};
  for (const [key, field] of Object.entries(json)) {
    const removed =
      typeof field === "object" && field !== null && !Array.isArray(field) && "$undefined" in field;
    (value as Record<string, Value | undefined>)[key] = removed ? undefined : decodeOrUndefined(field);
  }
  return value;
}

function stripUndefined(value: Document): Document {
  const out: Document = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out;
}
