import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "@convex/_generated/api";
import { replaceFeed } from "@convex/model/calendarFeed";
import { RATE_LIMITS } from "@convex/model/rateLimits";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { holdCalls, sentCalls } from "@/test/convex-calls";
import { CalendarFeedPanel, feedAddress, webcalAddress } from "../calendar-feed-panel";
import { NOW } from "./fixtures";

vi.mock("@/lib/convex-site", () => ({ convexSiteUrl: () => "https://site.example" }));

const convex = convexBackend();

const TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";
const ADDRESS = `https://site.example/calendar/${TOKEN}.ics`;
/** An address the backend made: a new random token. */
const ANY_ADDRESS = /^https:\/\/site\.example\/calendar\/[A-Za-z0-9_-]{43}\.ics$/;

const panel = () => within(screen.getByRole("region", { name: "Calendar feed" }));

/**
 * Jordan (or `as`), signed in, with the feed on under TOKEN (made at NOW) when `on`; the panel once it
 * has the feed.
 */
async function renderPanel({ on, as }: { on: boolean; as?: TestPerson }): Promise<TestPerson> {
  const jordan = as ?? (await convex.signInAs("viewer"));
  if (on)
    await convex.run(async (ctx) => {
      await replaceFeed(ctx, jordan.userId, TOKEN, "http://localhost:3000");
      const [feed] = await ctx.db
        .query("calendarFeeds")
        .withIndex("by_userId", (q) => q.eq("userId", jordan.userId))
        .collect();
      await ctx.db.patch(feed._id, { createdAt: NOW });
    });
  render(<CalendarFeedPanel />, { wrapper: convex.wrapper });
  await convex.answered(api.calendarFeed.myFeed, {});
  await waitFor(() => expect(panel().queryByText("Loading your calendar feed…")).not.toBeInTheDocument());
  return jordan;
}

/** The feed's address as the backend now has it, or null while it is off. */
async function storedAddress(person: TestPerson): Promise<string | null> {
  const feed = await convex.call(api.calendarFeed.myFeed, {}, person);
  return feed?.token ? feedAddress("https://site.example", feed.token) : null;
}

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
    const sent = sentCalls(convex.client);
    const jordan = await renderPanel({ on: false });
    expect(panel().getByText(/private calendar address/)).toBeInTheDocument();
    expect(panel().queryByRole("textbox")).not.toBeInTheDocument();

    const held = holdCalls(convex.client, "action");
    await userEvent.click(panel().getByRole("button", { name: "Turn on calendar feed" }));
    expect(sent).toEqual([{ name: "calendarFeed:turnOn", args: { appOrigin: window.location.origin } }]);
    expect(panel().getByRole("button", { name: "Turning on…" })).toBeDisabled();

    held.release();
    const address = await panel().findByRole("textbox", { name: "Your feed address" });
    expect((address as HTMLInputElement).value).toMatch(ANY_ADDRESS);
    expect(address).toHaveValue(await storedAddress(jordan));
  });

  test("a refusal to turn on is said in words", async () => {
    const jordan = await convex.signInAs("viewer");
    // Every new address the rate allows, made and dropped again elsewhere (another tab, a script).
    for (let made = 0; made < RATE_LIMITS.calendarFeed.capacity; made++) {
      await convex.call(api.calendarFeed.turnOn, { appOrigin: window.location.origin }, jordan);
      await convex.call(api.calendarFeed.turnOff, {}, jordan);
    }
    await renderPanel({ on: false, as: jordan });
    await userEvent.click(panel().getByRole("button", { name: "Turn on calendar feed" }));
    expect(await panel().findByRole("alert")).toHaveTextContent(
      /^That was a lot of requests in a short time\. Please try again in \d+ minutes\.$/,
    );
    expect(panel().getByRole("button", { name: "Turn on calendar feed" })).toBeEnabled();
  });

  test("on: shows the address read-only, the subscribe link and the warning", async () => {
    await renderPanel({ on: true });
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
    const writeText = vi.fn(() => Promise.resolve());
    await renderPanel({ on: true });
    const user = userEvent.setup();
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await user.click(panel().getByRole("button", { name: "Copy the feed address" }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(panel().getByRole("status")).toHaveTextContent("Copied");
  });

  test("without a clipboard, selects the address for the person to copy", async () => {
    await renderPanel({ on: true });
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
    const sent = sentCalls(convex.client);
    const jordan = await renderPanel({ on: true });
    await userEvent.click(panel().getByRole("button", { name: "Turn off" }));
    const dialog = screen.getByRole("alertdialog", { name: "Turn off the calendar feed?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(sent).toEqual([]);

    await userEvent.click(panel().getByRole("button", { name: "Turn off" }));
    await userEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Turn off" }));
    expect(sent).toEqual([{ name: "calendarFeed:turnOff", args: {} }]);
    // Off at the backend, and so on the page.
    expect(await panel().findByRole("button", { name: "Turn on calendar feed" })).toBeEnabled();
    expect(await storedAddress(jordan)).toBeNull();
  });

  test("gets a new address after warning that the old one stops working", async () => {
    const sent = sentCalls(convex.client);
    const jordan = await renderPanel({ on: true });
    await userEvent.click(panel().getByRole("button", { name: "Get a new address" }));
    const dialog = screen.getByRole("alertdialog", { name: "Get a new feed address?" });
    expect(dialog).toHaveTextContent(/current address stops working/);
    await userEvent.click(within(dialog).getByRole("button", { name: "Get a new address" }));
    expect(sent).toEqual([{ name: "calendarFeed:turnOn", args: { appOrigin: window.location.origin } }]);
    // The page shows the backend's new address; the old one is gone.
    await waitFor(() =>
      expect(panel().getByRole("textbox", { name: "Your feed address" })).not.toHaveValue(ADDRESS),
    );
    expect(panel().getByRole("textbox", { name: "Your feed address" })).toHaveValue(
      await storedAddress(jordan),
    );
  });
});
