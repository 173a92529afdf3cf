/**
 * What the backend's thread holds of a module loaded in isolates (pool.ts): its registered functions
 * and its HTTP router, each a stand-in that the engine calls as it calls any, and that runs the real
 * one in an isolate.
 */
import { httpRouter, type PublicHttpAction, type RoutableMethod } from "convex/server";
import { executions } from "../execution.ts";
import {
  readWhole,
  responseFromWire,
  type ModuleShape,
  type ToIsolate,
  type WireResponse,
} from "./protocol.ts";

/** Queries and mutations (one transaction at a time anyway), or actions (HTTP actions among them). */
export type Lane = "transaction" | "action";

/** A call to run in an isolate (its `callId` and `generation` are the pool's to set). */
export type IsolateCall = ToIsolate & { type: "call" | "http" };

/** `file`'s stand-ins, from what the isolate said of it; `run` runs a call in an isolate of a lane. */
export function standIns(
  file: string,
  { functions, routes }: ModuleShape,
  run: (lane: Lane, message: IsolateCall) => Promise<unknown>,
  /** The module starts with `"use node"`: its actions time out, and its calls log, as Convex's Node runtime does. */
  usesNode = false,
): Record<string, unknown> {
  const module: Record<string, unknown> = {};
  if (routes) module.default = standInRouter(file, routes, run);
  for (const shape of functions) {
    const invoke =
      (method: "invokeQuery" | "invokeMutation" | "invokeAction") =>
      (...args: string[]) =>
        run(method === "invokeAction" ? "action" : "transaction", {
          type: "call",
          callId: 0,
          generation: 0,
          file,
          exportName: shape.name,
          method,
          args,
          udfPath: executions.getStore()?.udfPath ?? shape.name,
          ...(usesNode && { node: true }),
        }) as Promise<string>;
    module[shape.name] = {
      isQuery: shape.isQuery,
      isMutation: shape.isMutation,
      isAction: shape.isAction,
      isPublic: shape.isPublic,
      isInternal: shape.isInternal,
      ...(shape.args !== null && { exportArgs: () => shape.args }),
      ...(shape.returns !== null && { exportReturns: () => shape.returns }),
      ...(shape.isQuery && { invokeQuery: invoke("invokeQuery") }),
      ...(shape.isMutation && { invokeMutation: invoke("invokeMutation") }),
      ...(shape.isAction && { invokeAction: invoke("invokeAction") }),
      ...(shape.isAction && usesNode && { nodeExport: shape.name }),
    };
  }
  return module;
}

/**
 * A router with the routes of `file`'s (`convex/server`'s own, so a path is matched as Convex
 * matches it), whose handlers run the HTTP action in an isolate of the action lane: the request
 * crosses with its body read whole (`api/http-actions.ts` has bounded it), the response comes back
 * read whole, up to Convex's limit.
 */
function standInRouter(
  file: string,
  routes: [string, string][],
  run: (lane: Lane, message: IsolateCall) => Promise<unknown>,
): unknown {
  const router = httpRouter();
  for (const [path, method] of routes) {
    const handler = {
      isHttp: true,
      invokeHttpAction: async (request: Request) => {
        const wire = (await run("action", {
          type: "http",
          callId: 0,
          generation: 0,
          file,
          route: [path, method],
          request: {
            url: request.url,
            method: request.method,
            headers: [...request.headers],
            body: await readWhole(request.body),
          },
          udfPath: executions.getStore()?.udfPath ?? `${method} ${path}`,
        })) as WireResponse;
        return responseFromWire(wire);
      },
    } as unknown as PublicHttpAction;
    const where = path.endsWith("*") ? { pathPrefix: path.slice(0, -1) } : { path };
    router.route({ ...where, method: method as RoutableMethod, handler });
  }
  return router;
}
