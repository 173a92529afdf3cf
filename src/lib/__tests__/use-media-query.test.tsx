import { act, renderHook } from "@testing-library/react";
import { afterEach, expect, test, vi } from "vitest";
import { useMediaQuery } from "../use-media-query";

/** A window whose width the test sets; `matchMedia` answers min-width queries from it. */
function fakeWindow(width: number) {
  const lists = new Set<{ query: string; listeners: Set<() => void> }>();
  const matches = (query: string) => width >= Number(/min-width: (\d+)px/.exec(query)?.[1] ?? Infinity);
  vi.stubGlobal("matchMedia", (query: string) => {
    const list = { query, listeners: new Set<() => void>() };
    lists.add(list);
    return {
      get matches() {
        return matches(query);
      },
      addEventListener: (_: string, listener: () => void) => list.listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => list.listeners.delete(listener),
    };
  });
  return {
    resize(to: number) {
      width = to;
      for (const list of lists) for (const listener of list.listeners) listener();
    },
    listening: () => [...lists].reduce((sum, list) => sum + list.listeners.size, 0),
  };
}

afterEach(() => vi.unstubAllGlobals());

test("answers the window's match and follows it as the window changes, until unmounted", () => {
  const browser = fakeWindow(390);
  const { result, unmount } = renderHook(() => useMediaQuery("(min-width: 1024px)"));
  expect(result.current).toBe(false);
  act(() => browser.resize(1280));
  expect(result.current).toBe(true);
  act(() => browser.resize(800));
  expect(result.current).toBe(false);
  unmount();
  expect(browser.listening()).toBe(0);
});

test("a browser without matchMedia reads false", () => {
  vi.stubGlobal("matchMedia", undefined);
  const { result } = renderHook(() => useMediaQuery("(min-width: 1024px)"));
  expect(result.current).toBe(false);
});
