/**
 * Data that survives restarts: snapshots of the engine's documents in the data folder (git-ignored
 * `.local-backend/` at the repo root), written after writes (debounced) and on stop, read on start.
 * Stored files (`ctx.storage`) are kept beside it, one file per storage id in `storage/`, written once
 * (a stored file never changes) and removed once their `_storage` document is gone.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { convexToJson, jsonToConvex, type JSONValue, type Value } from "convex/values";
import type { EngineState } from "./engine.ts";
import { inRootScope } from "./engine.ts";
import { tableFromId } from "./paths.ts";

const SNAPSHOT_FORMAT = "livelocal-local-backend-snapshot";
const SNAPSHOT_VERSION = 1;

type SnapshotFile = {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  /** The engine whose private state this mirrors. */
  convexTest: string;
  savedAt: string;
  nextDocId: number;
  lastCreationTime: number;
  lastCommitTs: string;
  documents: JSONValue[];
};

export function serializeState(state: EngineState): string {
  const file: SnapshotFile = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    convexTest: "0.0.60",
    savedAt: new Date().toISOString(),
    nextDocId: state.nextDocId,
    lastCreationTime: state.lastCreationTime,
    lastCommitTs: state.lastCommitTs.toString(),
    documents: Object.values(state.documents).map((doc) => convexToJson(doc as Value)),
  };
  return JSON.stringify(file);
}

export function deserializeState(text: string): EngineState {
  const file = JSON.parse(text) as SnapshotFile;
  if (file.format !== SNAPSHOT_FORMAT || file.version !== SNAPSHOT_VERSION) {
    throw new Error(`Unknown snapshot format ${String(file.format)} v${String(file.version)}`);
  }
  const documents: EngineState["documents"] = {};
  for (const json of file.documents) {
    const doc = jsonToConvex(json) as Record<string, Value>;
    documents[doc._id as string] = doc;
  }
  return {
    documents,
    nextDocId: file.nextDocId,
    lastCreationTime: file.lastCreationTime,
    lastCommitTs: BigInt(file.lastCommitTs),
    storage: {},
  };
}

/** Temporary files are `<name>.<pid>.tmp`: written in full, then renamed over `<name>`. */
const TEMP_FILE = /\.(\d+)\.tmp$/;

/** Writes `file` whole or not at all; the temporary file never outlives the call. */
function writeAtomically(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes temporary files left by a save that was interrupted (the process was killed mid-write): on
 * start, before this process has written any, so its own pid's leftovers (a reused pid) go too, and
 * another running process's (a second backend on the same folder) stay.
 */
export function removeLeftoverTempFiles(dir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = TEMP_FILE.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && isRunning(pid)) continue;
    rmSync(path.join(dir, name), { force: true });
    removed += 1;
  }
  return removed;
}

/** Storage ids whose `_storage` document exists: the files worth keeping. */
function liveStorageIds(state: Pick<EngineState, "documents">): string[] {
  return Object.keys(state.documents).filter((id) => tableFromId(id) === "_storage");
}

/** The stored files of the snapshot's `_storage` documents, from `dir` (missing ones are skipped). */
export function readStoredFiles(dir: string, state: Pick<EngineState, "documents">): Record<string, Blob> {
  const storage: Record<string, Blob> = {};
  for (const id of liveStorageIds(state)) {
    try {
      storage[id] = new Blob([readFileSync(path.join(dir, id))]);
    } catch {
      console.warn(`local-backend: stored file ${id} is missing from ${dir}`);
    }
  }
  return storage;
}

/** Writes the files not on disk yet and removes the ones whose `_storage` document is gone. */
export async function writeStoredFiles(dir: string, state: EngineState): Promise<void> {
  const live = new Set(liveStorageIds(state).filter((id) => state.storage[id] !== undefined));
  mkdirSync(dir, { recursive: true });
  for (const id of live) {
    const file = path.join(dir, id);
    if (existsSync(file)) continue;
    writeAtomically(file, new Uint8Array(await state.storage[id].arrayBuffer()));
  }
  for (const name of readdirSync(dir)) {
    if (!live.has(name)) rmSync(path.join(dir, name), { force: true });
  }
}

export class SnapshotStore {
  readonly file: string | null;
  /** Where stored files are kept. */
  readonly storageDir: string | null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private firstPendingAt: number | null = null;
  private saving: Promise<void> = Promise.resolve();

  /** `dir` null keeps everything in memory. */
  constructor(
    readonly dir: string | null,
    private readonly exportState: () => Promise<EngineState>,
    private readonly options: { debounceMs?: number; maxWaitMs?: number } = {},
  ) {
    this.file = dir ? path.join(dir, "snapshot.json") : null;
    this.storageDir = dir ? path.join(dir, "storage") : null;
  }

  /** Wipes the data folder (snapshot and auth key). */
  static reset(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
  }

  load(): EngineState | null {
    if (!this.file || !this.dir) return null;
    removeLeftoverTempFiles(this.dir);
    if (this.storageDir) removeLeftoverTempFiles(this.storageDir);
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return null;
    }
    try {
      const state = deserializeState(text);
      return this.storageDir ? { ...state, storage: readStoredFiles(this.storageDir, state) } : state;
    } catch (e) {
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      console.warn(`local-backend: could not read ${this.file} (${String(e)}); moved it to ${aside}`);
      return null;
    }
  }

  /** Saves soon (debounced, at most `maxWaitMs` after the first unsaved write). */
  scheduleSave(): void {
    if (!this.file) return;
    const debounceMs = this.options.debounceMs ?? 300;
    const maxWaitMs = this.options.maxWaitMs ?? 2000;
    const now = Date.now();
    this.firstPendingAt ??= now;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(debounceMs, this.firstPendingAt + maxWaitMs - now));
    this.timer = inRootScope(() => setTimeout(() => void this.saveNow(), delay));
    this.timer.unref?.();
  }

  /** Saves now (also called on stop). Saves never overlap. */
  async saveNow(): Promise<void> {
    if (!this.file) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.firstPendingAt = null;
    const file = this.file;
    this.saving = this.saving
      .then(async () => {
        const state = await this.exportState();
        const text = serializeState(state);
        // Files first: a snapshot never names a stored file that is not on disk.
        if (this.storageDir) await writeStoredFiles(this.storageDir, state);
        mkdirSync(path.dirname(file), { recursive: true });
        writeAtomically(file, text);
      })
      .catch((e: unknown) => console.error("local-backend: snapshot failed", e));
    await this.saving;
  }

  hasPendingSave(): boolean {
    return this.timer !== null;
  }
}
