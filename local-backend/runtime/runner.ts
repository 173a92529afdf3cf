/**
 * The function runner: runs the project's Convex functions (and its components') in this process,
 * answering the syscalls `convex/server` makes (convex-abi.ts) from the SQLite store, each function
 * in a transaction of the database layer (database/transaction.ts): a query or mutation has its
 * own, a nested `runQuery`/`runMutation` is a savepoint of it; an action holds none, and each of its
 * `runQuery`/`runMutation` calls is one. The syscalls are answered by concern: database-syscalls.ts,
 * storage-syscalls.ts, nested-calls.ts, scheduled-functions.ts.
 */
import { mutationGeneric, type GenericDataModel, type GenericMutationCtx } from "convex/server";
import { convexToJson, type JSONValue, type Value } from "convex/values";
import { fromConvexJsonText } from "../values/convex-json.ts";
import { checkValue, type ValidatorJson } from "../values/validate.ts";
import { resultTooLarge } from "../values/limits.ts";
import { canonicalizeUdfPath, splitUdfPath } from "../core/paths.ts";
import type { ComponentPath } from "../storage/document.ts";
import type { SqliteStore } from "../database/store.ts";
import type { CommitLog } from "../database/commit-log.ts";
import { pageOfTable } from "../database/pagination.ts";
import { ConvexSystemError, Transactions, type Transaction } from "../database/transaction.ts";
import { currentRecord, inRecord, newCallRecord, type CallOwner, type CallRecord } from "./instrument.ts";
import { SYSCALL, installSyscalls, type RegisteredFunction } from "./convex-abi.ts";
import {
  completeIdentity,
  cryptoRandomId,
  currentExecution,
  executions,
  handlerOf,
  readsOf,
  transactionOf,
  type ComponentDefinition,
  type Execution,
  type FunctionKind,
  type Identity,
  type Syscall,
} from "./execution.ts";
import {
  databaseAsyncSyscalls,
  databaseJsSyscalls,
  databaseSyscalls,
  documentSyscalls,
} from "./database-syscalls.ts";
import { FileStorage, storageJsSyscalls, storageSyscalls } from "./storage-syscalls.ts";
import { nestedCallSyscalls } from "./nested-calls.ts";
import { ScheduledFunctions, schedulerSyscalls } from "./scheduled-functions.ts";
import { vectorSyscalls } from "./vector-syscalls.ts";
import { actionTimeout, actionTimeoutMs, runUserCode } from "./user-code.ts";

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

/** The syscalls about the call itself (`asyncSyscall`). */
const callSyscalls: Record<string, Syscall<Value | undefined>> = {
  [SYSCALL.getUserIdentity]: (_runner, execution) => {
    if (execution.identityError) throw execution.identityError;
    const reads = readsOf(execution);
    if (reads) reads.identity = true;
    return execution.identity ?? null;
  },
  [SYSCALL.getFunctionMetadata]: (_runner, execution) => ({
    name: execution.udfPath,
    componentPath: execution.component,
  }),
  [SYSCALL.getRequestMetadata]: (_runner, execution) => {
    if (execution.kind === "query") throw new Error("getRequestMetadata() is not available in queries.");
    return {
      ip: null,
      userAgent: null,
      requestId: cryptoRandomId(),
      scheduledFunctionId: null,
      authToken: null,
    };
  },
  [SYSCALL.getDeploymentMetadata]: () => ({ name: "local", region: null, class: "s16" }),
  [SYSCALL.auditLog]: () => null,
};

const ASYNC_SYSCALLS: Record<string, Syscall<Value | undefined | Promise<Value | undefined>>> = {
  ...databaseAsyncSyscalls,
  ...callSyscalls,
  ...nestedCallSyscalls,
  ...schedulerSyscalls,
  ...storageSyscalls,
  ...vectorSyscalls,
};

export class Runner {
  readonly transactions: Transactions;
  readonly files = new FileStorage(this);
  readonly scheduled = new ScheduledFunctions(this);
  /** Functions by component and path, as loaded (cleared when the functions change). */
  private readonly resolved = new Map<string, Promise<RegisteredFunction | null>>();
  /** Each function's argument and return validators, parsed once. */
  private readonly validators = new WeakMap<
    RegisteredFunction,
    { args: ValidatorJson; returns: ValidatorJson | null }
  >();

