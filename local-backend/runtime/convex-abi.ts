/**
 * The one seam with `convex`'s private internals, written for convex 1.48.0 (package.json): what
 * `convex/server` expects of the process it runs in and what it leaves on the objects it makes.
 * None of it is public API; a new `convex` version is checked against this file first.
 *
 * - the syscall ABI: `globalThis.Convex` (`syscall`, `asyncSyscall`, `jsSyscall`) and its op names;
 * - registered functions (`isQuery`, `invokeMutation`, `exportArgs`, …) and the HTTP router's `lookup`;
 * - `ConvexError`'s marker, and how its data crosses the syscall boundary;
 * - function handles (`function://…`) and references to a child component's functions;
 * - component definitions (`_childComponents`, `componentDefinitionPath`) and a schema's `export()`.
 */
import { convexToJson, type Value } from "convex/values";
import type { ValidatorJson } from "../values/validate.ts";
import type { VectorIndexSpec } from "../database/vector-search.ts";
import { executions } from "./execution.ts";
import { userCallEnded } from "./user-code.ts";

/** A registered Convex function, as `convex/server` makes them. */
export type RegisteredFunction = {
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
  /** Not `convex`'s: set on a stand-in (isolate/stand-ins.ts) for an export of a `"use node"` module. */
  nodeExport?: string;
};

/** `convex/server`'s `HttpRouter` (the default export of `convex/http.ts`), as far as it is used. */
export type HttpRouter = {
  lookup(
    path: string,
    method: string,
  ): [{ invokeHttpAction(r: Request): Promise<Response> }, string, string] | null;
};

/** What `schema.export()` gives (`defineSchema`). */
export type SchemaExport = {
  tables: {
    tableName: string;
    indexes: { indexDescriptor: string; fields: string[] }[];
    searchIndexes: { indexDescriptor: string; searchField: string; filterFields: string[] }[];
    vectorIndexes?: VectorIndexSpec[];
    stagedVectorIndexes?: VectorIndexSpec[];
    stagedDbIndexes?: { indexDescriptor: string }[];
    stagedSearchIndexes?: { indexDescriptor: string }[];
    documentType: ValidatorJson | null;
  }[];
  schemaValidation: boolean;
};

/** A schema's tables, indexes and validators (`schema.export()`, a private method). */
export function exportSchema(schema: object): SchemaExport {
  return JSON.parse((schema as { export(): string }).export()) as SchemaExport;
}

/** The syscalls `convex/server` makes, by name. */
export const SYSCALL = {
  // Database
  queryStream: "1.0/queryStream",
  queryStreamNext: "1.0/queryStreamNext",
  queryCleanup: "1.0/queryCleanup",
  queryPage: "1.0/queryPage",
  get: "1.0/get",
  count: "1.0/count",
  insert: "1.0/insert",
  shallowMerge: "1.0/shallowMerge",
  replace: "1.0/replace",
  remove: "1.0/remove",
  normalizeId: "1.0/db/normalizeId",
  getSnapshotTs: "1.0/getSnapshotTs",
  getTransactionMetrics: "1.0/getTransactionMetrics",
  // The call
  getUserIdentity: "1.0/getUserIdentity",
  getFunctionMetadata: "1.0/getFunctionMetadata",
  getRequestMetadata: "1.0/getRequestMetadata",
  getDeploymentMetadata: "1.0/getDeploymentMetadata",
  auditLog: "1.0/auditLog",
  // Nested calls
  runUdf: "1.0/runUdf",
  actionQuery: "1.0/actions/query",
  actionMutation: "1.0/actions/mutation",
  actionAction: "1.0/actions/action",
  createFunctionHandle: "1.0/createFunctionHandle",
  // Scheduler
  schedule: "1.0/schedule",
  actionSchedule: "1.0/actions/schedule",
  cancelJob: "1.0/cancel_job",
  actionCancelJob: "1.0/actions/cancel_job",
  // Vector search (actions)
  vectorSearch: "1.0/actions/vectorSearch",
  // File storage
  storageGenerateUploadUrl: "1.0/storageGenerateUploadUrl",
  storageGetUrl: "1.0/storageGetUrl",
  storageGetMetadata: "1.0/storageGetMetadata",
  storageDelete: "1.0/storageDelete",
  storageStore: "1.0/storageStore",
  storageGet: "1.0/storageGet",
  // JS syscalls (`jsSyscall`)
  storeBlob: "storage/storeBlob",
  getBlob: "storage/getBlob",
} as const;

export type SyscallLayer = {
  syscall: (op: string, json: string) => string;
  asyncSyscall: (op: string, json: string) => Promise<string>;
  jsSyscall: (op: string, args: Record<string, unknown>) => unknown;
};

