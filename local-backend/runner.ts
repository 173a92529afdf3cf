/**
 * The function runner: runs the project's Convex functions (and its components') in this process,
 * answering the syscalls `convex/server` makes (`globalThis.Convex`) from the SQLite store.
 *
 * Transactions: queries and mutations run one at a time (serializable, like Convex's committer),
 * each inside a SQLite transaction; a mutation's result is returned only after its transaction has
 * committed (on disk). A mutation's nested `runMutation` is a savepoint; an action holds no
 * transaction, and each of its `runQuery`/`runMutation` calls is one. Scheduled functions are rows
 * of `_scheduled_functions` written in the scheduling transaction, run by timers after it commits.
 */
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { mutationGeneric, type GenericDataModel, type GenericMutationCtx } from "convex/server";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { fromConvexJsonText } from "./convex-json.ts";
import { writeFileDurably } from "./files.ts";
import { currentRecord, inRecord, newCallRecord, type CallOwner, type CallRecord } from "./instrument.ts";
import { canonicalizeUdfPath, splitUdfPath, tableFromId } from "./paths.ts";
import {
  SEARCH_RESULT_CAP,
  IndexRow,
  indexKey,
  type ComponentPath,
  type Document,
  type IndexDefinition,
  type SqliteStore,
  type TableIndexes,
} from "./store.ts";
import { WriteSet, type KeyRange, type RangeSource, type ReadSet } from "./read-set.ts";
import { checkStorable, checkValue, type ValidatorJson } from "./validate.ts";
import { AFTER, compareValues, encodeKey, fieldValue, type FieldValue } from "./values.ts";

export type FunctionKind = "query" | "mutation" | "action";
export type Identity = Record<string, unknown>;

/** A registered Convex function, as `convex/server` makes them. */
type RegisteredFunction = {
  isQuery?: boolean;
  isMutation?: boolean;
  isAction?: boolean;
  isPublic?: boolean;
  isInternal?: boolean;
  invokeQuery?: (args: string) => Promise<string>;
  invokeMutation?: (args: string) => Promise<string>;
  invokeAction?: (requestId: string, args: string) => Promise<string>;
  exportArgs?: () => string;
  exportReturns?: () => string;
};

export type ModuleLoader = (modulePath: string) => Promise<Record<string, unknown> | null>;

/** What one component is: its functions and its schema's tables. */
export type ComponentDefinition = {
  path: ComponentPath;
  loadModule: ModuleLoader;
  /** Table name -> document validator, when the schema validates. */
  validators: Map<string, ValidatorJson>;
  tables: TableIndexes[];
  /** Child component name -> its path. */
  children: Map<string, ComponentPath>;
};

export interface RunnerOwner extends CallOwner {
  /**
   * What a committed transaction wrote, when no call reports it itself; returns the timestamp the
   * commit is known by (every subscription pass that starts later covers it), or null.
   */
  onCommit(writes: WriteSet): bigint | null;
}

/** Convex's limits per transaction (the ones an app meets first). */
const MAX_DOCS_READ = 32_000;
const MAX_DOCS_WRITTEN = 16_000;
/** A transaction holding the database longer than this is stopped and rolled back. */
const TRANSACTION_TIMEOUT_MS = 30_000;

export class ConvexSystemError extends Error {}

type QueryJson = {
  source:
    | { type: "FullTableScan"; tableName: string; order: "asc" | "desc" | null }
    | {
        type: "IndexRange";
        indexName: string;
        range: { type: "Eq" | "Gt" | "Gte" | "Lt" | "Lte"; fieldPath: string; value: JSONValue }[];
        order: "asc" | "desc" | null;
      }
    | {
        type: "Search";
        indexName: string;
        filters: { type: "Search" | "Eq"; fieldPath: string; value: JSONValue }[];
      };
  operators: ({ filter: JSONValue } | { limit: number })[];
};

type Transaction = {
  component: ComponentPath;
  docsRead: number;
  docsWritten: number;
  /** Stored files to remove once the deletion is committed. */
  deletedFiles: string[];
  /** Scheduled jobs to start once committed. */
  scheduled: { id: string; component: ComponentPath; time: number }[];
  closed: boolean;
  /** `.paginate()` calls so far (Convex allows one per function). */
  paginated: number;
  streams: Map<number, QueryStream>;
  /** Query ids are never reused within a transaction (one may close while another stays open). */
  nextQueryId: number;
  /**
   * The first database error a syscall met (shared with nested calls): the call fails with it even if
   * the function caught it, since SQLite may have rolled the transaction back underneath.
   */
  failure: { error: Error | null };
};

type Execution = {
  runner: Runner;
  kind: FunctionKind | "http";
  component: ComponentPath;
  udfPath: string;
  identity: Identity | null;
  /** An HTTP action's refused token: its own `getUserIdentity()` throws it (the functions it calls see null). */
  identityError?: Error;
  /** The transaction of a query or mutation (a nested call shares its caller's). */
  tx: Transaction | null;
  /** Queries may not write. */
  readOnly: boolean;
  record: CallRecord;
};

const executions = new AsyncLocalStorage<Execution>();

/** Timers for scheduled functions start from here, outside the function that scheduled them. */
const rootScope = new AsyncResource("livelocal-scheduler");

// ---------------------------------------------------------------------------------------------
// Query streams

function evaluateExpression(expr: JSONValue, doc: Document): FieldValue {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr)) {
    throw new Error(`Malformed filter expression ${JSON.stringify(expr)}`);
  }
  const [op, operand] = Object.entries(expr)[0] ?? [];
  const binary = () => {
    const [l, r] = operand as JSONValue[];
    return [evaluateExpression(l, doc), evaluateExpression(r, doc)] as const;
  };
  const arithmetic = (f: (a: number, b: number) => number, g: (a: bigint, b: bigint) => bigint) => {
    const [l, r] = binary();
    if (typeof l === "number" && typeof r === "number") return f(l, r);
    if (typeof l === "bigint" && typeof r === "bigint") return g(l, r);
    throw new Error(`Cannot do arithmetic on ${typeof l} and ${typeof r} in a filter`);
  };
  switch (op) {
    case "$field":
      return fieldValue(doc, operand as string);
    case "$literal":
      return operand === undefined ? undefined : jsonToConvex(operand);
    case "$eq":
      return compareValues(...binary()) === 0;
    case "$neq":
      return compareValues(...binary()) !== 0;
    case "$lt":
      return compareValues(...binary()) < 0;
    case "$lte":
      return compareValues(...binary()) <= 0;
    case "$gt":
      return compareValues(...binary()) > 0;
    case "$gte":
      return compareValues(...binary()) >= 0;
    case "$and":
      return (operand as JSONValue[]).every((e) => evaluateExpression(e, doc) === true);
    case "$or":
      return (operand as JSONValue[]).some((e) => evaluateExpression(e, doc) === true);
    case "$not":
      return evaluateExpression(operand, doc) !== true;
    case "$add":
      return arithmetic(
        (a, b) => a + b,
        (a, b) => a + b,
      );
    case "$sub":
      return arithmetic(
        (a, b) => a - b,
        (a, b) => a - b,
      );
    case "$mul":
      return arithmetic(
        (a, b) => a * b,
        (a, b) => a * b,
      );
    case "$div":
      return arithmetic(
        (a, b) => a / b,
        (a, b) => a / b,
      );
    case "$mod":
      return arithmetic(
        (a, b) => a % b,
        (a, b) => a % b,
      );
    case "$neg": {
      const value = evaluateExpression(operand, doc);
      if (typeof value === "number") return -value;
      if (typeof value === "bigint") return -value;
      throw new Error(`Cannot negate ${typeof value} in a filter`);
    }
    default:
      throw new Error(`Unknown filter operator ${String(op)}`);
  }
}

/** A resolved query source: an index range, or a search's results. */
type Source =
  | {
      type: "index";
      index: IndexDefinition;
      lower: Buffer;
      upper: Buffer;
      order: "asc" | "desc";
    }
  | { type: "search"; docs: string[]; order: "asc" };

