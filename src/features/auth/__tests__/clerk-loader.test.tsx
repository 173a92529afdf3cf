import { act, fireEvent, render, screen } from "@testing-library/react";
import { StrictMode } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ClerkLoader } from "../clerk-loader";

/** How long the fake Clerk takes to report the outcome of a load, like Clerk's own script timeout. */
const LOAD_MS = 1_000;

/**
 * A Clerk that behaves like @clerk/react's where it matters: the provider takes the one shared
 * instance in render and forgets it only when it unmounts, and an instance loads once, failing or not
 * as `outcomes` says. (Loading starts when a provider first subscribes, so the spare instances
 * StrictMode's extra renders make are not counted.)
 */
const fakeClerk = vi.hoisted(() => ({
  outcomes: [] as ("error" | "ready")[],
  /** When each load started (Date.now, faked). */
  loads: [] as number[],
}));

vi.mock("@clerk/react", async () => {
  const React = await import("react");
  type Instance = { status: string; started: boolean; listeners: Set<(status: string) => void> };
  let shared: Instance | null = null;
  function startLoading(instance: Instance) {
    if (instance.started) return;
    instance.started = true;
    const outcome = fakeClerk.outcomes[fakeClerk.loads.length] ?? "ready";
    fakeClerk.loads.push(Date.now());
    setTimeout(() => {
      instance.status = outcome;
      for (const listener of instance.listeners) listener(outcome);
    }, LOAD_MS);
  }
  const StatusContext = React.createContext("loading");
  function ClerkProvider({ children }: { children: React.ReactNode }) {
    const instance = React.useRef(
      (shared ??= { status: "loading", started: false, listeners: new Set() }),
    ).current;
    const [status, setStatus] = React.useState(instance.status);
    React.useEffect(() => {
      startLoading(instance);
      instance.listeners.add(setStatus);
      setStatus(instance.status);
      return () => {
        instance.listeners.delete(setStatus);
        shared = null;
      };
    }, [instance]);
    return <StatusContext value={status}>{children}</StatusContext>;
  }
  return { ClerkProvider, useClerk: () => ({ status: React.useContext(StatusContext) }) };
});

function renderLoader() {
  render(
    <StrictMode>
      <ClerkLoader options={{ publishableKey: "pk_test_Y2xlcmsuZXhhbXBsZS5jb20k" }}>
        <p>The app</p>
      </ClerkLoader>
    </StrictMode>,
  );
}

/** Moves the clock in small steps, so React commits (and sets its next timers) between them. */
function advance(ms: number) {
  for (let left = ms; left > 0; left -= 5) {
    act(() => {
      vi.advanceTimersByTime(Math.min(5, left));
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  fakeClerk.outcomes = [];
  fakeClerk.loads = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe("ClerkLoader", () => {
  test("shows the app while Clerk loads, and keeps it when Clerk loads first time", () => {
    renderLoader();
    expect(screen.getByText("The app")).toBeInTheDocument();
    advance(LOAD_MS);
    expect(screen.getByText("The app")).toBeInTheDocument();
    expect(fakeClerk.loads).toEqual([0]);
  });

  test("retries with a fresh Clerk after 125 ms, then 250 ms, and carries on when one loads", () => {
    fakeClerk.outcomes = ["error", "error", "ready"];
    renderLoader();
    advance(LOAD_MS);
    expect(screen.getByRole("status")).toHaveTextContent("Reconnecting to the sign-in service…");
    expect(screen.queryByText("The app")).not.toBeInTheDocument();
    advance(124);
    expect(fakeClerk.loads).toHaveLength(1);
    advance(1);
    expect(fakeClerk.loads).toEqual([0, 1_125]);
    expect(screen.getByText("The app")).toBeInTheDocument();
    advance(LOAD_MS + 250);
    expect(fakeClerk.loads).toEqual([0, 1_125, 2_375]);
    advance(LOAD_MS);
    expect(screen.getByText("The app")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    advance(60_000);
    expect(fakeClerk.loads).toHaveLength(3);
  });

  test("after five retries (125, 250, 500, 1000, 2000 ms) says Clerk failed to load; Retry starts over", () => {
    fakeClerk.outcomes = Array<"error">(12).fill("error");
    renderLoader();
    advance(20_000);
    const gaps = fakeClerk.loads.slice(1).map((at, index) => at - (fakeClerk.loads[index] ?? 0) - LOAD_MS);
    expect(gaps).toEqual([125, 250, 500, 1000, 2000]);
    expect(screen.getByRole("heading", { name: "Failed to load Clerk" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("could not be loaded");
    expect(screen.queryByText("The app")).not.toBeInTheDocument();
    expect(document.title).toBe("Failed to load Clerk · LiveLocal");

    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(fakeClerk.loads).toHaveLength(7);
    expect(screen.getByText("The app")).toBeInTheDocument();
    // A fresh start: the same five retries again before giving up.
    advance(LOAD_MS + 125);
    expect(fakeClerk.loads).toHaveLength(8);
    advance(20_000);
    expect(fakeClerk.loads).toHaveLength(12);
    expect(screen.getByRole("heading", { name: "Failed to load Clerk" })).toBeInTheDocument();
  });
});
