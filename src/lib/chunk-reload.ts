/**
 * docs/product.md#errors: a chunk-load error reloads the page, at most once per 10-second window,
 * remembered in session storage. After a deploy the old build's chunks are gone, and a reload fetches
 * the new index.html; if the reload does not help (the server is down), the window stops a loop and
 * the error page shows instead.
 */

export const CHUNK_RELOAD_STORAGE_KEY = "livelocal:chunk-reload-at";
export const CHUNK_RELOAD_WINDOW_MS = 10_000;

// The messages of a failed dynamic import or preload in Chromium, Firefox, Safari, and Vite's own.
const CHUNK_ERROR_PATTERN =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (?:CSS )?chunk [\w-]+ failed/i;

/** Whether an error is a chunk that failed to load (by name or by message). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null)) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === "ChunkLoadError" || (typeof message === "string" && CHUNK_ERROR_PATTERN.test(message));
}

type ReloadStorage = Pick<Storage, "getItem" | "setItem">;

/**
 * Whether to reload now: yes unless a reload for a chunk error happened less than the window ago.
 * Records the reload when it says yes. Storage that cannot be read or written (private mode) means
 * no reload, so a broken storage can never cause a loop.
 */
export function claimChunkReload(storage: ReloadStorage, now: number): boolean {
  try {
    const last = Number(storage.getItem(CHUNK_RELOAD_STORAGE_KEY));
    if (Number.isFinite(last) && last > 0 && now - last >= 0 && now - last < CHUNK_RELOAD_WINDOW_MS) {
      return false;
    }
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

function sessionStorageOrNull(): ReloadStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

type ReloadDeps = { storage: ReloadStorage | null; now: number; reload: () => void };

/** Reloads the page for a chunk-load error if the window allows; returns whether it did. */
export function reloadForChunkError(error: unknown, deps?: Partial<ReloadDeps>): boolean {
  if (!isChunkLoadError(error)) return false;
  const storage = deps?.storage === undefined ? sessionStorageOrNull() : deps.storage;
  if (!storage || !claimChunkReload(storage, deps?.now ?? Date.now())) return false;
  (deps?.reload ?? (() => window.location.reload()))();
  return true;
}

// One decision per error object: an error boundary renders more than once (StrictMode, re-renders),
// and only the first render may claim the window.
const decisions = new WeakMap<object, boolean>();

/**
 * For an error boundary: whether this error should reload the page (decided once per error), so the
 * boundary shows a wait instead of the error page and reloads from an effect.
 */
export function chunkReloadDecision(error: unknown, storage = sessionStorageOrNull()): boolean {
  if (!isChunkLoadError(error) || typeof error !== "object" || error === null) return false;
  let decision = decisions.get(error);
  if (decision === undefined) {
    decision = storage !== null && claimChunkReload(storage, Date.now());
    decisions.set(error, decision);
  }
  return decision;
}

/**
 * Reloads for Vite's `vite:preloadError` (a chunk or its stylesheet failed to load) outside router
 * navigations. During a navigation the error is left to the router, which shows the route's error
 * boundary at the new URL; that boundary reloads there, so the reload opens the page the person asked
 * for rather than the one they were leaving.
 */
export function listenForPreloadErrors(isNavigating: () => boolean): void {
  window.addEventListener("vite:preloadError", (event) => {
    if (isNavigating()) return;
    // When the page reloads, preventDefault keeps the error from surfacing meanwhile.
    if (reloadForChunkError(event.payload)) event.preventDefault();
  });
}