function fieldsOfIndex(index: IndexDefinition): string[] {
  if (index.name === "by_id") return ["_id"];
  if (index.name === "by_creation_time") return ["_creationTime", "_id"];
  return [...index.fields, "_creationTime", "_id"];
}

/** The key range of an index range expression: equalities on a prefix, then at most two bounds. */
function rangeOf(
  index: IndexDefinition,
  range: { type: string; fieldPath: string; value: JSONValue }[],
): { lower: Buffer; upper: Buffer } {
  const fields = fieldsOfIndex(index);
  const equal: FieldValue[] = [];
  let lower: Buffer | null = null;
  let upper: Buffer | null = null;
  let boundField: string | null = null;
  for (const expression of range) {
    const value = decodeOrUndefined(expression.value);
    const position = equal.length;
    const expected = fields[position];
    if (expression.type === "Eq") {
      if (boundField !== null || expression.fieldPath !== expected) {
        throw new Error(
          `Uncaught Error: Index ${index.table}.${index.name} range must be .eq on its fields in order (${fields.join(", ")}), then .gt/.gte/.lt/.lte on the next one; got .eq("${expression.fieldPath}")`,
        );
      }
      equal.push(value);
      continue;
    }
    if (expression.fieldPath !== expected || (boundField !== null && boundField !== expression.fieldPath)) {
      throw new Error(
        `Uncaught Error: Index ${index.table}.${index.name} range bounds must be on "${expected}", the field after the .eq ones; got "${expression.fieldPath}"`,
      );
    }
    boundField = expression.fieldPath;
    const isLower = expression.type === "Gt" || expression.type === "Gte";
    if ((isLower && lower) || (!isLower && upper)) {
      throw new Error(`Uncaught Error: An index range may have one lower and one upper bound`);
    }
    const key = encodeKey(
      [...equal, value],
      expression.type === "Gt" || expression.type === "Lte" ? AFTER : undefined,
    );
    if (isLower) lower = key;
    else upper = key;
  }
  const prefix = encodeKey(equal);
  return {
    lower: lower ?? prefix,
    upper: upper ?? Buffer.concat([prefix, Buffer.from([AFTER])]),
  };
}

/** Reads a source in batches, applying the query's filters and limit. */
class QueryStream implements RangeSource {
  private buffer: IndexRow[] = [];
  private readonly filtered: boolean;
  private lastKey: Buffer | null;
  private exhausted = false;
  /** The function has read to the end of the source. */
  private reachedEnd = false;
  private batch = 8;
  private yielded = 0;
  private searchPosition = 0;
  /** The key of the last document read from the source (for cursors). */
  readKey: Buffer | null = null;

