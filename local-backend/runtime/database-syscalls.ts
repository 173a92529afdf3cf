/**
 * The database syscalls (`ctx.db`): reads through query streams and pages, writes checked against
 * the schema, each counted against the transaction's limits and noted in the call's read set.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { tableFromId } from "../core/paths.ts";
import type { ComponentPath, Document } from "../storage/document.ts";
import { checkStorable, checkValue } from "../values/validate.ts";
import { compareValues } from "../values/values.ts";
import { decodeOrUndefined, resolveSource, type QueryJson } from "../database/index-range.ts";
import { readPage } from "../database/pagination.ts";
import { QueryStream } from "../database/query-stream.ts";
import { MAX_DOCS_READ, MAX_DOCS_WRITTEN, type Transaction } from "../database/transaction.ts";
import { SYSCALL } from "./convex-abi.ts";
import { readsOf, transactionOf, type Execution, type Syscall } from "./execution.ts";
import type { Runner } from "./runner.ts";

function noteRead(execution: Execution, tx: Transaction, table: string, docs: number): void {
  tx.docsRead += docs;
  if (tx.docsRead > MAX_DOCS_READ) {
    throw new Error(
      `Too many documents read in a single function execution (limit: ${MAX_DOCS_READ}). Consider using smaller limits in your queries, paginating your queries, or using indexed queries with a selective index range expressions.`,
    );
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
  tx.docsWritten += 1;
  if (tx.docsWritten > MAX_DOCS_WRITTEN) {
    throw new Error(
      `Too many documents written in a single function execution (limit: ${MAX_DOCS_WRITTEN}).`,
    );
  }
  return tx;
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

function getDocument(runner: Runner, execution: Execution, id: string): Document | null {
  const stored = runner.store.get(id);
  if (!stored || stored.component !== execution.component) return null;
  return stored.doc;
}

function validateDocument(runner: Runner, component: ComponentPath, table: string, doc: Document): void {
  const validator = runner.component(component).validators.get(table);
  if (!validator) return;
  const error = checkValue(validator, withoutSystemFields(doc));
  if (error) {
    throw new Error(
      `Failed to insert or update a document in table "${table}" because it does not match the schema: ${error}`,
    );
  }
}

function openStream(
  runner: Runner,
  execution: Execution,
  tx: Transaction,
  query: QueryJson,
  after: Buffer | null,
): QueryStream {
  const { source, table } = resolveSource(runner.store, execution.component, query);
  noteRead(execution, tx, table, 0);
  const stream = new QueryStream(runner.store, source, query.operators, after, () =>
    noteRead(execution, tx, table, 1),
  );
  const reads = readsOf(execution);
  if (reads) {
    if (source.type === "index") reads.addSource(table, stream);
    else reads.addTable(table);
  }
  return stream;
}

/** The synchronous database syscalls (`syscall`). */
export const databaseSyscalls: Record<string, Syscall<string>> = {
  [SYSCALL.queryStream]: (runner, execution, args) => {
    const tx = transactionOf(execution, "A database query");
    const query = args.query as unknown as QueryJson;
    const stream = openStream(runner, execution, tx, query, null);
    tx.nextQueryId += 1;
    const queryId = tx.nextQueryId;
    tx.streams.set(queryId, stream);
    return JSON.stringify({ queryId });
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
    const stored = runner.store.getJson(id);
    const visible =
      stored !== null &&
      stored.component === execution.component &&
      (table.startsWith("_") ? args.isSystem === true : args.isSystem !== true);
    noteRead(execution, tx, table, visible ? 1 : 0);
    readsOf(execution)?.addId(table, id);
    return visible ? stored.json : "null";
  },
  [SYSCALL.queryStreamNext]: (_runner, execution, args) => {
    const tx = transactionOf(execution, "A database query");
    const stream = tx.streams.get(args.queryId as number);
    if (!stream) throw new Error("Bad queryId");
    const row = stream.next();
    return row === null ? '{"value":null,"done":true}' : `{"value":${row.json},"done":false}`;
  },
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
    writable(execution, "ctx.db.insert");
    const table = args.table as string;
    if (typeof table !== "string" || table.startsWith("_")) {
      throw new Error(`Invalid table name "${String(table)}": system tables are written by the backend`);
    }
    const value = jsonToConvex(args.value) as Document;
    const storable = checkStorable(value);
    if (storable) throw new Error(storable);
    const fields = stripUndefined(value);
    validateDocument(runner, execution.component, table, fields);
    const doc: Document = {
      ...fields,
      _id: runner.store.newId(execution.component, table),
      _creationTime: runner.store.newCreationTime(execution.component),
    };
    runner.store.write(execution.component, table, null, doc);
    return { _id: doc._id };
  },
  [SYSCALL.shallowMerge]: (runner, execution, args) => replaceOrPatch(runner, execution, args, "patch"),
  [SYSCALL.replace]: (runner, execution, args) => replaceOrPatch(runner, execution, args, "replace"),
  [SYSCALL.remove]: (runner, execution, args) => {
    writable(execution, "ctx.db.delete");
    const id = args.id as string;
    const table = tableOf(id, args.table as string | undefined);
    const existing = getDocument(runner, execution, id);
    if (!existing || table.startsWith("_"))
      throw new Error(`Delete on non-existent document with ID "${id}"`);
    runner.store.write(execution.component, table, existing, null);
    return null;
  },
  [SYSCALL.getTransactionMetrics]: (_runner, execution) => {
    const tx = transactionOf(execution, "getTransactionMetrics()");
    return {
      bytesRead: { used: 0, remaining: 16 * 1024 * 1024 },
      bytesWritten: { used: 0, remaining: 16 * 1024 * 1024 },
      databaseQueries: { used: 0, remaining: 4096 },
      documentsRead: { used: tx.docsRead, remaining: MAX_DOCS_READ - tx.docsRead },
      documentsWritten: { used: tx.docsWritten, remaining: MAX_DOCS_WRITTEN - tx.docsWritten },
      functionsScheduled: { used: tx.scheduled.length, remaining: 1000 - tx.scheduled.length },
      scheduledFunctionArgsBytes: { used: 0, remaining: 16 * 1024 * 1024 },
    };
  },
};

function replaceOrPatch(
  runner: Runner,
  execution: Execution,
  args: Record<string, JSONValue>,
  how: "replace" | "patch",
): null {
  writable(execution, how === "replace" ? "ctx.db.replace" : "ctx.db.patch");
  const id = args.id as string;
  const table = tableOf(id, args.table as string | undefined);
  const existing = getDocument(runner, execution, id);
  if (!existing || table.startsWith("_")) {
    throw new Error(`${how === "replace" ? "Replace" : "Patch"} on non-existent document with ID "${id}"`);
  }
  const value = decodePatch(args.value);
  for (const system of ["_id", "_creationTime"] as const) {
    if (value[system] !== undefined && compareValues(value[system], existing[system]) !== 0) {
      throw new Error(`Provided \`${system}\` field value does not match the document's`);
    }
    delete value[system];
  }
  const storable = checkStorable(value);
  if (storable) throw new Error(storable);
  const { _id, _creationTime, ...current } = existing;
  const merged = how === "replace" ? stripUndefined(value) : stripUndefined({ ...current, ...value });
  validateDocument(runner, execution.component, table, merged);
  runner.store.write(execution.component, table, existing, { ...merged, _id, _creationTime });
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

function withoutSystemFields(doc: Document): Document {
  const { _id, _creationTime, ...rest } = doc;
  void _id;
  void _creationTime;
  return rest;
}
