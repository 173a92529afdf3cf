import { act, render, screen, within } from "@testing-library/react";
import { StrictMode, useSyncExternalStore, type ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import type { Id } from "@convex/_generated/dataModel";
import { NoticesProvider } from "@/components/notices/notices";
import { HIDDEN_TAB_GRACE_MS } from "../claim-timing";
import { GoLiveAnnouncer, type GoLiveAnnouncement } from "../go-live-alerts";

// The announcer's timing, on its own: the list it is given and the claims it makes are this file's.
// go-live-alerts-when-signed-in.test.tsx runs the alerts against the server on the real client.

const SAVED: GoLiveAnnouncement = {
  streamId: "stream1" as GoLiveAnnouncement["streamId"],
  streamTitle: "Spring plant swap",
  liveShopName: "Green Corner",
  reason: "saved",
};
const FOLLOWED: GoLiveAnnouncement = {
  streamId: "stream2" as GoLiveAnnouncement["streamId"],
  streamTitle: "Vinyl Friday",
  liveShopName: "Groove Records",
  reason: "followed",
};

let visibility: DocumentVisibilityState = "visible";

beforeAll(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => visibility });
});

afterAll(() => {
  // The own property shadows jsdom's getter; removing it brings that back.
  delete (document as { visibilityState?: DocumentVisibilityState }).visibilityState;
});

/** The server's answers to claims, by alert id; an id not listed answers null (not this tab's). */
let answers: Record<string, GoLiveAnnouncement | Error>;
const claim = vi.fn(({ alertId }: { alertId: Id<"goLiveAlerts"> }) => {
  const answer = answers[alertId];
  return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? null);
});

type Pending = { _id: Id<"goLiveAlerts">; createdAt: number }[];
/** The pending list the announcer is given, as the live query would give it (undefined: loading). */
let pendingList: Pending | undefined;
const listeners = new Set<() => void>();
function givePending(list: Pending | undefined) {
  pendingList = list;
  for (const listener of listeners) listener();
}
function Announcer() {
  const list = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pendingList,
  );
  return <GoLiveAnnouncer pending={list} claim={claim} />;
}

