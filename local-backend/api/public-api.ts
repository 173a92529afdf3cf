/**
 * Convex's public function API: `/api/query|mutation|action|function`, `/api/run/<module>/<function>`
 * (what `ConvexHttpClient` and `npx convex run` call), `/api/query_ts` and `/api/query_at_ts`
 * (query-at-ts.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { convexToJson, type JSONValue, type Value } from "convex/values";
import { stringify } from "safe-stable-stringify";
import { z } from "zod";
import { clientErrorMessage, type CallOutcome } from "../runtime/call-outcome.ts";
import type { FunctionKind } from "../runtime/execution.ts";
import { decodeArgs, decodeTs, encodeTs } from "../core/protocol.ts";
import {
  HttpError,
  MAX_FUNCTION_REQUEST_BYTES,
  callerFromHeader,
  readJson,
  sendJson,
  withBodyTurn,
} from "./http.ts";
import type { BackendServices } from "./services.ts";

/** Convex's status code for "the function failed". */
export const STATUS_CODE_UDF_FAILED = 560;

/** `/api/query|mutation|action`: arguments as an array (one per argument); `/api/function`: one object. */
const functionRequest = z.object({
  path: z.string().min(1).max(1024),
  format: z.enum(["convex_encoded_json", "json"]).optional(),
  args: z.unknown().optional(),
});
function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `/api/query_at_ts`: a query, and the timestamp to read at (`/api/query_ts`'s). */
const atTsRequest = functionRequest.extend({ ts: z.string() });

/** `/api/run/<function identifier>`: the path is in the URL. */
const runRequest = functionRequest.extend({ path: z.undefined().optional() });

/** `/api/run/messages/list` runs `messages:list` (Convex's HTTP API); null for other paths. */
function runRoute(pathname: string): FunctionRoute | null {
  const match = /^\/api\/run\/(.+\/[^/]+)$/.exec(pathname);
  if (!match) return null;
  let identifier: string;
  try {
    identifier = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  const slash = identifier.lastIndexOf("/");
  return {
    kind: undefined,
    argsAsArray: false,
    path: `${identifier.slice(0, slash)}:${identifier.slice(slash + 1)}`,
  };
}

function outcomeBody(
  outcome: Pick<CallOutcome, "logLines"> &
    ({ success: true; value: Value } | { success: false; errorMessage: string; errorData?: Value }),
): { status: number; body: Record<string, unknown> } {
  if (outcome.success) {
    return {
      status: 200,
      body: { status: "success", value: convexToJson(outcome.value), logLines: outcome.logLines },
    };
  }
  return {
    status: STATUS_CODE_UDF_FAILED,
    body: {
      status: "error",
      errorMessage: clientErrorMessage(outcome.errorMessage),
      ...(outcome.errorData !== undefined ? { errorData: convexToJson(outcome.errorData) } : {}),
      logLines: outcome.logLines,
    },
  };
}

/**
 * How a route takes its arguments: `/api/query|mutation|action` as the official client sends them (an
 * array, one per argument) or as Convex's HTTP API documents them (one object); `/api/function` and
 * `/api/run/<module>/<function>` one object. `path` comes from the body, or from the URL for `/api/run`.
 */
type FunctionRoute = { kind: FunctionKind | undefined; argsAsArray: boolean; path?: string; atTs?: true };

async function runFunctionRequest(
  services: BackendServices,
  req: IncomingMessage,
  route: FunctionRoute,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = await readJson<{ path?: string; args?: unknown; ts?: string }>(
    req,
    route.atTs ? atTsRequest : route.path === undefined ? functionRequest : runRequest,
    MAX_FUNCTION_REQUEST_BYTES,
  );
  const path = route.path ?? body.path ?? "";
  const caller = await callerFromHeader(services, req);
  let wireArgs: JSONValue[];
  if (route.argsAsArray && Array.isArray(body.args)) {
    wireArgs = body.args as JSONValue[];
  } else if (!route.argsAsArray || body.args === undefined || isPlainObject(body.args)) {
    wireArgs = [(body.args === undefined ? {} : body.args) as JSONValue];
  } else {
    throw new HttpError(400, "BadJsonBody", "Invalid `args`: expected an array of arguments or one object");
  }
  const args = decodeArgs(wireArgs, path);
  if (args instanceof Error) {
    return outcomeBody({ success: false, errorMessage: args.message, logLines: [] });
  }
  const call = () =>
    services.call(path, args, {
      identity: caller.identity,
      // An admin runs internal functions too (`npx convex run`), as on Convex.
      publicOnly: !caller.admin,
      kind: route.kind,
    });
  const outcome =
    body.ts === undefined
      ? await call()
      : await services.queryAtTs.run(
          tsOf(body.ts),
          stringify([path, wireArgs, caller.admin, caller.identity]),
          call,
        );
  services.printLogs(outcome.udfPath, outcome.logLines);
  return outcomeBody(outcome);
}

function tsOf(encoded: string): bigint {
  try {
    return decodeTs(encoded);
  } catch (e) {
    throw new HttpError(400, "BadJsonBody", (e as Error).message);
  }
}

/** Answers the function API's paths; false for other paths under `/api/`. */
export async function handlePublicApi(
  services: BackendServices,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<boolean> {
  const method = req.method ?? "GET";
  if (method === "POST" && pathname === "/api/query_ts") {
    sendJson(res, 200, { ts: encodeTs(services.clock.next()) });
    return true;
  }
  const routes: Record<string, FunctionRoute> = {
    "/api/query": { kind: "query", argsAsArray: true },
    "/api/query_at_ts": { kind: "query", argsAsArray: true, atTs: true },
    "/api/mutation": { kind: "mutation", argsAsArray: true },
    "/api/action": { kind: "action", argsAsArray: true },
    "/api/function": { kind: undefined, argsAsArray: false },
  };
  const route = routes[pathname.replace(/\/$/, "")] ?? runRoute(pathname);
  if (!route) return false;
  if (method !== "POST")
    throw new HttpError(405, "MethodNotAllowed", `${method} is not allowed on ${pathname}`);
  const { status, body } = await withBodyTurn(req, MAX_FUNCTION_REQUEST_BYTES, () =>
    runFunctionRequest(services, req, route),
  );
  sendJson(res, status, body);
  return true;
}
