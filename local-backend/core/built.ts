/**
 * Whether this code runs from the server's build (`dist/.server/engine/`, decision 093) rather than from
 * its TypeScript source (tsx, Vite, Vitest). The build defines `__LIVELOCAL_BUILT__`; the source never
 * does. Built, the isolates import the prebuilt functions (`dist/.server/convex/`) with Node's own
 * `import()`, and the engine's files sit beside the entry rather than in `local-backend/`.
 */
declare const __LIVELOCAL_BUILT__: boolean | undefined;

export const BUILT: boolean = typeof __LIVELOCAL_BUILT__ !== "undefined" && __LIVELOCAL_BUILT__;