beforeEach(() => {
  vi.useFakeTimers();
  claim.mockClear();
  pendingList = undefined;
  visibility = "visible";
  document.title = "Explore · LiveLocal";
  answers = {};
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function pending(...ids: string[]): Pending {
  return ids.map((_id, index) => ({ _id: _id as Id<"goLiveAlerts">, createdAt: 1_000 + index }));
}

function setPending(...ids: string[]) {
  act(() => givePending(pending(...ids)));
}

function setVisibility(next: DocumentVisibilityState) {
  visibility = next;
  act(() => {
    document.dispatchEvent(new Event("visibilitychange"));
  });
}

/** Lets answered claims settle (promises only; no time passes). */
async function settle() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function wait(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function frame(children: ReactNode) {
  return (
    <StrictMode>
      <MemoryRouter>
        <NoticesProvider>{children}</NoticesProvider>
      </MemoryRouter>
    </StrictMode>
  );
}

function renderAlerts() {
  return render(frame(<Announcer />));
}

const claims = () => claim.mock.calls.map(([args]) => args);
const notices = () => screen.getByRole("status");

describe("a visible tab", () => {
  test("claims a new alert at once and announces a saved show with a link to it", async () => {
    answers = { alert1: SAVED };
    givePending(pending("alert1"));
    renderAlerts();
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await settle();
    expect(notices()).toHaveTextContent("Spring plant swap is live now");
    expect(notices()).toHaveTextContent("A show you saved · Green Corner");
    expect(within(notices()).getByRole("link", { name: "Watch now" })).toHaveAttribute(
      "href",
      "/stream/stream1",
    );
    // Seen where it was shown: the title is left alone.
    expect(document.title).toBe("Explore · LiveLocal");
  });

  test("announces a followed shop's show with its own words, when it arrives while the tab is open", async () => {
    answers = { alert2: FOLLOWED };
    givePending([]);
    renderAlerts();
    expect(claims()).toEqual([]);
    setPending("alert2");
    expect(claims()).toEqual([{ alertId: "alert2" }]);
    await settle();
    expect(notices()).toHaveTextContent("Vinyl Friday is live now");
    expect(notices()).toHaveTextContent("Groove Records, a shop you follow, just went live");
    expect(within(notices()).getByRole("link", { name: "Watch now" })).toHaveAttribute(
      "href",
      "/stream/stream2",
    );
  });

  test("claims nothing while the list is loading", () => {
    renderAlerts();
    expect(claims()).toEqual([]);
  });
});

describe("a hidden tab", () => {
  test("waits out the grace, then claims, announces and marks the title until the tab is back", async () => {
    visibility = "hidden";
    answers = { alert1: SAVED };
    givePending(pending("alert1"));
    renderAlerts();
    await wait(HIDDEN_TAB_GRACE_MS - 1);
    expect(claims()).toEqual([]);
    await wait(1);
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await settle();
    expect(notices()).toHaveTextContent("Spring plant swap is live now");
    expect(document.title).toBe("● Explore · LiveLocal");
    setVisibility("visible");
    expect(document.title).toBe("Explore · LiveLocal");
    expect(notices()).toHaveTextContent("Spring plant swap is live now");
    expect(claims()).toHaveLength(1);
  });

  test("claims as soon as it becomes visible, without waiting out the grace", async () => {
    visibility = "hidden";
    answers = { alert1: SAVED };
    givePending(pending("alert1"));
    renderAlerts();
    await wait(1000);
    expect(claims()).toEqual([]);
    setVisibility("visible");
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await settle();
    expect(notices()).toHaveTextContent("Spring plant swap is live now");
    expect(document.title).toBe("Explore · LiveLocal");
    // The grace running out later changes nothing.
    await wait(HIDDEN_TAB_GRACE_MS);
    expect(claims()).toHaveLength(1);
  });

  test("does not claim an alert another tab claimed during its grace", async () => {
    visibility = "hidden";
    givePending(pending("alert1"));
    renderAlerts();
    await wait(1000);
    // Another tab won it: the server no longer lists it.
    setPending();
    await wait(HIDDEN_TAB_GRACE_MS * 2);
    setVisibility("visible");
    expect(claims()).toEqual([]);
  });

  test("times each alert's grace from when this tab first saw it", async () => {
    visibility = "hidden";
    givePending(pending("alert1"));
    renderAlerts();
    await wait(3000);
    setPending("alert1", "alert2");
    await wait(1000);
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await wait(2999);
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await wait(1);
    expect(claims()).toEqual([{ alertId: "alert1" }, { alertId: "alert2" }]);
  });
});

describe("each alert is claimed once per tab", () => {
  test("re-renders of the list, a newly listed alert and visibility changes never claim an id again", async () => {
    answers = { alert1: SAVED, alert2: FOLLOWED };
    givePending(pending("alert1"));
    renderAlerts(); // in StrictMode: effects run twice
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    // The claim's answer has not come yet, and the list answers again with the same alert.
    setPending("alert1");
    setPending("alert1", "alert2");
    setVisibility("hidden");
    setVisibility("visible");
    await settle();
    await wait(HIDDEN_TAB_GRACE_MS * 2);
    expect(claims()).toEqual([{ alertId: "alert1" }, { alertId: "alert2" }]);
    // One notice per event.
    expect(within(notices()).getAllByRole("link", { name: "Watch now" })).toHaveLength(2);
  });
});

describe("claims that announce nothing", () => {
  test("a claim answered null (another tab won, stale, or turned off) shows nothing", async () => {
    visibility = "hidden";
    givePending(pending("alert1"));
    renderAlerts();
    await wait(HIDDEN_TAB_GRACE_MS);
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    await settle();
    expect(notices()).toBeEmptyDOMElement();
    expect(document.title).toBe("Explore · LiveLocal");
  });

  test("a claim that fails shows nothing, is logged as a warning, and is not tried again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    answers = { alert1: new Error("This alert is not on your account.") };
    givePending(pending("alert1"));
    renderAlerts();
    await settle();
    expect(notices()).toBeEmptyDOMElement();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toEqual(answers.alert1);
    setPending("alert1");
    setVisibility("hidden");
    setVisibility("visible");
    await wait(HIDDEN_TAB_GRACE_MS * 2);
    expect(claims()).toEqual([{ alertId: "alert1" }]);
  });

  test("a claim answered after the alerts were unmounted (signed out) shows nothing", async () => {
    let answer: (value: GoLiveAnnouncement) => void = () => {};
    claim.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    givePending(pending("alert1"));
    const { rerender } = renderAlerts();
    expect(claims()).toEqual([{ alertId: "alert1" }]);
    rerender(frame(null));
    answer(SAVED);
    await settle();
    expect(notices()).toBeEmptyDOMElement();
  });
});
