/**
 * What a signed-out person asked for (save a show, follow a shop) while they go to sign in, so the
 * same action completes when they come back (PendingActionRunner). Kept in this tab's sessionStorage
 * only: one action, the latest, forgotten after PENDING_ACTION_TTL_MS. Read by hand rather than with a
 * schema library, to keep the app's first load small; anything malformed is dropped.
 */

export type PendingAction = {
  kind: "saveStream" | "followShop";
  /** The stream's or shop's id. */
  id: string;
  /** Its title or name, for the confirmation. */
  label: string;
  /** When it was asked for (ms since epoch). */
  at: number;
};

export const PENDING_ACTION_KEY = "livelocal:pending-watch-action";
/** Long enough to sign in or make an account; short enough that a forgotten click does not surprise. */
export const PENDING_ACTION_TTL_MS = 30 * 60_000;
/**
 * Convex's ids are short lowercase base32 strings; the embedded backend's are digits then the table's
 * name (`…liveShops`, `…_storage`). Anything else was not written by this app.
 */
const ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
const MAX_LABEL_LENGTH = 300;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers the action, replacing any earlier one. Returns false when the browser keeps no storage. */
export function rememberPendingAction(action: Omit<PendingAction, "at">, now = Date.now()): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(PENDING_ACTION_KEY, JSON.stringify({ ...action, at: now }));
    return true;
  } catch {
    return false;
  }
}

function parse(raw: string): PendingAction | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { kind, id, label, at } = value as Record<string, unknown>;
  if (kind !== "saveStream" && kind !== "followShop") return null;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) return null;
  if (typeof label !== "string" || label.length === 0 || label.length > MAX_LABEL_LENGTH) return null;
  if (typeof at !== "number" || !Number.isFinite(at)) return null;
  return { kind, id, label, at };
}

/**
 * The remembered action, if there is a well-formed one from the last 30 minutes (and not from the
 * future, beyond a minute of clock change). A stale or malformed entry is removed.
 */
export function readPendingAction(now = Date.now()): PendingAction | null {
  const store = storage();
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(PENDING_ACTION_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  const action = parse(raw);
  const fresh = action !== null && action.at <= now + 60_000 && now - action.at <= PENDING_ACTION_TTL_MS;
  if (!fresh) clearPendingAction();
  return fresh ? action : null;
}

/** Forgets the remembered action. */
export function clearPendingAction(): void {
  try {
    storage()?.removeItem(PENDING_ACTION_KEY);
  } catch {
    // Storage refused: nothing was remembered either.
  }
}

/** Reads and forgets the action in one step, so it runs at most once. */
export function takePendingAction(now = Date.now()): PendingAction | null {
  const action = readPendingAction(now);
  if (action) clearPendingAction();
  return action;
}