  constructor(
    private readonly store: SqliteStore,
    readonly source: Source,
    private readonly operators: QueryJson["operators"],
    private readonly after: Buffer | null,
    private readonly onRead: () => void,
  ) {
    this.lastKey = after;
    this.filtered = operators.some((op) => "filter" in op);
    // Search results are a list: their "key" is the position in it.
    if (source.type === "search" && after && after.length === 4)
      this.searchPosition = after.readUInt32BE(0) + 1;
    const limit = operators.find((op): op is { limit: number } => "limit" in op);
    if (limit && operators.every((op) => !("filter" in op)))
      this.batch = Math.max(1, Math.min(limit.limit, 256));
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
    if (this.buffer.length === 0 && !this.exhausted) this.fill();
    const next = this.buffer.shift() ?? null;
    if (next) {
      this.readKey = next.key;
      this.onRead();
    } else {
      this.reachedEnd = true;
    }
    return next;
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

  /** The next document passing the filters, within the limit; null at the end. */
  next(): IndexRow | null {
    const limit = this.operators.find((op): op is { limit: number } => "limit" in op)?.limit;
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
}

// ---------------------------------------------------------------------------------------------
// The runner

function describeThrown(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** A promise-chain mutex: the database is used by one transaction at a time. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

const CONVEX_ERROR = Symbol.for("ConvexError");

/** The identity as Convex completes it (`tokenIdentifier` from issuer and subject). */
function completeIdentity(identity: Identity): Identity {
  const subject = typeof identity.subject === "string" ? identity.subject : "";
  const issuer = typeof identity.issuer === "string" ? identity.issuer : "https://convex.test";
  return {
    ...identity,
    subject,
    issuer,
    tokenIdentifier: identity.tokenIdentifier ?? `${issuer}|${subject}`,
  };
}

export type RunRequest = {
  component?: ComponentPath;
  udfPath: string;
  args: Record<string, Value>;
  identity: Identity | null;
  /** Expected kind; refuses others. */
  kind?: FunctionKind;
  /** A sync client's mutation: its answer is recorded with its commit, and a re-send gets it back. */
  sessionRequest?: SessionRequest;
};

/** A sync session's request (Convex's `SessionRequestIdentifier`). */
export type SessionRequest = { sessionId: string; requestId: number };

/**
 * A long write in progress (`longWrite`): reads that start meanwhile wait for `ready`, then, if the
 * store reads from its snapshot connection (`on`), take turns there under `lock` instead of waiting
 * for the write.
 */
type SnapshotReads = { ready: Promise<void>; lock: Mutex; on: boolean };

function newTransaction(component: ComponentPath): Transaction {
  return {
    component,
    docsRead: 0,
    docsWritten: 0,
    deletedFiles: [],
    scheduled: [],
    closed: false,
    paginated: 0,
    streams: new Map(),
    nextQueryId: 0,
    failure: { error: null },
  };
}

export class Runner {
  private readonly lock = new Mutex();
  private snapshotReads: SnapshotReads | null = null;
  /** Functions by component and path, as loaded (cleared when the functions change). */
  private readonly resolved = new Map<string, Promise<RegisteredFunction | null>>();
  /** Each function's argument and return validators, parsed once. */
  private readonly validators = new WeakMap<
    RegisteredFunction,
    { args: ValidatorJson; returns: ValidatorJson | null }
  >();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each armed job is due, and its component. */
  private readonly dueTimes = new Map<string, number>();
  private readonly dueComponents = new Map<string, ComponentPath>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    readonly store: SqliteStore,
    private components: Map<ComponentPath, ComponentDefinition>,
    private readonly owner: RunnerOwner,
  ) {
    installSyscalls();
  }

  setComponents(components: Map<ComponentPath, ComponentDefinition>): void {
    this.components = components;
    this.resolved.clear();
  }

  component(path: ComponentPath): ComponentDefinition {
    const component = this.components.get(path);
    if (!component) throw new Error(`There is no component "${path}"`);
    return component;
  }

  /** The function at `udfPath` of `component`, or null. */
  async resolve(component: ComponentPath, udfPath: string): Promise<RegisteredFunction | null> {
    const key = `${component}\0${udfPath}`;
    let resolved = this.resolved.get(key);
    if (!resolved) {
      resolved = this.load(component, udfPath);
      this.resolved.set(key, resolved);
      resolved.catch(() => this.resolved.delete(key));
    }
    return await resolved;
  }

  /** Forgets loaded functions (their files changed): the next call loads them again. */
  functionsChanged(): void {
    this.resolved.clear();
  }

  private async load(component: ComponentPath, udfPath: string): Promise<RegisteredFunction | null> {
    const { modulePath, exportName } = splitUdfPath(udfPath);
    if (modulePath.startsWith("_generated") || modulePath === "schema") return null;
    const module = await this.component(component).loadModule(modulePath);
    const fn = module?.[exportName] as RegisteredFunction | undefined;
    if (!fn || (typeof fn !== "function" && typeof fn !== "object")) return null;
    return fn.isQuery || fn.isMutation || fn.isAction ? fn : null;
  }

  // -- Running functions ---------------------------------------------------------------------

  /**
   * Runs a function as a top-level call (its own transaction for a query or mutation) and returns
   * its result, and the function's own JSON text of it (Convex's JSON, checked against its `returns`)
   * for those who send it on; throws its error. `record` collects what it did.
   */
  async run(request: RunRequest, record: CallRecord): Promise<{ value: Value; json: string }> {
    const component = request.component ?? "";
    const udfPath = canonicalizeUdfPath(request.udfPath);
    const fn = await this.resolve(component, udfPath);
    if (!fn) throw new ConvexSystemError(`Could not find function for '${udfPath}'`);
    const kind: FunctionKind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action";
    const identity = request.identity ? completeIdentity(request.identity) : null;
    const execution = this.executionFor(kind, component, udfPath, identity, record);
    const args = this.checkArgs(fn, request.args, udfPath);
    if (kind === "action") {
      const json = await inRecord(record, () =>
        executions.run(execution(null), () =>
          fn.invokeAction!(cryptoRandomId(), JSON.stringify(convexToJson([args]))),
        ),
      );
      return { value: this.checkReturns(fn, json), json };
    }
    const answerTo = kind === "mutation" ? request.sessionRequest : undefined;
    return await this.transaction(component, record, kind === "mutation", async (tx) => {
      if (answerTo) {
        // Looked up in the mutation's own transaction, as Convex does: one that committed never runs again.
        const recorded = this.store.recordedAnswer(answerTo.sessionId, answerTo.requestId);
        if (recorded) {
          record.replayed = true;
          record.logLines.push(...recorded.logLines);
          return { value: fromConvexJsonText(recorded.result), json: recorded.result };
        }
      }
      const json = await executions.run(execution(tx), () =>
        kind === "query"
          ? fn.invokeQuery!(JSON.stringify(convexToJson([args])))
          : fn.invokeMutation!(JSON.stringify(convexToJson([args]))),
      );
      const value = this.checkReturns(fn, json);
      // Committed with the writes or not at all: a crash between the commit and the answer leaves the
      // answer for the client's re-send (decision 056). A transaction that timed out is rolled back.
      if (answerTo && !tx.closed) {
        this.store.recordAnswer(answerTo.sessionId, answerTo.requestId, {
          result: json,
          logLines: record.logLines,
        });
      }
      return { value, json };
    });
  }

  /** The execution of a function of `kind`, given the transaction it runs in (none for an action). */
  private executionFor(
    kind: Execution["kind"],
    component: ComponentPath,
    udfPath: string,
    identity: Identity | null,
    record: CallRecord,
  ): (tx: Transaction | null) => Execution {
    return (tx) => ({
      runner: this,
      kind,
      component,
      udfPath,
      identity,
      tx,
      readOnly: kind === "query",
      record,
    });
  }

  private checkArgs(
    fn: RegisteredFunction,
    args: Record<string, Value>,
    udfPath: string,
  ): Record<string, Value> {
    const error = checkValue(this.validatorsOf(fn).args, args);
    if (error) throw new ConvexSystemError(`ArgumentValidationError: ${error}\n\nFunction: ${udfPath}`);
    return args;
  }

  private validatorsOf(fn: RegisteredFunction): { args: ValidatorJson; returns: ValidatorJson | null } {
    let validators = this.validators.get(fn);
    if (!validators) {
      validators = {
        args: JSON.parse(fn.exportArgs?.() ?? '{"type":"any"}') as ValidatorJson,
        returns: JSON.parse(fn.exportReturns?.() ?? "null") as ValidatorJson | null,
      };
      this.validators.set(fn, validators);
    }
    return validators;
  }

  private checkReturns(fn: RegisteredFunction, text: string): Value {
    const value = fromConvexJsonText(text);
    const validator = this.validatorsOf(fn).returns;
    if (validator) {
      const error = checkValue(validator, value);
      if (error) throw new ConvexSystemError(`ReturnsValidationError: ${error}`);
    }
    return value;
  }

  /**
   * Runs `work` in a transaction of `component`: a new top-level one (taking the database), or a
   * savepoint inside the caller's when the caller is a query or mutation.
   */
  private async transaction<T>(
    component: ComponentPath,
    record: CallRecord,
    writes: boolean,
    work: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const parent = executions.getStore();
    if (parent?.tx && !parent.tx.closed) return await this.nested(parent.tx, component, writes, work);
    const release = writes ? await this.lock.acquire() : await this.readLock();
    const tx = newTransaction(component);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let result: T;
    let begun = false;
    try {
      // A read runs in a read transaction: no other transaction runs while it holds the lock, so it
      // would see one committed state anyway, but a statement outside a transaction takes and drops
      // SQLite's read lock itself (a query of 27 index reads spent a tenth of its time there).
      if (writes) this.store.begin();
      else this.store.beginRead();
      begun = true;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `Function execution timed out (it held the database for more than ${TRANSACTION_TIMEOUT_MS / 1000} s)`,
              ),
            ),
          TRANSACTION_TIMEOUT_MS,
        );
        timer.unref?.();
      });
      result = await inRecord(record, () => Promise.race([work(tx), timeout]));
      if (tx.failure.error) throw tx.failure.error;
      tx.closed = true;
      if (writes) this.afterCommit(tx, record, this.store.commitLater());
      else this.store.endRead();
    } catch (e) {
      tx.closed = true;
      // The call fails with its own error; undoing the transaction after a database error may fail
      // too (SQLite ended it already), and must not hide that error nor keep the lock.
      if (begun) {
        try {
          if (writes) this.store.rollback();
          else this.store.endRead();
        } catch {
          // Told with the first error.
        }
      }
      throw this.databaseError(e, tx);
    } finally {
      clearTimeout(timer);
      release();
    }
    // Nothing a function returns leaves before what it wrote, or read, is on disk (decision 041): the
    // next transaction may run meanwhile, and subscriptions re-run, but their answers wait too.
    await this.store.durable();
    return result;
  }

  /**
   * The turn of a transaction that only reads: the database's, or during a long write that lets
   * reads through, a turn on the snapshot connection.
   */
  private async readLock(): Promise<() => void> {
    const snapshot = this.snapshotReads;
    if (snapshot) {
      await snapshot.ready;
      const release = await snapshot.lock.acquire();
      if (snapshot.on) return release;
      release();
    }
    return await this.lock.acquire();
  }

  /**
   * Runs a long write (an import) as one transaction without holding up reads (decision 070): `work`
   * does its writing in synchronous parts through `part`, with a turn of the event loop before each,
   * while functions that only read run on the database as last committed (the store's snapshot
   * connection) and those that write wait. All or nothing; no function timeout (it is not a
   * function). In memory, where there is no second connection, reads wait too.
   */
  async longWrite<T>(work: (part: <R>(write: () => R) => Promise<R>) => Promise<T>): Promise<T> {
    const record = currentRecord() ?? newCallRecord(this.owner, "system");
    let ready!: () => void;
    const snapshot: SnapshotReads = {
      ready: new Promise<void>((resolve) => (ready = resolve)),
      lock: new Mutex(),
      on: false,
    };
    // Reads that start from now on wait for the snapshot, not behind the write.
    this.snapshotReads = snapshot;
    const release = await this.lock.acquire();
    let writes: WriteSet;
    let result: T;
    try {
      let begun = false;
      try {
        this.store.begin();
        begun = true;
        snapshot.on = this.store.beginSnapshotReads();
        ready();
        const part = async <R>(write: () => R): Promise<R> => {
          await new Promise<void>((resolve) => setImmediate(resolve));
          return this.store.onWriter(write);
        };
        result = await inRecord(record, () => work(part));
        writes = this.store.onWriter(() => this.store.commitLater());
      } catch (e) {
        try {
          if (begun) this.store.onWriter(() => this.store.rollback());
        } catch {
          // Told with the first error.
        }
        throw this.databaseError(e, null);
      } finally {
        // Reads under way on the snapshot finish there; later ones take the database's turn.
        ready();
        const drained = await snapshot.lock.acquire();
        snapshot.on = false;
        if (this.snapshotReads === snapshot) this.snapshotReads = null;
        this.store.endSnapshotReads();
        drained();
      }
      // Told by table: every read of them re-runs, as after any import, without a merge of each key.
      this.afterCommit(newTransaction(""), record, WriteSet.ofTables(writes.tables));
    } finally {
      release();
    }
    await this.store.durable();
    return result;
  }

  /**
   * A database error (a damaged page, a full disk) as the call's error, in words without the server's
   * paths (the operator is told those); noted on `tx` so the whole call fails. Others as they are.
   */
  databaseError(e: unknown, tx: Transaction | null): unknown {
    if (e instanceof ConvexSystemError) return e;
    const failure = this.store.describeFailure(e);
    if (!failure) return e;
    const error = new ConvexSystemError(failure.caller, { cause: e });
    if (tx) tx.failure.error ??= error;
    return error;
  }

  private async nested<T>(
    parent: Transaction,
    component: ComponentPath,
    writes: boolean,
    work: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const tx: Transaction = {
      ...newTransaction(component),
      docsRead: parent.docsRead,
      docsWritten: parent.docsWritten,
      failure: parent.failure,
    };
    this.store.begin();
    try {
      const result = await work(tx);
      if (tx.failure.error) throw tx.failure.error;
      if (writes) {
        this.store.commit();
        parent.deletedFiles.push(...tx.deletedFiles);
        parent.scheduled.push(...tx.scheduled);
      } else {
        this.store.rollback();
      }
      return result;
    } catch (e) {
      try {
        this.store.rollback();
      } catch {
        // The outer transaction fails with the first error (`failure`).
      }
      throw this.databaseError(e, tx);
    } finally {
      tx.closed = true;
      parent.docsRead = tx.docsRead;
      parent.docsWritten = tx.docsWritten;
    }
  }

  private afterCommit(tx: Transaction, record: CallRecord, writes: WriteSet): void {
    // A deleted file goes, and a scheduled job may start, only once the commit is on disk.
    if (tx.deletedFiles.length > 0 || tx.scheduled.length > 0) {
      void this.store.durable().then(
        () => {
          for (const id of tx.deletedFiles) {
            const file = this.store.filePath(id);
            if (file) rmSync(file, { force: true });
          }
          for (const job of tx.scheduled) this.arm(job.id, job.component, job.time);
        },
        () => undefined,
      );
    }
    if (writes.isEmpty) return;
    if (record.active) {
      record.writes.merge(writes);
      record.docsWritten += tx.docsWritten;
      if (record.deferWrites) return;
    }
    const ts = this.owner.onCommit(writes);
    if (record.active) record.commitTs = ts;
  }

  // -- Syscalls --------------------------------------------------------------------------------

  private current(): Execution {
    const execution = executions.getStore();
    if (!execution) throw new Error("Not inside a Convex function");
    return execution;
  }

  private tx(execution: Execution, what: string): Transaction {
    const tx = execution.tx;
    if (!tx) throw new Error(`${what} is not available in actions; use ctx.runQuery or ctx.runMutation.`);
    if (tx.closed)
      throw new Error(`${what} after the function's transaction ended (a promise left running?)`);
    return tx;
  }

  private noteRead(execution: Execution, tx: Transaction, table: string, docs: number): void {
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

  private writable(execution: Execution, what: string): Transaction {
    const tx = this.tx(execution, what);
    if (execution.readOnly) throw new Error(`${what} is not allowed in a query`);
    tx.docsWritten += 1;
    if (tx.docsWritten > MAX_DOCS_WRITTEN) {
      throw new Error(
        `Too many documents written in a single function execution (limit: ${MAX_DOCS_WRITTEN}).`,
      );
    }
    return tx;
  }

  private tableOf(execution: Execution, id: string, table: string | undefined, isSystem: boolean): string {
    const actual = tableFromId(id);
    if (!actual) throw new Error(`Invalid argument \`id\`, expected ID value but got '${id}'`);
    if (table !== undefined && table !== actual) {
      throw new Error(
        `Invalid argument \`id\`, expected ID in table '${table}' but got ID in table '${actual}'`,
      );
    }
    if (actual.startsWith("_") && !isSystem && table === undefined) {
      // ctx.db.get of a system id without `db.system` reads nothing, as on Convex.
    }
    void execution;
    return actual;
  }

  private getDocument(execution: Execution, id: string): Document | null {
    const stored = this.store.get(id);
    if (!stored || stored.component !== execution.component) return null;
    return stored.doc;
  }

  private validateDocument(component: ComponentPath, table: string, doc: Document): void {
    const validator = this.component(component).validators.get(table);
    if (!validator) return;
    const error = checkValue(validator, withoutSystemFields(doc));
    if (error) {
      throw new Error(
        `Failed to insert or update a document in table "${table}" because it does not match the schema: ${error}`,
      );
    }
  }

  syscall(op: string, json: string): string {
    const execution = this.current();
    const args = JSON.parse(json) as Record<string, JSONValue>;
    switch (op) {
      case "1.0/queryStream": {
        const tx = this.tx(execution, "A database query");
        const query = args.query as unknown as QueryJson;
        const stream = this.openStream(execution, tx, query, null);
        tx.nextQueryId += 1;
        const queryId = tx.nextQueryId;
        tx.streams.set(queryId, stream);
        return JSON.stringify({ queryId });
      }
      case "1.0/queryCleanup": {
        execution.tx?.streams.delete(args.queryId as number);
        return JSON.stringify({});
      }
      case "1.0/db/normalizeId": {
        const id = args.idString as string;
        return JSON.stringify({ id: tableFromId(id) === args.table ? id : null });
      }
      case "1.0/getSnapshotTs":
        return JSON.stringify(convexToJson(BigInt(Date.now()) * 1_000_000n));
      default:
        throw new Error(`The embedded backend does not support syscall "${op}"`);
    }
  }

  private openStream(
    execution: Execution,
    tx: Transaction,
    query: QueryJson,
    after: Buffer | null,
  ): QueryStream {
    const source = query.source;
    let resolved: Source;
    let table: string;
    if (source.type === "FullTableScan") {
      table = source.tableName;
      const index = this.store.index(execution.component, table, "by_creation_time")!;
      resolved = {
        type: "index",
        index,
        lower: Buffer.alloc(0),
        upper: Buffer.from([AFTER]),
        order: source.order ?? "asc",
      };
    } else if (source.type === "IndexRange") {
      const [tableName, indexName] = splitIndexName(source.indexName);
      table = tableName;
      const index = this.store.index(execution.component, table, indexName);
      if (!index || index.kind !== "db") {
        throw new Error(
          `Uncaught Error: Cannot use index "${indexName}" for table "${table}" because it is not declared in the schema.`,
        );
      }
      const { lower, upper } = rangeOf(index, source.range);
      resolved = { type: "index", index, lower, upper, order: source.order ?? "asc" };
    } else {
      const [tableName, indexName] = splitIndexName(source.indexName);
      table = tableName;
      const index = this.store.index(execution.component, table, indexName);
      if (!index || index.kind !== "search") {
        throw new Error(
          `Uncaught Error: Cannot use search index "${indexName}" for table "${table}" because it is not declared in the schema.`,
        );
      }
      const search = source.filters.find((f) => f.type === "Search");
      const filters = source.filters
        .filter((f) => f.type === "Eq")
        .map((f): [string, Value | undefined] => [f.fieldPath, decodeOrUndefined(f.value)]);
      const docs = search
        ? this.store.search(
            index,
            typeof search.value === "string" ? search.value : "",
            filters,
            SEARCH_RESULT_CAP,
          )
        : [];
      resolved = { type: "search", docs, order: "asc" };
    }
    this.noteRead(execution, tx, table, 0);
    const stream = new QueryStream(this.store, resolved, query.operators, after, () =>
      this.noteRead(execution, tx, table, 1),
    );
    const reads = this.reads(execution);
    if (reads) {
      if (resolved.type === "index") reads.addSource(table, stream);
      else reads.addTable(table);
    }
    return stream;
  }

  /** The read set of the call `execution` belongs to, while it is running. */
  private reads(execution: Execution): ReadSet | null {
    return execution.record.active ? execution.record.reads : null;
  }

  async asyncSyscall(op: string, json: string): Promise<string> {
    const execution = this.current();
    const args = JSON.parse(json) as Record<string, JSONValue>;
    const raw = this.documentSyscall(execution, op, args);
    if (raw !== null) return raw;
    const result = await this.asyncSyscallValue(execution, op, args);
    return JSON.stringify(convexToJson(result === undefined ? null : result));
  }

  private async asyncSyscallValue(
    execution: Execution,
    op: string,
    args: Record<string, JSONValue>,
  ): Promise<Value | undefined> {
    switch (op) {
      case "1.0/count": {
        const tx = this.tx(execution, "count()");
        const table = args.table as string;
        this.noteRead(execution, tx, table, 0);
        this.reads(execution)?.addTable(table);
        return this.store.count(execution.component, table);
      }
      case "1.0/insert": {
        this.writable(execution, "ctx.db.insert");
        const table = args.table as string;
        if (typeof table !== "string" || table.startsWith("_")) {
          throw new Error(`Invalid table name "${String(table)}": system tables are written by the backend`);
        }
        const value = jsonToConvex(args.value) as Document;
        const storable = checkStorable(value);
        if (storable) throw new Error(storable);
        const fields = stripUndefined(value);
        this.validateDocument(execution.component, table, fields);
        const doc: Document = {
          ...fields,
          _id: this.store.newId(execution.component, table),
          _creationTime: this.store.newCreationTime(execution.component),
        };
        this.store.write(execution.component, table, null, doc);
        return { _id: doc._id };
      }
      case "1.0/shallowMerge":
      case "1.0/replace": {
        this.writable(execution, op === "1.0/replace" ? "ctx.db.replace" : "ctx.db.patch");
        const id = args.id as string;
        const table = this.tableOf(execution, id, args.table as string | undefined, false);
        const existing = this.getDocument(execution, id);
        if (!existing || table.startsWith("_")) {
          throw new Error(
            `${op === "1.0/replace" ? "Replace" : "Patch"} on non-existent document with ID "${id}"`,
          );
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
        const merged =
          op === "1.0/replace" ? stripUndefined(value) : stripUndefined({ ...current, ...value });
        this.validateDocument(execution.component, table, merged);
        this.store.write(execution.component, table, existing, { ...merged, _id, _creationTime });
        return null;
      }
      case "1.0/remove": {
        this.writable(execution, "ctx.db.delete");
        const id = args.id as string;
        const table = this.tableOf(execution, id, args.table as string | undefined, false);
        const existing = this.getDocument(execution, id);
        if (!existing || table.startsWith("_"))
          throw new Error(`Delete on non-existent document with ID "${id}"`);
        this.store.write(execution.component, table, existing, null);
        return null;
      }
      case "1.0/getUserIdentity": {
        if (execution.identityError) throw execution.identityError;
        const reads = this.reads(execution);
        if (reads) reads.identity = true;
        return (execution.identity as Value) ?? null;
      }
      case "1.0/getFunctionMetadata":
        return { name: execution.udfPath, componentPath: execution.component };
      case "1.0/getRequestMetadata":
        if (execution.kind === "query") throw new Error("getRequestMetadata() is not available in queries.");
        return {
          ip: null,
          userAgent: null,
          requestId: cryptoRandomId(),
          scheduledFunctionId: null,
          authToken: null,
        };
      case "1.0/getDeploymentMetadata":
        return { name: "local", region: null, class: "s16" };
      case "1.0/getTransactionMetrics": {
        const tx = this.tx(execution, "getTransactionMetrics()");
        return {
          bytesRead: { used: 0, remaining: 16 * 1024 * 1024 },
          bytesWritten: { used: 0, remaining: 16 * 1024 * 1024 },
          databaseQueries: { used: 0, remaining: 4096 },
          documentsRead: { used: tx.docsRead, remaining: MAX_DOCS_READ - tx.docsRead },
          documentsWritten: { used: tx.docsWritten, remaining: MAX_DOCS_WRITTEN - tx.docsWritten },
          functionsScheduled: { used: tx.scheduled.length, remaining: 1000 - tx.scheduled.length },
          scheduledFunctionArgsBytes: { used: 0, remaining: 16 * 1024 * 1024 },
        };
      }
      case "1.0/runUdf": {
        const udfType = args.udfType as string;
        if (udfType === "action") throw new Error("Actions cannot be run from queries or mutations");
        if (udfType === "mutation" && execution.readOnly) throw new Error("Queries cannot run mutations");
        return await this.runNested(execution, args, udfType === "mutation" ? "mutation" : "query");
      }
      case "1.0/actions/query":
        return await this.runNested(execution, args, "query");
      case "1.0/actions/mutation":
        return await this.runNested(execution, args, "mutation");
      case "1.0/actions/action":
        return await this.runNested(execution, args, "action");
      case "1.0/createFunctionHandle": {
        const { component, udfPath } = this.address(execution, args);
        return `function://${component};${udfPath}`;
      }
      case "1.0/schedule":
      case "1.0/actions/schedule":
        return await this.schedule(execution, args);
      case "1.0/cancel_job":
      case "1.0/actions/cancel_job":
        return await this.cancelJob(execution, args.id as string);
      case "1.0/storageGenerateUploadUrl":
        if (!this.owner.fileUrls) throw new Error("File uploads are not available here");
        return this.owner.fileUrls.uploadUrl();
      case "1.0/storageGetUrl": {
        const id = args.storageId as string;
        const exists = await this.readSystem(execution, id);
        return exists && this.owner.fileUrls ? this.owner.fileUrls.getUrl(id) : null;
      }
      case "1.0/storageGetMetadata": {
        const doc = await this.readSystem(execution, args.storageId as string);
        return doc
          ? { storageId: doc._id, sha256: doc.sha256, size: doc.size, contentType: doc.contentType ?? null }
          : null;
      }
      case "1.0/storageDelete":
        await this.deleteFile(execution, args.storageId as string);
        return null;
      case "1.0/storageStore": {
        const bytes = Buffer.from(args.blob as string, "base64");
        return await this.storeFile(execution, new Uint8Array(bytes), (args.contentType as string) || null);
      }
      case "1.0/storageGet": {
        const file = await this.readFile(execution, args.storageId as string);
        return file
          ? { blob: Buffer.from(file.bytes).toString("base64"), contentType: file.contentType }
          : null;
      }
      case "1.0/auditLog":
        return null;
      default:
        throw new Error(`The embedded backend does not support syscall "${op}"`);
    }
  }

  async jsSyscall(op: string, args: Record<string, unknown>): Promise<unknown> {
    const execution = this.current();
    switch (op) {
      case "storage/storeBlob": {
        const blob = args.blob as Blob;
        const bytes = new Uint8Array(await blob.arrayBuffer());
        return await this.storeFile(execution, bytes, blob.type || null);
      }
      case "storage/getBlob": {
        const file = await this.readFile(execution, args.storageId as string);
        return file
          ? new Blob([new Uint8Array(file.bytes)], file.contentType ? { type: file.contentType } : {})
          : null;
      }
      default:
        throw new Error(`The embedded backend does not support JS syscall "${op}"`);
    }
  }

  // -- Pagination ------------------------------------------------------------------------------

  /**
   * The reads that return documents answer with the documents' stored JSON as it is (Convex's JSON
   * already), without parsing and re-serializing them. Null for other syscalls.
   */
  private documentSyscall(execution: Execution, op: string, args: Record<string, JSONValue>): string | null {
    switch (op) {
      case "1.0/get": {
        const tx = this.tx(execution, "ctx.db.get");
        const id = args.id as string;
        const table = this.tableOf(execution, id, args.table as string | undefined, args.isSystem === true);
        const stored = this.store.getJson(id);
        const visible =
          stored !== null &&
          stored.component === execution.component &&
          (table.startsWith("_") ? args.isSystem === true : args.isSystem !== true);
        this.noteRead(execution, tx, table, visible ? 1 : 0);
        this.reads(execution)?.addId(table, id);
        return visible ? stored.json : "null";
      }
      case "1.0/queryStreamNext": {
        const tx = this.tx(execution, "A database query");
        const stream = tx.streams.get(args.queryId as number);
        if (!stream) throw new Error("Bad queryId");
        const row = stream.next();
        return row === null ? '{"value":null,"done":true}' : `{"value":${row.json},"done":false}`;
      }
      case "1.0/queryPage":
        return this.queryPage(execution, args);
      default:
        return null;
    }
  }

  private queryPage(execution: Execution, args: Record<string, JSONValue>): string {
    const tx = this.tx(execution, "paginate()");
    tx.paginated += 1;
    if (tx.paginated > 1) {
      throw new Error(
        "Only a single paginated query (`.paginate()`) is allowed per function execution. Calling `.paginate()` more than once in a single Convex function fails at runtime in a deployed backend. This is a Convex limit: https://docs.convex.dev/database/pagination",
      );
    }
    const record = execution.record;
    const cursor = (args.cursor as string | null) ?? null;
    let endCursor = (args.endCursor as string | null | undefined) ?? null;
    if (endCursor === null && record.active && record.journalEndCursor !== null)
      endCursor = record.journalEndCursor;
    const pageSize = args.pageSize as number;
    const maximumRowsRead = (args.maximumRowsRead as number | null | undefined) ?? null;
    const query = args.query as unknown as QueryJson;
    const page: IndexRow[] = [];
    const answer = (rest: {
      isDone: boolean;
      continueCursor: string;
      splitCursor: string | null;
      pageStatus: string | null;
    }) => `{"page":[${page.map((row) => row.json).join(",")}],${JSON.stringify(rest).slice(1)}`;
    if (cursor === END_CURSOR) {
      return answer({ isDone: true, continueCursor: END_CURSOR, splitCursor: null, pageStatus: null });
    }
    const stream = this.openStream(execution, tx, query, cursor ? decodeCursor(cursor) : null);
    const order = stream.source.order;
    const endKey = endCursor && endCursor !== END_CURSOR ? decodeCursor(endCursor) : null;
    let rowsRead = 0;
    let continueCursor = END_CURSOR;
    let pageStatus: string | null = null;
    const readCursors: string[] = [];
    for (;;) {
      const row = stream.nextRaw();
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
      if (!endCursor && page.length >= pageSize) {
        // convex-test's rule, which the clients follow: a page that ends the range is done.
        const more = stream.nextRaw();
        if (more) continueCursor = encodeCursor(key);
        break;
      }
    }
    if (endCursor && continueCursor === END_CURSOR && endCursor !== END_CURSOR) continueCursor = endCursor;
    let splitCursor: string | null = null;
    if (pageStatus === "SplitRequired" && readCursors.length >= 2) {
      splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
    } else if (pageStatus === null && rowsRead > pageSize + 1 && readCursors.length >= 2) {
      pageStatus = "SplitRecommended";
      splitCursor = readCursors[Math.floor((readCursors.length - 1) / 2)];
    }
    if (record.active) record.observedEndCursor = continueCursor;
    return answer({ isDone: continueCursor === END_CURSOR, continueCursor, splitCursor, pageStatus });
  }

  // -- Nested calls ----------------------------------------------------------------------------

  private address(
    execution: Execution,
    args: Record<string, JSONValue>,
  ): { component: ComponentPath; udfPath: string } {
    if (typeof args.functionHandle === "string") {
      const match = /^function:\/\/([^;]*);(.+)$/.exec(args.functionHandle);
      if (!match) throw new Error(`Invalid function handle ${args.functionHandle}`);
      return { component: match[1], udfPath: canonicalizeUdfPath(match[2]) };
    }
    if (typeof args.reference === "string") {
      // `_reference/childComponent/<name>/<module path>/<function>`
      const parts = args.reference.split("/");
      if (parts[0] !== "_reference" || parts[1] !== "childComponent" || parts.length < 5) {
        throw new Error(`Unsupported function reference ${args.reference}`);
      }
      const child = this.component(execution.component).children.get(parts[2]);
      if (child === undefined) throw new Error(`No component named "${parts[2]}" is installed`);
      const fn = parts[parts.length - 1];
      return { component: child, udfPath: `${parts.slice(3, -1).join("/")}:${fn}` };
    }
    if (typeof args.name === "string")
      return { component: execution.component, udfPath: canonicalizeUdfPath(args.name) };
    throw new Error("A function reference is missing its name");
  }

  private async runNested(
    execution: Execution,
    args: Record<string, JSONValue>,
    kind: FunctionKind,
  ): Promise<Value> {
    const { component, udfPath } = this.address(execution, args);
    const fn = await this.resolve(component, udfPath);
    if (!fn) throw new Error(`Could not find function for '${udfPath}'`);
    const actual: FunctionKind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action";
    if (actual !== kind) throw new Error(`Function ${udfPath} is a ${actual}, not a ${kind}`);
    const callArgs = this.checkArgs(fn, jsonToConvex(args.args ?? {}) as Record<string, Value>, udfPath);
    // Auth does not cross into a component.
    const identity = component === execution.component ? execution.identity : null;
    const inner = this.executionFor(kind, component, udfPath, identity, execution.record);
    const argsText = JSON.stringify(convexToJson([callArgs]));
    if (kind === "action") {
      return this.checkReturns(
        fn,
        await executions.run(inner(null), () => fn.invokeAction!(cryptoRandomId(), argsText)),
      );
    }
    const run = async (tx: Transaction) =>
      this.checkReturns(
        fn,
        await executions.run(inner(tx), () =>
          kind === "query" ? fn.invokeQuery!(argsText) : fn.invokeMutation!(argsText),
        ),
      );
    if (execution.tx) {
      return await this.nested(
        this.tx(execution, "runQuery/runMutation"),
        component,
        kind === "mutation",
        run,
      );
    }
    return await this.transaction(component, execution.record, kind === "mutation", run);
  }

  // -- Scheduler -------------------------------------------------------------------------------

  /** Runs `work` in the caller's transaction (a mutation), or in a new one (an action). */
  private async inWriteTransaction<T>(execution: Execution, work: (tx: Transaction) => T): Promise<T> {
    if (execution.tx) {
      if (execution.readOnly) throw new Error("This is not allowed in a query");
      return work(this.tx(execution, "The scheduler"));
    }
    return await this.transaction(execution.component, execution.record, true, (tx) =>
      executions.run({ ...execution, tx, kind: "mutation", readOnly: false }, () =>
        Promise.resolve(work(tx)),
      ),
    );
  }

  private async schedule(execution: Execution, args: Record<string, JSONValue>): Promise<string> {
    const { component, udfPath } = this.address(execution, args);
    const fn = await this.resolve(component, udfPath);
    if (!fn || fn.isQuery) throw new Error(`Could not find a mutation or action '${udfPath}' to schedule`);
    const scheduledTime = Number(args.ts) * 1000;
    return await this.inWriteTransaction(execution, (tx) => {
      const doc: Document = {
        name: udfPath,
        args: [jsonToConvex(args.args ?? {})],
        scheduledTime,
        state: { kind: "pending" },
        _id: this.store.newId(component, "_scheduled_functions"),
        _creationTime: this.store.newCreationTime(component),
      };
      this.store.write(component, "_scheduled_functions", null, doc);
      tx.scheduled.push({ id: doc._id as string, component, time: scheduledTime });
      return doc._id as string;
    });
  }

  private async cancelJob(execution: Execution, id: string): Promise<null> {
    return await this.inWriteTransaction(execution, () => {
      const stored = this.store.get(id);
      if (!stored || stored.table !== "_scheduled_functions") throw new Error(`No scheduled function ${id}`);
      const state = (stored.doc.state as { kind: string }).kind;
      if (state === "pending" || state === "inProgress") {
        this.store.write(stored.component, stored.table, stored.doc, {
          ...stored.doc,
          state: { kind: "canceled" },
          completedTime: Date.now(),
        });
      }
      return null;
    });
  }

  private arm(id: string, component: ComponentPath, time: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(id));
    this.dueTimes.set(id, time);
    this.dueComponents.set(id, component);
    rootScope.runInAsyncScope(() => {
      const timer = setTimeout(
        () => {
          this.forget(id);
          const run = this.runJob(id, component).finally(() => this.inFlight.delete(run));
          this.inFlight.add(run);
        },
        Math.max(0, time - Date.now()),
      );
      timer.unref?.();
      this.timers.set(id, timer);
    });
  }

  /** Starts the pending jobs of the store (after a start) and fails the ones a stop interrupted. */
  async resumeScheduledFunctions(): Promise<void> {
    const record = newCallRecord(this.owner, "scheduler");
    for (const component of this.components.keys()) {
      const index = this.store.index(component, "_scheduled_functions", "by_state");
      if (!index) continue;
      for (const kind of ["inProgress", "pending"]) {
        const prefix = encodeKey([kind]);
        const rows = this.store.scan(
          index,
          prefix,
          Buffer.concat([prefix, Buffer.from([AFTER])]),
          "asc",
          null,
          100_000,
        );
        for (const { doc } of rows) {
          if (kind === "pending") {
            this.arm(doc._id as string, component, doc.scheduledTime as number);
            continue;
          }
          await this.transaction(component, record, true, () => {
            this.store.write(component, "_scheduled_functions", doc, {
              ...doc,
              state: { kind: "failed", error: "The backend stopped while this function ran" },
              completedTime: Date.now(),
            });
            return Promise.resolve();
          });
        }
      }
    }
  }

  private async setJobState(
    component: ComponentPath,
    id: string,
    state: Value,
    record: CallRecord,
    expect: string,
  ): Promise<Document | null> {
    return await this.transaction(component, record, true, () => {
      const stored = this.store.get(id);
      if (!stored || (stored.doc.state as { kind: string }).kind !== expect) return Promise.resolve(null);
      const next: Document = { ...stored.doc, state };
      if ((state as { kind: string }).kind !== "inProgress") next.completedTime = Date.now();
      this.store.write(component, "_scheduled_functions", stored.doc, next);
      return Promise.resolve(stored.doc);
    });
  }

  private async runJob(id: string, component: ComponentPath): Promise<void> {
    if (this.stopped) return;
    const job = this.store.get(id);
    if (!job || (job.doc.state as { kind: string }).kind !== "pending") return;
    const name = job.doc.name as string;
    const args = ((job.doc.args as Value[])[0] ?? {}) as Record<string, Value>;
    const record = newCallRecord(this.owner, name);
    const fn = await this.resolve(component, name).catch(() => null);
    try {
      if (fn?.isMutation) {
        // Exactly once: the job's state changes in the mutation's own transaction.
        const outcome = await this.transaction(component, record, true, async (tx) => {
          const current = this.store.get(id);
          if (!current || (current.doc.state as { kind: string }).kind !== "pending") return false;
          const checked = this.checkArgs(fn, args, name);
          const text = await executions.run(
            this.executionFor("mutation", component, name, null, record)(tx),
            () => fn.invokeMutation!(JSON.stringify(convexToJson([checked]))),
          );
          this.checkReturns(fn, text);
          this.store.write(component, "_scheduled_functions", current.doc, {
            ...current.doc,
            state: { kind: "success" },
            completedTime: Date.now(),
          });
          return true;
        });
        void outcome;
      } else if (fn?.isAction) {
        if (!(await this.setJobState(component, id, { kind: "inProgress" }, record, "pending"))) return;
        await this.run({ component, udfPath: name, args, identity: null, kind: "action" }, record);
        await this.setJobState(component, id, { kind: "success" }, record, "inProgress");
      } else {
        throw new Error(`Could not find a mutation or action '${name}'`);
      }
    } catch (e) {
      const message = describeThrown(e).message;
      record.logLines.push(`[ERROR] Uncaught ${describeThrown(e).name}: ${message}`);
      const state = { kind: "failed", error: message };
      await this.setJobState(component, id, state, record, "inProgress").then(
        (done) => done ?? this.setJobState(component, id, state, record, "pending"),
      );
    } finally {
      record.active = false;
      for (const line of record.logLines) this.owner.onBackgroundLog(line, name);
    }
  }

  /** Waits until scheduled functions already running have finished. */
  async finishInProgressScheduledFunctions(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops starting scheduled functions (they stay pending in the store). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.dueTimes.clear();
    this.dueComponents.clear();
  }

  // -- Files -----------------------------------------------------------------------------------

  private async readSystem(execution: Execution, storageId: string): Promise<Document | null> {
    if (tableFromId(storageId) !== "_storage") return null;
    this.reads(execution)?.addId("_storage", storageId);
    const read = () => {
      const stored = this.store.get(storageId);
      return stored && stored.component === execution.component ? stored.doc : null;
    };
    if (execution.tx) return read();
    return await this.transaction(execution.component, execution.record, false, () =>
      Promise.resolve(read()),
    );
  }

  /** Stores a file: on disk (flushed) first, then its `_storage` document in a committed transaction. */
  async storeFile(
    execution: Execution | null,
    bytes: Uint8Array,
    contentType: string | null,
  ): Promise<string> {
    const component = execution?.component ?? "";
    const record = execution?.record ?? newCallRecord(this.owner, "storage upload");
    const id = this.store.newId(component, "_storage");
    const file = this.store.filePath(id);
    if (file) writeFileDurably(file, bytes, 0o600, this.store.writeBytes);
    else this.memoryFiles.set(id, bytes);
    const doc: Document = {
      sha256: createHash("sha256").update(bytes).digest("base64"),
      size: bytes.length,
      ...(contentType ? { contentType } : {}),
      _id: id,
      _creationTime: this.store.newCreationTime(component),
    };
    const insert = () => {
      this.store.write(component, "_storage", null, doc);
      return id;
    };
    if (execution?.tx) {
      if (execution.readOnly) throw new Error("Storing files is not allowed in a query");
      return insert();
    }
    try {
      return await this.transaction(component, record, true, () => Promise.resolve(insert()));
    } catch (e) {
      // No file stays without its document (a full disk may refuse the commit after the file); one
      // whose document did reach the WAL (its flush failed) stays with it.
      if (!this.documentCommitted(id)) {
        if (file) rmSync(file, { force: true });
        else this.memoryFiles.delete(id);
      }
      throw e;
    }
  }

  private documentCommitted(id: string): boolean {
    try {
      return this.store.getJson(id) !== null;
    } catch {
      return true;
    }
  }

  private readonly memoryFiles = new Map<string, Uint8Array>();

  private async deleteFile(execution: Execution, storageId: string): Promise<void> {
    await this.inWriteTransaction(execution, (tx) => {
      const stored = this.store.get(storageId);
      if (!stored || stored.table !== "_storage" || stored.component !== execution.component) {
        throw new Error(`Storage ID "${storageId}" not found`);
      }
      this.store.write(stored.component, "_storage", stored.doc, null);
      tx.deletedFiles.push(storageId);
      if (!this.store.filePath(storageId)) this.memoryFiles.delete(storageId);
    });
  }

  /** A stored file's bytes and content type, or null. */
  fileContents(
    storageId: string,
    component: ComponentPath = "",
  ): { bytes: Uint8Array; contentType: string | null } | null {
    if (tableFromId(storageId) !== "_storage") return null;
    const stored = this.store.get(storageId);
    if (!stored || stored.component !== component) return null;
    const file = this.store.filePath(storageId);
    let bytes: Uint8Array | undefined;
    try {
      bytes = file ? readFileSync(file) : this.memoryFiles.get(storageId);
    } catch {
      bytes = undefined;
    }
    if (!bytes) return null;
    const contentType = stored.doc.contentType;
    return { bytes, contentType: typeof contentType === "string" ? contentType : null };
  }

  private async readFile(execution: Execution, storageId: string) {
    const doc = await this.readSystem(execution, storageId);
    return doc ? this.fileContents(storageId, execution.component) : null;
  }

  /** Runs `work` with the database to itself (no function runs meanwhile), in a transaction. */
  async exclusive<T>(work: () => T, writes = false): Promise<T> {
    const record = currentRecord() ?? newCallRecord(this.owner, "system");
    return await this.transaction("", record, writes, () => Promise.resolve(work()));
  }

  /** An HTTP action's context: `fn` runs as an action (no transaction). */
  async runHttp<T>(
    udfPath: string,
    identity: Identity | Error | null,
    record: CallRecord,
    fn: () => Promise<T>,
  ): Promise<T> {
    if (identity instanceof Error) {
      const execution = this.executionFor("http", "", udfPath, null, record)(null);
      return await executions.run({ ...execution, identityError: identity }, fn);
    }
    const complete = identity ? completeIdentity(identity) : null;
    return await executions.run(this.executionFor("http", "", udfPath, complete, record)(null), fn);
  }

  /**
   * Runs `handler` as a mutation of the root app (convex-test's `t.run`: code that is not a
   * registered function, for tests and tools), as `identity`.
   */
  async runInline(
    identity: Identity | null,
    handler: (ctx: GenericMutationCtx<GenericDataModel>) => Promise<unknown>,
  ): Promise<Value> {
    const fn = mutationGeneric({
      handler: (ctx: GenericMutationCtx<GenericDataModel>) => handler(ctx),
    }) as unknown as RegisteredFunction;
    const record = currentRecord() ?? newCallRecord(this.owner, "inline");
    return await this.transaction("", record, true, async (tx) => {
      const complete = identity ? completeIdentity(identity) : null;
      const text = await executions.run(
        this.executionFor("mutation", "", "inline", complete, record)(tx),
        () => fn.invokeMutation!(JSON.stringify(convexToJson([{}]))),
      );
      return fromConvexJsonText(text);
    });
  }

  /**
   * Runs every scheduled function that is due (and those they schedule that are due), and resolves
   * when none is due or running: convex-test's `finishAllScheduledFunctions` without moving time.
   */
  async runDueJobs(): Promise<void> {
    for (;;) {
      await this.finishInProgressScheduledFunctions();
      // `runAfter(0)` stores (now + 0) / 1000 seconds: back in milliseconds it may be a hair past now.
      const due = [...this.dueTimes].filter(([, time]) => time <= Date.now() + 1).map(([id]) => id);
      if (due.length === 0) return;
      for (const id of due) {
        const component = this.dueComponents.get(id) ?? "";
        clearTimeout(this.timers.get(id));
        this.forget(id);
        const run = this.runJob(id, component).finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }
    }
  }

  private forget(id: string): void {
    this.timers.delete(id);
    this.dueTimes.delete(id);
    this.dueComponents.delete(id);
  }

  /** A page of a table's documents by creation time (the CLI's `convex data`). */
  pageOfTable(
    component: ComponentPath,
    table: string,
    order: "asc" | "desc",
    cursor: string | null,
    numItems: number,
  ): Value {
    if (cursor === END_CURSOR) return { page: [], isDone: true, continueCursor: END_CURSOR };
    const index = this.store.index(component, table, "by_creation_time")!;
    const after = cursor ? decodeCursor(cursor) : null;
    const rows = this.store.scan(index, Buffer.alloc(0), Buffer.from([AFTER]), order, after, numItems + 1);
    const page = rows.slice(0, numItems);
    const isDone = rows.length <= numItems;
    return {
      page: page.map((row) => row.doc),
      isDone,
      continueCursor: isDone || page.length === 0 ? END_CURSOR : encodeCursor(page[page.length - 1].key),
    };
  }

  /** The key of `doc` in the table's creation-time index (for tests). */
  creationKey(component: ComponentPath, table: string, doc: Document): Buffer {
    return indexKey(this.store.index(component, table, "by_creation_time")!, doc);
  }
}