const INSTALLED = Symbol.for("livelocal.localBackend.syscalls");

function current() {
  const execution = executions.getStore();
  if (!execution) throw new Error("Not inside a function of the embedded backend");
  // Convex stops a function's isolate when the call ends; here its leftover code keeps running, so
  // it may no longer read or write (an action that timed out must not write after its caller heard).
  if (userCallEnded())
    throw new Error(`${execution.udfPath} has already ended; its code can no longer call Convex.`);
  return execution;
}

/**
 * Installs `globalThis.Convex` once per process: inside a function a runner runs, syscalls go to
 * that runner; elsewhere to whatever layer was there or is set later (convex-test's, in the same
 * process).
 */
export function installSyscalls(): void {
  const g = globalThis as unknown as Record<PropertyKey, unknown>;
  if (g[INSTALLED]) return;
  let other = g.Convex as SyscallLayer | undefined;
  const ours: SyscallLayer = {
    syscall: (op, json) => {
      try {
        return current().runner.syscall(op, json);
      } catch (e) {
        throw databaseError(e);
      }
    },
    asyncSyscall: async (op, json) => {
      try {
        return await current().runner.asyncSyscall(op, json);
      } catch (e) {
        throw marshalError(databaseError(e));
      }
    },
    jsSyscall: async (op, args) => {
      try {
        return await current().runner.jsSyscall(op, args);
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

/** A database error met by a syscall, as the call's error (`Transactions.databaseError`). */
function databaseError(e: unknown): unknown {
  const execution = executions.getStore();
  return execution ? execution.runner.databaseError(e, execution.tx) : e;
}

const CONVEX_ERROR = Symbol.for("ConvexError");

export function isConvexError(e: unknown): e is Error & { data: Value } {
  return typeof e === "object" && e !== null && CONVEX_ERROR in e;
}

/** Errors cross the syscall boundary as Convex's do: a ConvexError keeps its data (as JSON text). */
function marshalError(e: unknown): unknown {
  if (isConvexError(e)) {
    const error = e as unknown as Error & { data: unknown };
    const marshalled = new Error(error.message) as Error & { data: unknown };
    marshalled.data =
      typeof error.data === "string" ? JSON.parse(error.data) : convexToJson(error.data as Value);
    return marshalled;
  }
  return e;
}

/** A function handle (`createFunctionHandle`) naming `udfPath` of `component`. */
export function functionHandle(component: string, udfPath: string): string {
  return `function://${component};${udfPath}`;
}

/** The component and function path a function handle names. */
export function parseFunctionHandle(handle: string): { component: string; udfPath: string } {
  const match = /^function:\/\/([^;]*);(.+)$/.exec(handle);
  if (!match) throw new Error(`Invalid function handle ${handle}`);
  return { component: match[1], udfPath: match[2] };
}

/**
 * A reference to a child component's function, `_reference/childComponent/<name>/<module path>/<fn>`:
 * the child's name and the function's path in it.
 */
export function parseChildReference(reference: string): { child: string; udfPath: string } {
  const parts = reference.split("/");
  if (parts[0] !== "_reference" || parts[1] !== "childComponent" || parts.length < 5) {
    throw new Error(`Unsupported function reference ${reference}`);
  }
  const fn = parts[parts.length - 1];
  return { child: parts[2], udfPath: `${parts.slice(3, -1).join("/")}:${fn}` };
}

/** A component definition as `defineComponent`/`defineApp` make it (their private fields). */
export type ComponentDefinitionObject = {
  _isRoot: boolean;
  _name?: string;
  componentDefinitionPath?: string;
  _childComponents: [string, ComponentDefinitionObject, ...unknown[]][];
};

/** The components a definition installs (`app.use()`): name, definition, and the folder stamped on it. */
export function childComponents(
  definition: ComponentDefinitionObject,
): { name: string; child: ComponentDefinitionObject; dir: string | undefined }[] {
  return definition._childComponents.map(([name, child]) => ({
    name,
    child,
    dir: child.componentDefinitionPath,
  }));
}

export function isComponentDefinition(value: unknown): value is ComponentDefinitionObject {
  return (
    typeof value === "object" &&
    value !== null &&
    "_childComponents" in value &&
    Array.isArray((value as ComponentDefinitionObject)._childComponents)
  );
}

/**
 * The module that re-exports the component definition imported from `specifier`, stamped with its
 * folder as Convex's bundler stamps it (`app.use()` needs `componentDefinitionPath`).
 */
export function stampedDefinitionModule(specifier: string, dir: string): string {
  return [
    `import definition from ${JSON.stringify(specifier)};`,
    `definition.componentDefinitionPath = ${JSON.stringify(dir)};`,
    `definition.defaultName = definition._name;`,
    `export default definition;`,
  ].join("\n");
}
