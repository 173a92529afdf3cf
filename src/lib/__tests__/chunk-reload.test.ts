import { describe, expect, test, vi } from "vitest";
import {
  CHUNK_RELOAD_STORAGE_KEY,
  chunkReloadDecision,
  claimChunkReload,
  isChunkLoadError,
  reloadForChunkError,
} from "../chunk-reload";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe("isChunkLoadError", () => {
  test.each([
    "Failed to fetch dynamically imported module: https://x/assets/home-page-abc.js",
    "error loading dynamically imported module: https://x/assets/a.js",
    "Importing a module script failed.",
    "Unable to preload CSS for /assets/index-abc.css",
    "Loading chunk 42 failed.",
  ])("recognises %s", (message) => {
    expect(isChunkLoadError(new Error(message))).toBe(true);
  });

  test("recognises an error named ChunkLoadError", () => {
    expect(isChunkLoadError(Object.assign(new Error("x"), { name: "ChunkLoadError" }))).toBe(true);
  });

  test.each([[new Error("Cannot read properties of undefined")], ["a string"], [null], [undefined]])(
    "does not take %s for one",
    (error) => {
      expect(isChunkLoadError(error)).toBe(false);
    },
  );
});

describe("claimChunkReload", () => {
  test("the first chunk error reloads and is remembered", () => {
    const storage = memoryStorage();
    expect(claimChunkReload(storage, 1_000_000)).toBe(true);
    expect(storage.getItem(CHUNK_RELOAD_STORAGE_KEY)).toBe("1000000");
  });

  test("another within 10 seconds does not reload", () => {
    const storage = memoryStorage({ [CHUNK_RELOAD_STORAGE_KEY]: "1000000" });
    expect(claimChunkReload(storage, 1_009_999)).toBe(false);
  });

  test("one 10 seconds or more later reloads again", () => {
    const storage = memoryStorage({ [CHUNK_RELOAD_STORAGE_KEY]: "1000000" });
    expect(claimChunkReload(storage, 1_010_000)).toBe(true);
  });

  test("a garbled or future value does not block a reload", () => {
    expect(claimChunkReload(memoryStorage({ [CHUNK_RELOAD_STORAGE_KEY]: "soon" }), 5)).toBe(true);
    expect(claimChunkReload(memoryStorage({ [CHUNK_RELOAD_STORAGE_KEY]: "9999999" }), 5)).toBe(true);
  });

  test("storage that throws never reloads, so it cannot loop", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {},
    };
    expect(claimChunkReload(broken, 1)).toBe(false);
  });
});

describe("reloadForChunkError", () => {
  test("reloads for a chunk error once per window, and not for other errors", () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const chunkError = new Error("Failed to fetch dynamically imported module: /assets/a.js");
    expect(reloadForChunkError(new Error("boom"), { storage, now: 0, reload })).toBe(false);
    expect(reloadForChunkError(chunkError, { storage, now: 1_000, reload })).toBe(true);
    expect(reloadForChunkError(chunkError, { storage, now: 5_000, reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

test("an error boundary's decision is taken once per error, so re-renders do not use up the window", () => {
  const storage = memoryStorage();
  const error = new Error("Failed to fetch dynamically imported module: /assets/b.js");
  expect(chunkReloadDecision(error, storage)).toBe(true);
  expect(chunkReloadDecision(error, storage)).toBe(true);
  expect(chunkReloadDecision(new Error("Failed to fetch dynamically imported module: /c.js"), storage)).toBe(
    false,
  );
  expect(chunkReloadDecision(new Error("boom"), storage)).toBe(false);
});