const END_CURSOR = "_end_cursor";

function positionKey(position: number): Buffer {
  const key = Buffer.alloc(4);
  key.writeUInt32BE(position);
  return key;
}

function encodeCursor(key: Buffer): string {
  return key.toString("base64url");
}

function decodeCursor(cursor: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(cursor))
    throw new Error(`InvalidCursor: ${cursor.slice(0, 40)} is not a cursor of this query`);
  return Buffer.from(cursor, "base64url");
}

function splitIndexName(name: string): [string, string] {
  const dot = name.indexOf(".");
  return dot < 0 ? [name, ""] : [name.slice(0, dot), name.slice(dot + 1)];
}

/** A value as index ranges and filters send it: `{$undefined: null}` stands for `undefined`. */
function decodeOrUndefined(json: JSONValue | undefined): FieldValue {
  if (json === undefined) return undefined;
  if (typeof json === "object" && json !== null && !Array.isArray(json) && "$undefined" in json)
    return undefined;
  return jsonToConvex(json);
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

function cryptoRandomId(): string {
  return createHash("sha1")
    .update(String(Math.random()))
    .update(String(process.hrtime.bigint()))
    .digest("hex")
    .slice(0, 16);
}

// ---------------------------------------------------------------------------------------------
// globalThis.Convex

type SyscallLayer = {
  syscall: (op: string, json: string) => string;
  asyncSyscall: (op: string, json: string) => Promise<string>;
  jsSyscall: (op: string, args: Record<string, unknown>) => unknown;
};

const INSTALLED = Symbol.for("livelocal.localBackend.syscalls");
function runnerFor(): Runner {
  const execution = executions.getStore();
  if (!execution) throw new Error("Not inside a function of the embedded backend");
  return execution.runner;
}

/**
 * Installs `globalThis.Convex` once per process: inside a function this runner runs, syscalls go to
 * it; elsewhere to whatever layer was there or is set later (convex-test's, in the same process).
 */
function installSyscalls(): void {
  const g = globalThis as unknown as Record<PropertyKey, unknown>;
  if (g[INSTALLED]) return;
  let other = g.Convex as SyscallLayer | undefined;
  const ours: SyscallLayer = {
    syscall: (op, json) => {
      try {
        return runnerFor().syscall(op, json);
      } catch (e) {
        throw databaseError(e);
      }
    },
    asyncSyscall: async (op, json) => {
      try {
        return await runnerFor().asyncSyscall(op, json);
      } catch (e) {
        throw marshalError(databaseError(e));
      }
    },
    jsSyscall: async (op, args) => {
      try {
        return await runnerFor().jsSyscall(op, args);
      } catch (e) {
        throw databaseError(e);
      }
    },
  };
  Object.defineProperty(g, "Convex", {
    configurable: true,
    get: () => (executions.getStore() ? ours : other),
    set: (layer: SyscallLayer) => {
      other = layer;
    },
  });
  g[INSTALLED] = true;
}

/** A database error met by a syscall, as the call's error (`Runner.databaseError`). */
function databaseError(e: unknown): unknown {
  const execution = executions.getStore();
  return execution ? execution.runner.databaseError(e, execution.tx) : e;
}

/** Errors cross the syscall boundary as Convex's do: a ConvexError keeps its data (as JSON text). */
function marshalError(e: unknown): unknown {
  if (typeof e === "object" && e !== null && CONVEX_ERROR in e) {
    const error = e as unknown as Error & { data: unknown };
    const marshalled = new Error(error.message) as Error & { data: unknown };
    marshalled.data =
      typeof error.data === "string" ? JSON.parse(error.data) : convexToJson(error.data as Value);
    return marshalled;
  }
  return e;
}

export { executions as executionStorage };