  constructor(
    readonly store: SqliteStore,
    private components: Map<ComponentPath, ComponentDefinition>,
    readonly owner: CallOwner,
    commits: CommitLog,
  ) {
    this.transactions = new Transactions(store, commits, (job) =>
      this.scheduled.arm(job.id, job.component, job.time),
    );
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

  componentPaths(): Iterable<ComponentPath> {
    return this.components.keys();
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
        runUserCode(
          udfPath,
          () =>
            executions.run(execution(null), () =>
              fn.invokeAction!(cryptoRandomId(), JSON.stringify(convexToJson([args]))),
            ),
          actionTimeout(fn),
        ),
      );
      return { value: this.checkReturns(fn, json, udfPath), json };
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
      const json = await runUserCode(udfPath, () =>
        executions.run(execution(tx), () =>
          kind === "query"
            ? fn.invokeQuery!(JSON.stringify(convexToJson([args])))
            : fn.invokeMutation!(JSON.stringify(convexToJson([args]))),
        ),
      );
      const value = this.checkReturns(fn, json, udfPath);
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
  executionFor(
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

  checkArgs(fn: RegisteredFunction, args: Record<string, Value>, udfPath: string): Record<string, Value> {
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

  checkReturns(fn: RegisteredFunction, text: string, udfPath: string): Value {
    const tooLarge = resultTooLarge(udfPath, text);
    if (tooLarge) throw new ConvexSystemError(tooLarge);
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
  async transaction<T>(
    component: ComponentPath,
    record: CallRecord,
    writes: boolean,
    work: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    const parent = executions.getStore();
    if (parent?.tx && !parent.tx.closed) {
      return await this.transactions.nested(parent.tx, component, writes, work);
    }
    return await this.transactions.run(component, record, writes, (tx) => inRecord(record, () => work(tx)));
  }

  /** Runs `work` in the caller's transaction (a mutation), or in a new one (an action). */
  async inWriteTransaction<T>(execution: Execution, work: (tx: Transaction) => T): Promise<T> {
    if (execution.tx) {
      if (execution.readOnly) throw new Error("This is not allowed in a query");
      return work(transactionOf(execution, "The scheduler"));
    }
    return await this.transaction(execution.component, execution.record, true, (tx) =>
      executions.run({ ...execution, tx, kind: "mutation", readOnly: false }, () =>
        Promise.resolve(work(tx)),
      ),
    );
  }

  /**
   * Runs a long write (an import) as one transaction without holding up reads (decision 070;
   * `Transactions.longWrite`), for the current call.
   */
  async longWrite<T>(work: (part: <R>(write: () => R) => Promise<R>) => Promise<T>): Promise<T> {
    const record = currentRecord() ?? newCallRecord(this.owner, "system");
    return await this.transactions.longWrite(record, (part) => inRecord(record, () => work(part)));
  }

  /** Runs `work` with the database to itself (no function runs meanwhile), in a transaction. */
  async exclusive<T>(work: () => T, writes = false): Promise<T> {
    const record = currentRecord() ?? newCallRecord(this.owner, "system");
    return await this.transaction("", record, writes, () => Promise.resolve(work()));
  }

  /** A database error as the call's error (`Transactions.databaseError`). */
  databaseError(e: unknown, tx: Transaction | null): unknown {
    return this.transactions.databaseError(e, tx);
  }

  /** An HTTP action's context: `fn` runs as an action (no transaction). */
  async runHttp<T>(
    udfPath: string,
    identity: Identity | Error | null,
    record: CallRecord,
    fn: () => Promise<T>,
  ): Promise<T> {
    // A refused token (an Error) runs the action signed out, and its own getUserIdentity() throws it.
    const refused = identity instanceof Error ? identity : undefined;
    const signedIn = identity instanceof Error ? null : identity;
    const complete = signedIn ? completeIdentity(signedIn) : null;
    const execution = {
      ...this.executionFor("http", "", udfPath, complete, record)(null),
      ...(refused && { identityError: refused }),
    };
    return await runUserCode(udfPath, () => executions.run(execution, fn), { timeoutMs: actionTimeoutMs() });
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

  /** Convex-test's `finishAllScheduledFunctions` (`ScheduledFunctions.runDueJobs`). */
  async runDueJobs(): Promise<void> {
    await this.scheduled.runDueJobs();
  }

  /** A page of a table's documents by creation time (the CLI's `convex data`). */
  pageOfTable(
    component: ComponentPath,
    table: string,
    order: "asc" | "desc",
    cursor: string | null,
    numItems: number,
  ): Value {
    return pageOfTable(this.store, component, table, order, cursor, numItems);
  }

  /** A stored file's bytes and content type, or null. */
  fileContents(storageId: string): { bytes: Uint8Array; contentType: string | null } | null {
    return this.files.fileContents(storageId);
  }

  // -- Syscalls (convex-abi.ts routes them here) -----------------------------------------------

  syscall(op: string, json: string): string {
    const execution = currentExecution();
    const args = JSON.parse(json) as Record<string, JSONValue>;
    const handler = handlerOf(databaseSyscalls, op);
    if (!handler) throw new Error(`The embedded backend does not support syscall "${op}"`);
    return handler(this, execution, args);
  }

  async asyncSyscall(op: string, json: string): Promise<string> {
    const execution = currentExecution();
    const args = JSON.parse(json) as Record<string, JSONValue>;
    const raw = handlerOf(documentSyscalls, op);
    if (raw) return raw(this, execution, args);
    const handler = handlerOf(ASYNC_SYSCALLS, op);
    if (!handler) throw new Error(`The embedded backend does not support syscall "${op}"`);
    const result = await handler(this, execution, args);
    return JSON.stringify(convexToJson(result === undefined ? null : result));
  }

  async jsSyscall(op: string, args: Record<string, unknown>): Promise<unknown> {
    const execution = currentExecution();
    const handler = handlerOf(storageJsSyscalls, op) ?? handlerOf(databaseJsSyscalls, op);
    if (!handler) throw new Error(`The embedded backend does not support JS syscall "${op}"`);
    return await handler(this, execution, args as Record<string, JSONValue>);
  }
}
