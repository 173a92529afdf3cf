/**
 * The function running now: which one, in which component, as whom, in which transaction, for which
 * call. Syscalls find it through `executions` (AsyncLocalStorage), as Convex's isolate knows its own.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "../core/process-wide.ts";
import { createHash } from "node:crypto";
import type { UserIdentity } from "convex/server";
import type { JSONValue } from "convex/values";
import type { ReadSet } from "../storage/read-set.ts";
import type { ComponentPath } from "../storage/document.ts";
import type { TableIndexes } from "../database/index-catalog.ts";
import type { ValidatorJson } from "../values/validate.ts";
import type { Transaction } from "../database/transaction.ts";
import type { CallRecord } from "./instrument.ts";
import type { Runner } from "./runner.ts";

export type FunctionKind = "query" | "mutation" | "action";
export type Identity = Partial<UserIdentity> & Record<string, unknown>;

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

export type Execution = {
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

export const executions = processWide("executions", () => new AsyncLocalStorage<Execution>());

export function currentExecution(): Execution {
  const execution = executions.getStore();
  if (!execution) throw new Error("Not inside a Convex function");
  return execution;
}

/** The transaction `what` (a database call) runs in: the function's own, still open. */
export function transactionOf(execution: Execution, what: string): Transaction {
  const tx = execution.tx;
  if (!tx) throw new Error(`${what} is not available in actions; use ctx.runQuery or ctx.runMutation.`);
  if (tx.closed) throw new Error(`${what} after the function's transaction ended (a promise left running?)`);
  return tx;
}

/** The read set of the call `execution` belongs to, while it is running. */
export function readsOf(execution: Execution): ReadSet | null {
  return execution.record.active ? execution.record.reads : null;
}

/** The identity as Convex completes it (`tokenIdentifier` from issuer and subject). */
export function completeIdentity(identity: Identity): Identity {
  const subject = typeof identity.subject === "string" ? identity.subject : "";
  const issuer = typeof identity.issuer === "string" ? identity.issuer : "https://convex.test";
  return {
    ...identity,
    subject,
    issuer,
    tokenIdentifier: identity.tokenIdentifier ?? `${issuer}|${subject}`,
  };
}

export function describeThrown(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

export function cryptoRandomId(): string {
  return createHash("sha1")
    .update(String(Math.random()))
    .update(String(process.hrtime.bigint()))
    .digest("hex")
    .slice(0, 16);
}

/** A syscall's handler: the function's arguments in, its answer out. */
export type Syscall<R> = (runner: Runner, execution: Execution, args: Record<string, JSONValue>) => R;

/** The handler of `op` in `table`, if it has one. */
export function handlerOf<H>(table: Record<string, H>, op: string): H | undefined {
  return Object.hasOwn(table, op) ? table[op] : undefined;
}
