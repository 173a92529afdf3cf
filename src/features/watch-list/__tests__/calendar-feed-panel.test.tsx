import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConvexError } from "convex/values";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  convexReactMock,
  mutationCalls,
  mutationImpl,
  resetConvexMock,
  setQueryResult,
} from "@/test/convex-mock";
import { api } from "@convex/_generated/api";
import { CalendarFeedPanel, feedAddress, webcalAddress } from "../calendar-feed-panel";
import { NOW } from "./fixtures";

vi.mock("convex/react", () => convexReactMock);
vi.mock("@/lib/convex-site", () => ({ convexSiteUrl: () => "https://site.example" }));

const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";
const ADDRESS = `https://site.example/calendar/${TOKEN}.ics`;

const panel = () => within(screen.getByRole("region", { name: "Calendar feed" }));

/** A call that stays in flight until `resolve` or `reject` is called. */
function deferred() {
  let resolve: (value: unknown) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  resetConvexMock();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("calendar feed panel", () => {
  test("builds the address and its webcal:// twin", () => {
    expect(feedAddress("https://site.example", TOKEN)).toBe(ADDRESS);
    expect(webcalAddress(ADDRESS)).toBe(`webcal://site.example/calendar/${TOKEN}.ics`);
    expect(webcalAddress("http://127.0.0.1:5173/local-backend/site/calendar/x.ics")).toBe(
      "webcal://127.0.0.1:5173/local-backend/site/calendar/x.ics",
    );
  });

  test("off: explains it, and turns on for this app's address, showing the wait", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: null, createdAt: null });
    const call = deferred();
    mutationImpl.current = () => call.promise;
    render(<CalendarFeedPanel />);
    expect(panel().getByText(/private calendar address/)).toBeInTheDocument();
    expect(panel().queryByRole("textbox")).not.toBeInTheDocument();

    await userEvent.click(panel().getByRole("button", { name: "Turn on calendar feed" }));
    expect(mutationCalls).toEqual([
      { name: "calendarFeed:turnOn", args: { appOrigin: window.location.origin } },
    ]);
    expect(panel().getByRole("button", { name: "Turning on…" })).toBeDisabled();

    await act(async () => {
      call.resolve({ token: TOKEN });
      setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
      await call.promise;
    });
    expect(panel().getByRole("textbox", { name: "Your feed address" })).toHaveValue(ADDRESS);
  });

  test("a refusal to turn on is said in words", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: null, createdAt: null });
    mutationImpl.current = () =>
      Promise.reject(
        new ConvexError({ code: "INVALID_ARGUMENT", message: "The app's address is too long." }),
      );
    render(<CalendarFeedPanel />);
    await userEvent.click(panel().getByRole("button", { name: "Turn on calendar feed" }));
    expect(await panel().findByRole("alert")).toHaveTextContent("The app's address is too long.");
    expect(panel().getByRole("button", { name: "Turn on calendar feed" })).toBeEnabled();
  });

  test("on: shows the address read-only, the subscribe link and the warning", () => {
    setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
    render(<CalendarFeedPanel />);
    const address = panel().getByRole("textbox", { name: "Your feed address" });
    expect(address).toHaveValue(ADDRESS);
    expect(address).toHaveAttribute("readonly");
    expect(address).toHaveAccessibleDescription(/anyone who has it can see the shows you saved/);
    expect(panel().getByRole("link", { name: "Subscribe in your calendar app" })).toHaveAttribute(
      "href",
      `webcal://site.example/calendar/${TOKEN}.ics`,
    );
    expect(panel().getByText("Address made on Nov 21, 2026.")).toBeInTheDocument();
    expect(panel().queryByRole("button", { name: /Turn on/ })).not.toBeInTheDocument();
  });

  test("copies the address, and says so politely", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
    const writeText = vi.fn(() => Promise.resolve());
    render(<CalendarFeedPanel />);
    const user = userEvent.setup();
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(panel().getByRole("button", { name: "Copy the feed address" }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(panel().getByRole("status")).toHaveTextContent("Copied");
  });

  test("without a clipboard, selects the address for the person to copy", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
    render(<CalendarFeedPanel />);
    const user = userEvent.setup();
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new Error("denied")) },
      configurable: true,
    });
    await user.click(panel().getByRole("button", { name: "Copy the feed address" }));
    const address = panel().getByRole<HTMLInputElement>("textbox", { name: "Your feed address" });
    expect(address).toHaveFocus();
    expect([address.selectionStart, address.selectionEnd]).toEqual([0, ADDRESS.length]);
    expect(panel().getByRole("status")).toHaveTextContent(/the address is selected/);
  });

  test("turns off only after confirming", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
    render(<CalendarFeedPanel />);
    await userEvent.click(panel().getByRole("button", { name: "Turn off" }));
    const dialog = screen.getByRole("alertdialog", { name: "Turn off the calendar feed?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(mutationCalls).toEqual([]);

    await userEvent.click(panel().getByRole("button", { name: "Turn off" }));
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Turn off" }));
    expect(mutationCalls).toEqual([{ name: "calendarFeed:turnOff", args: {} }]);
  });

  test("gets a new address after warning that the old one stops working", async () => {
    setQueryResult(api.calendarFeed.myFeed, { token: TOKEN, createdAt: NOW });
    render(<CalendarFeedPanel />);
    await userEvent.click(panel().getByRole("button", { name: "Get a new address" }));
    const dialog = screen.getByRole("alertdialog", { name: "Get a new feed address?" });
    expect(dialog).toHaveTextContent(/current address stops working/);
    await userEvent.click(within(dialog).getByRole("button", { name: "Get a new address" }));
    expect(mutationCalls).toEqual([
      { name: "calendarFeed:turnOn", args: { appOrigin: window.location.origin } },
    ]);
  });
});
