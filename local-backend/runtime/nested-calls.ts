/**
 * Calls from a function to another (`ctx.runQuery`/`runMutation`/`runAction`, a component's
 * functions, function handles): a query's or mutation's nested call is a savepoint of its caller's
 * transaction; an action's is a transaction of its own.
 */
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import { canonicalizeUdfPath } from "../core/paths.ts";
import type { Transaction } from "../database/transaction.ts";
import { parseTransactionLimits } from "../values/transaction-limits.ts";
import type { ComponentPath } from "../storage/document.ts";
import {
  SYSCALL,
  functionHandle,
  parseChildReference,
  parseFunctionHandle,
  type RegisteredFunction,
} from "./convex-abi.ts";
import { nestedCallError } from "./call-outcome.ts";
import {
  cryptoRandomId,
  executions,
  transactionOf,
  type Execution,
  type FunctionKind,
  type Syscall,
} from "./execution.ts";
import type { Runner } from "./runner.ts";
import { actionTimeout, runUserCode } from "./user-code.ts";

/** The function a call names: by handle, by reference into a child component, or by name. */
export function addressOf(
  runner: Runner,
  execution: Execution,
  args: Record<string, JSONValue>,
): { component: ComponentPath; udfPath: string } {
  if (typeof args.functionHandle === "string") {
    const { component, udfPath } = parseFunctionHandle(args.functionHandle);
    return { component, udfPath: canonicalizeUdfPath(udfPath) };
  }
  if (typeof args.reference === "string") {
    const { child: name, udfPath } = parseChildReference(args.reference);
    const child = runner.component(execution.component).children.get(name);
    if (child === undefined) throw new Error(`No component named "${name}" is installed`);
    return { component: child, udfPath };
  }
  if (typeof args.name === "string")
    return { component: execution.component, udfPath: canonicalizeUdfPath(args.name) };
  throw new Error("A function reference is missing its name");
}

async function runNested(
  runner: Runner,
  execution: Execution,
  args: Record<string, JSONValue>,
  kind: FunctionKind,
): Promise<Value> {
  const { component, udfPath } = addressOf(runner, execution, args);
  const fn = await runner.resolve(component, udfPath);
  if (!fn) throw new Error(`Could not find function for '${udfPath}'`);
  const actual: FunctionKind = fn.isQuery ? "query" : fn.isMutation ? "mutation" : "action";
  if (actual !== kind) throw new Error(`Function ${udfPath} is a ${actual}, not a ${kind}`);
  try {
    return await runCallee(runner, execution, args, kind, { component, udfPath, fn });
  } catch (e) {
    // The callee's failure reaches its caller as Convex's does: its whole text, wrapped by the caller's.
    throw nestedCallError(e);
  }
}

async function runCallee(
  runner: Runner,
  execution: Execution,
  args: Record<string, JSONValue>,
  kind: FunctionKind,
  { component, udfPath, fn }: { component: ComponentPath; udfPath: string; fn: RegisteredFunction },
): Promise<Value> {
  const callArgs = runner.checkArgs(fn, jsonToConvex(args.args ?? {}) as Record<string, Value>, udfPath);
  // Auth does not cross into a component.
  const identity = component === execution.component ? execution.identity : null;
  const inner = runner.executionFor(kind, component, udfPath, identity, execution.record);
  const argsText = JSON.stringify(convexToJson([callArgs]));
  if (kind === "action") {
    return runner.checkReturns(
      fn,
      await runUserCode(
        udfPath,
        () => executions.run(inner(null), () => fn.invokeAction!(cryptoRandomId(), argsText)),
        actionTimeout(fn),
      ),
      udfPath,
    );
  }
  const run = async (tx: Transaction) =>
    runner.checkReturns(
      fn,
      await runUserCode(udfPath, () =>
        executions.run(inner(tx), () =>
          kind === "query" ? fn.invokeQuery!(argsText) : fn.invokeMutation!(argsText),
        ),
      ),
      udfPath,
    );
  if (execution.tx) {
    return await runner.transactions.nested(
      transactionOf(execution, "runQuery/runMutation"),
      component,
      kind === "mutation",
      run,
      parseTransactionLimits(args.transactionLimits),
    );
  }
  return await runner.transaction(component, execution.record, kind === "mutation", run);
}

/** The syscalls of nested calls (`asyncSyscall`). */
export const nestedCallSyscalls: Record<string, Syscall<Promise<Value | undefined>>> = {
  [SYSCALL.runUdf]: async (runner, execution, args) => {
    const udfType = args.udfType as string;
    if (udfType === "action") throw new Error("Actions cannot be run from queries or mutations");
    if (udfType === "mutation" && execution.readOnly) throw new Error("Queries cannot run mutations");
    return await runNested(runner, execution, args, udfType === "mutation" ? "mutation" : "query");
  },
  [SYSCALL.actionQuery]: async (runner, execution, args) => await runNested(runner, execution, args, "query"),
  [SYSCALL.actionMutation]: async (runner, execution, args) =>
    await runNested(runner, execution, args, "mutation"),
  [SYSCALL.actionAction]: async (runner, execution, args) =>
    await runNested(runner, execution, args, "action"),
  [SYSCALL.createFunctionHandle]: (runner, execution, args) => {
    const { component, udfPath } = addressOf(runner, execution, args);
    return Promise.resolve(functionHandle(component, udfPath));
  },
};
