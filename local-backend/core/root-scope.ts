/** Server-side work (timers, subscription passes) starts from here, outside any function's context. */
import { AsyncResource } from "node:async_hooks";

const rootScope = new AsyncResource("livelocal-local-backend");

export function inRootScope<T>(fn: () => T): T {
  return rootScope.runInAsyncScope(fn);
}
