/**
 * One value per process, shared by every copy of the engine's modules: `npm run dev` loads the
 * engine again with `vite.config.ts` on each restart (decision 083), and a function run by the new
 * copy must be found by what the first copy installed once per process (`globalThis.Convex`,
 * `console`, the `uncaughtException` guard).
 */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`livelocal.localBackend.${name}`);
  const global = globalThis as { [key]?: T };
  return (global[key] ??= create());
}
